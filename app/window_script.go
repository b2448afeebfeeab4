package app

import (
	"fmt"

	"pcgwb/problems"
)

// The workbench's scripting steps: what the command line's --get-data and --play do, by the
// same paths as the buttons a user presses, so that a real-window test (and a workshop demo
// prepared in advance) walks the GUI's own flow rather than a copy of it.

// GetData presses "Get the data…" for the selected problem when its data files are missing
// (the licence shown in the panel is accepted). It reports false when there is nothing to get:
// the problem has its data, or no data panel is shown for it.
func (wb *Workbench) GetData() bool {
	o := wb.dataOffer
	if o == nil || o.problem != wb.problemName || problems.Unavailable(o.problem) == nil {
		return false
	}
	o.download()
	return true
}

// PlaySampled opens level i (0-based) of a sample set the Sample tab shows in the detail
// dialog and presses its Play: the play window opens as a child process, and Options.OnPlayed
// gets its outcome.
func (wb *Workbench) PlaySampled(set *SampleSet, i int) error {
	if set == nil || i < 0 || i >= len(set.Levels) {
		return fmt.Errorf("no level %d in the sample", i+1)
	}
	wb.openSampled(set, i)
	dv := wb.detail
	if dv == nil || dv.problem != set.problem {
		return fmt.Errorf("the level dialog of %s did not open", set.problem)
	}
	if dv.playButton == nil {
		return fmt.Errorf("%s has no play view", set.problem)
	}
	dv.playButton.OnTapped()
	return nil
}

package app

import (
	"pcgwb/games/birds"
	"pcgwb/games/play"
	"pcgwb/problems/data"
)

// Options configure a new workbench: what it shows first. The zero value gives the defaults.
type Options struct {
	// Problem is selected at start: "" is DefaultProblem, or else the first problem this
	// machine can make. An unknown name is an error; a problem that cannot be made (missing
	// data) is selected and its error shown in the window.
	Problem string
	// Tab is brought to the front, by name (see TabNames): "" is "run" when Run is set, else
	// "sample".
	Tab string
	// Samples is the Sample tab's count (0: DefaultSamples).
	Samples int
	// Seed is the seed of the Sample tab and of the Run tab (nil: the settings' default seed).
	Seed *uint64
	// OutputDir is where this session's runs go instead of the settings' output folder.
	OutputDir string
	// Run configures the Run tab (StartRun starts it).
	Run *RunOptions
	// Open lists run folders: one opens in the Run tab, several are added to Compare.
	Open []string
	// BirdsFolder is a Science Birds competition folder the Birds tab evaluates at start.
	BirdsFolder string
	// SampleAtStart draws the first sample as soon as the window is built.
	SampleAtStart bool
	// OnSampled is called on the UI goroutine each time a sample set has been shown, or has
	// failed (set is nil then).
	OnSampled func(set *SampleSet, err error)
	// OnRunStopped is called on the UI goroutine whenever a run stops.
	OnRunStopped func(rec *RunRecord, state RunState, err error)

	// BirdsClassifier is the Birds tab's letter classifier (nil: none, similarity is shown as
	// missing). The shell passes the one its --classifier flag names: the proxy CNN by default.
	BirdsClassifier birds.Classifier

	// DataSource is where "Get the data…" downloads from: an http(s) URL or a local .tar.gz
	// of the reference repository ("": its public archive at the pinned commit).
	DataSource string
	// OnData is called on the UI goroutine when a download or import of problem's data ends.
	OnData func(problem string, rep *data.Report, err error)
	// PlayArgs are more arguments for every play window this session opens (scripting: the
	// play command's --script KEYS).
	PlayArgs []string
	// OnPlayed is called on the UI goroutine when a play window opened by Play or Watch
	// closes: its outcome (nil when it was closed without one), or why it failed.
	OnPlayed func(o *play.Outcome, err error)

	// ui, when set, is the UI-thread plumbing the window uses instead of a new one: the test
	// harness holds its lock before New starts the first jobs.
	ui *uiThread
}

// RunOptions configure the Run tab: the generator, its generations and population.
type RunOptions struct {
	Generator   string
	Generations int
	Population  int
}

// openAll opens run folders: one in the Run tab, several in Compare.
func (wb *Workbench) openAll(dirs []string) error {
	if len(dirs) == 1 {
		return wb.openRunFolder(dirs[0])
	}
	for _, dir := range dirs {
		runs, err := LoadRunRecords(dir)
		if err != nil {
			return err
		}
		wb.compare.addRuns(runs...)
	}
	if len(dirs) > 1 {
		wb.showTab("compare")
	}
	return nil
}

// StartRun starts (or resumes) the Run tab's run and brings the tab to the front.
func (wb *Workbench) StartRun() {
	wb.showTab("run")
	wb.run.Start()
}

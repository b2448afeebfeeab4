package app

import (
	"strings"

	"pcgwb/llm"
	"pcgwb/problems"
)

// How the tabs read and feed one another: a panel that needs a sibling gets it at
// construction as one of these small interfaces (buildTabs wires them), never through the
// window's fields. The Range tab reads the Run, Sample and Compare tabs; Compare reads the Run
// tab; the LLM tab reads and feeds Compare; the Run tab reads the LLM tab's endpoint.

// runSource is the Run tab as the others read it: the run it shows (nil before any) and that
// run's problem.
type runSource interface {
	shownRun() (*RunRecord, problems.Problem)
}

// sampleSource is the Sample tab as the Range tab reads it: its last set (nil before any).
type sampleSource interface {
	Last() *SampleSet
}

// runCollection is the Compare tab as the others read and feed it: its runs and their groups,
// a problem by name (made once), and a run folder to add.
type runCollection interface {
	Runs() []*RunRecord
	Groups() []*CompareGroup
	problem(name string) (problems.Problem, error)
	addFolder(dir string)
}

// modelEndpoint is the LLM tab as the Run tab reads it: the endpoint it configures and the
// client configuration made from it.
type modelEndpoint interface {
	endpoint() (model, baseURL string, offline bool)
	config() (llm.Config, error)
}

// shownRun is the run the Run tab shows and its problem.
func (rp *runPanel) shownRun() (*RunRecord, problems.Problem) { return rp.record, rp.problem }

// endpoint is the model, base URL ("" for the default) and offline box the LLM tab holds.
func (lp *llmPanel) endpoint() (model, baseURL string, offline bool) {
	return strings.TrimSpace(lp.model.Text), strings.TrimSpace(lp.baseURL.Text), lp.offline.Checked
}

// llmEndpoint is the window's LLM tab as the Run tab reads it, or nil without one.
func (wb *Workbench) llmEndpoint() modelEndpoint {
	if lp := wb.llm(); lp != nil {
		return lp
	}
	return nil
}

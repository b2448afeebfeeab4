package app

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"pcgwb/llm"
	"pcgwb/llm/llmtest"
	"pcgwb/problems"
	"pcgwb/problems/search"
)

// TestRunTabShowsLLMRetries: while the client of an llm-ga run retries requests the server
// refuses, the Run tab's status says so between generations (it sat on the last generation's
// line for as long as the retries lasted), as the LLM tab's does.
func TestRunTabShowsLLMRetries(t *testing.T) {
	p, err := problems.Make(evolveTestProblem)
	if err != nil {
		t.Fatal(err)
	}
	bp, err := llm.Templates{}.Load(evolveTestProblem, "")
	if err != nil {
		t.Fatal(err)
	}
	edit := llmtest.Evolver(func(parents []string, seed int) string { return llm.KnownEdit(p, bp.Legend, parents, seed) })
	var calls atomic.Int64
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		if calls.Add(1) <= 3 {
			return llmtest.Reply{Status: 503, RetryAfter: "0"} // busy: retry at once
		}
		<-release // the later attempts wait until the test has looked
		return edit(c, seen)
	})
	t.Cleanup(srv.Close)
	t.Cleanup(free) // before the server closes and the workbench's cleanup cancels the run

	wb := newEvolveWorkbench(t)
	useTestEndpoint(wb, srv)
	rp := wb.run
	wb.showTab("run")
	rp.fitness.SetSelected(search.FitnessQuality)
	rp.llmRate.SetText("1")
	rp.llmRepairs.SetText("1")
	startRun(t, wb, llm.GAName, 4, 2)

	const retried = "3 failed and retried (last: 503 Service Unavailable)"
	eventually(t, "the retries in the Run tab's status", func() bool { return strings.Contains(rp.status.Text, retried) })
	free()
	waitRun(t, wb)
	if rp.state != RunFinished {
		t.Fatalf("state %v (%s %s)", rp.state, rp.status.Text, rp.errorText.Text)
	}
}

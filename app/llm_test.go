package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2/test"

	"pcgwb/llm/llmtest"
	"pcgwb/problems/experiment"
)

const llmTestKey = "sk-apptest-SECRET-4242"

// roomsReply is a valid level of the fake problem: walls around the border, one player, and a
// few inner walls that differ per n so that the levels are not all the same.
func roomsReply(n int) string {
	var rows []string
	for y := 0; y < fakeRows; y++ {
		var cells []string
		for x := 0; x < fakeCols; x++ {
			v := 0
			switch {
			case y == 0 || x == 0 || y == fakeRows-1 || x == fakeCols-1:
				v = 1
			case y == 3 && x == 5:
				v = 2
			case y == 2 && x == 1+n%8:
				v = 1
			}
			cells = append(cells, fmt.Sprint(v))
		}
		rows = append(rows, "["+strings.Join(cells, ", ")+"]")
	}
	return "Here is a level:\n```json\n[" + strings.Join(rows, ",\n ") + "]\n```\n"
}

func newLLMTestPanel(t *testing.T, srv *llmtest.Server) (*Workbench, *llmPanel) {
	t.Helper()
	wb := newTestWorkbench(t)
	lp := wb.llm()
	if lp == nil {
		t.Fatal("no LLM tab")
	}
	t.Cleanup(func() { lp.Cancel(); settle(t, lp.wait) })
	lp.baseURL.SetText(srv.BaseURL())
	lp.model.SetText("apptest-model")
	lp.apiKey.SetText(llmTestKey)
	return wb, lp
}

func waitLLM(t *testing.T, lp *llmPanel) {
	t.Helper()
	await(t, lp.wait)
}

func TestLLMTestButton(t *testing.T) {
	srv := llmtest.New(llmtest.Text("OK"))
	defer srv.Close()
	wb, lp := newLLMTestPanel(t, srv)
	test.Tap(lp.testButton)
	waitLLM(t, lp)
	if got := wb.app.Preferences().String(prefLLMKey); got != "" {
		t.Fatalf("the key was written to the preferences: %q", got)
	}
	if !strings.HasPrefix(lp.testResult.Text, "✓") || !strings.Contains(lp.testResult.Text, `"OK"`) {
		t.Fatalf("test result %q", lp.testResult.Text)
	}
	calls := srv.Calls()
	if len(calls) != 1 || calls[0].Authorization != "Bearer "+llmTestKey {
		t.Fatalf("calls %d, authorization %q", len(calls), calls[0].Authorization)
	}
	if lp.testButton.Disabled() {
		t.Fatal("Test stays disabled")
	}

	srv.Close() // an endpoint that is gone is reported, not hung on
	test.Tap(lp.testButton)
	waitLLM(t, lp)
	if !strings.HasPrefix(lp.testResult.Text, "✗") || strings.Contains(lp.testResult.Text, llmTestKey) {
		t.Fatalf("failed test shows %q", lp.testResult.Text)
	}
	lp.model.SetText("")
	test.Tap(lp.testButton)
	if !strings.Contains(lp.testResult.Text, "model") {
		t.Fatalf("no model: %q", lp.testResult.Text)
	}
}

func TestLLMGeneratesThreeLevels(t *testing.T) {
	var n atomic.Int64
	srv := llmtest.New(func(llmtest.Call, int) llmtest.Reply {
		return llmtest.Reply{Content: roomsReply(int(n.Add(1)))}
	})
	defer srv.Close()
	wb, lp := newLLMTestPanel(t, srv)
	out := t.TempDir()
	wb.outputDirOverride = out
	if lp.template.Text == "" || !strings.Contains(lp.TemplateName.Text, "generic") {
		t.Fatalf("template not shown: %q", lp.TemplateName.Text)
	}
	lp.template.SetText(lp.template.Text + "\nEDITED-MARKER")
	lp.count.SetText("3")
	test.Tap(lp.generateButton)
	waitLLM(t, lp)
	await(t, wb.compare.wait)

	if lp.gallery.Len() != 3 {
		t.Fatalf("%d thumbnails, want 3 (status %q)", lp.gallery.Len(), lp.status.Text)
	}
	for i, th := range lp.gallery.Thumbs() {
		if th.Image == nil || th.Index != i {
			t.Fatalf("thumb %d: index %d, error %q", i, th.Index, th.Error)
		}
		if th.Quality.Value != 1 {
			t.Errorf("thumb %d: quality %v, want 1", i, th.Quality.Value)
		}
	}
	if lp.progress.Value != 1 || lp.busy() || lp.generateButton.Disabled() || !lp.cancelButton.Disabled() {
		t.Fatalf("not finished: progress %v", lp.progress.Value)
	}
	if !strings.Contains(lp.stream.Text, "── level 3") || !strings.Contains(lp.stream.Text, "Here is a level") {
		t.Fatalf("stream shows %q", lp.stream.Text)
	}
	for _, c := range srv.Calls() {
		if !strings.Contains(c.Prompt(), "EDITED-MARKER") {
			t.Fatal("the edited template was not used")
		}
	}

	dir := lp.lastRunDir()
	if filepath.Dir(dir) != out {
		t.Fatalf("run folder %q not in %q", dir, out)
	}
	final, err := experiment.ReadFinal(dir)
	if err != nil || len(final.Population) != 3 {
		t.Fatalf("final: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "prompts", "generic.tmpl")); err != nil {
		t.Fatalf("the edited template is not in the run folder: %v", err)
	}
	found := false
	for _, r := range wb.compare.Runs() {
		found = found || r.Dir == dir
	}
	if !found {
		t.Fatalf("the run is not in Compare (%d runs)", len(wb.compare.Runs()))
	}
	test.Tap(lp.compareButton)
	if wb.frontTab() != "compare" {
		t.Fatalf("Compare is not in front: %q", wb.tabs.Selected().Text)
	}

	if files := checkNoKeyIn(t, out); files < 5 {
		t.Fatalf("walked %d files", files)
	}
}

// checkNoKeyIn fails the test for each file below root holding the test API key and returns
// how many files it read.
func checkNoKeyIn(t *testing.T, root string) int {
	t.Helper()
	return llmtest.CheckNoSecret(t, root, llmTestKey, "SECRET-4242")
}

func TestLLMCancel(t *testing.T) {
	release := make(chan struct{})
	srv := llmtest.New(func(llmtest.Call, int) llmtest.Reply {
		<-release
		return llmtest.Reply{Content: roomsReply(1)}
	})
	defer srv.Close()
	defer close(release)
	wb, lp := newLLMTestPanel(t, srv)
	wb.outputDirOverride = t.TempDir()
	lp.count.SetText("2")
	test.Tap(lp.generateButton)
	if !lp.busy() || lp.cancelButton.Disabled() {
		t.Fatal("not running")
	}
	test.Tap(lp.cancelButton)
	waitLLM(t, lp)
	if lp.busy() || !strings.Contains(lp.status.Text, "Cancelled") {
		t.Fatalf("status %q", lp.status.Text)
	}
}

// TestLLMOfflineReplaysFromTheCache is the workshop without network: a batch recorded online
// is replayed with Offline checked without asking the endpoint, and a batch never recorded
// fails clearly instead of waiting for a network that is not there.
func TestLLMOfflineReplaysFromTheCache(t *testing.T) {
	var n atomic.Int64
	srv := llmtest.New(func(llmtest.Call, int) llmtest.Reply {
		return llmtest.Reply{Content: roomsReply(int(n.Add(1)))}
	})
	defer srv.Close()
	wb, lp := newLLMTestPanel(t, srv)
	wb.outputDirOverride = t.TempDir()
	lp.count.SetText("2")
	lp.seed.SetText("5")
	test.Tap(lp.generateButton)
	waitLLM(t, lp)
	online := lp.lastRunDir()
	calls := len(srv.Calls())
	if online == "" || calls != 2 {
		t.Fatalf("online batch: dir %q, %d calls (status %q)", online, calls, lp.status.Text)
	}

	test.Tap(lp.offline)
	if !wb.app.Preferences().Bool(prefLLMOffline) {
		t.Fatal("Offline is not kept in the preferences")
	}
	test.Tap(lp.testButton)
	if !strings.Contains(lp.testResult.Text, "Offline") {
		t.Fatalf("test result %q", lp.testResult.Text)
	}
	test.Tap(lp.generateButton)
	waitLLM(t, lp)
	replay := lp.lastRunDir()
	if replay == online || len(srv.Calls()) != calls {
		t.Fatalf("offline replay: dir %q, %d calls (status %q)", replay, len(srv.Calls()), lp.status.Text)
	}
	a, errA := experiment.ReadFinal(online)
	b, errB := experiment.ReadFinal(replay)
	if errA != nil || errB != nil || len(a.Population) != 2 || mustMarshal(t, a.Population) != mustMarshal(t, b.Population) {
		t.Fatalf("the replay differs from the recorded batch: %v %v", errA, errB)
	}

	lp.seed.SetText("6") // never asked: not in the cache
	test.Tap(lp.generateButton)
	waitLLM(t, lp)
	if len(srv.Calls()) != calls || !strings.Contains(lp.status.Text, "Generation failed") || !strings.Contains(lp.status.Text, "offline") {
		t.Fatalf("offline miss: %d calls, status %q", len(srv.Calls()), lp.status.Text)
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLLMExamplesFromARunAndControlTargets takes the prompt's examples from a GA run loaded in
// Compare and asks for control targets; the run folder records both.
func TestLLMExamplesFromARunAndControlTargets(t *testing.T) {
	srv := llmtest.New(func(llmtest.Call, int) llmtest.Reply { return llmtest.Reply{Content: roomsReply(3)} })
	defer srv.Close()
	wb, lp := newLLMTestPanel(t, srv)
	wb.outputDirOverride = t.TempDir()
	ga := makeRuns(t, t.TempDir(), []string{"ga"}, 1, 2)[0]
	wb.compare.addFolder(ga)
	await(t, wb.compare.wait)
	ok := false
	ok = lp.selectExamplesFrom(ga)
	if !ok || len(lp.examplesFrom.Options) != 2 {
		t.Fatalf("the GA run is not offered as an example source: %v", lp.examplesFrom.Options)
	}
	lp.examples.SetText("2")
	test.Tap(lp.control)
	lp.count.SetText("1")
	test.Tap(lp.generateButton)
	waitLLM(t, lp)
	dir := lp.lastRunDir()
	var cfg struct {
		LLM struct {
			Examples     int    `json:"examples"`
			ExamplesFrom string `json:"examples_from"`
			Control      bool   `json:"control"`
		} `json:"llm"`
	}
	b, err := os.ReadFile(filepath.Join(dir, experiment.ConfigFile))
	if err != nil || json.Unmarshal(b, &cfg) != nil {
		t.Fatalf("config: %v (status %q)", err, lp.status.Text)
	}
	if cfg.LLM.Examples != 2 || cfg.LLM.ExamplesFrom != ga || !cfg.LLM.Control {
		t.Fatalf("recorded %+v", cfg.LLM)
	}
	if calls := srv.Calls(); len(calls) != 1 {
		t.Fatalf("%d calls", len(calls))
	}

	// A bad example count is refused before anything is asked.
	lp.examples.SetText("x")
	test.Tap(lp.generateButton)
	if !strings.Contains(lp.status.Text, "examples") || lp.busy() {
		t.Fatalf("bad example count accepted: %q", lp.status.Text)
	}
}

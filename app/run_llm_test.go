package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"pcgwb/llm"
	"pcgwb/llm/llmtest"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

const evolveTestProblem = "binary-v0"

// knownEditEndpoint is the test model that answers the known edit of the parents it receives.
func knownEditEndpoint(t *testing.T) *llmtest.Server {
	t.Helper()
	p, err := problems.Make(evolveTestProblem)
	if err != nil {
		t.Fatal(err)
	}
	bp, err := llm.Templates{}.Load(evolveTestProblem, "")
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(llmtest.Evolver(func(parents []string, seed int) string {
		return llm.KnownEdit(p, bp.Legend, parents, seed)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// newEvolveWorkbench is a workbench on binary-v0 writing into a temporary output folder.
func newEvolveWorkbench(t *testing.T) *Workbench {
	t.Helper()
	wb := newTestWorkbench(t, Options{Problem: evolveTestProblem})
	wb.outputDirOverride = t.TempDir()
	if wb.llm() == nil {
		t.Fatal("no LLM tab")
	}
	t.Cleanup(func() { wb.run.Cancel(); settle(t, wb.run.wait) })
	return wb
}

// The Run tab lists every registered generator, the LLM-guided ones included, and refuses to
// start one without the LLM tab's endpoint, saying why.
func TestRunTabNeedsAnEndpointForLLMGenerators(t *testing.T) {
	wb := newEvolveWorkbench(t)
	rp := wb.run
	for _, g := range search.All() {
		if !slices.Contains(rp.generator.Options, g) {
			t.Errorf("the Run tab does not list %s: %v", g, rp.generator.Options)
		}
	}
	tests := []struct {
		generator, model string
		startable        bool
		note             string
	}{
		{"ga", "", true, ""},
		{llm.GAName, "", false, "No endpoint configured"},
		{llm.MapElitesName, "", false, "No endpoint configured"},
		{llm.GAName, "some-model", true, "model some-model"},
		{"es", "some-model", true, ""},
	}
	for _, tc := range tests {
		wb.llm().model.SetText(tc.model)
		rp.generator.SetSelected("random")
		rp.generator.SetSelected(tc.generator)
		if got := !rp.startButton.Disabled(); got != tc.startable {
			t.Errorf("%s with model %q: Start enabled %v, want %v", tc.generator, tc.model, got, tc.startable)
		}
		if !strings.Contains(rp.endpointNote.Text, tc.note) || (tc.note == "" && rp.endpointNote.Text != "") {
			t.Errorf("%s with model %q: note %q, want %q", tc.generator, tc.model, rp.endpointNote.Text, tc.note)
		}
		if got, want := rp.llmRow.Visible(), llm.IsEvolve(tc.generator); got != want {
			t.Errorf("%s: the llm rate row visible %v, want %v", tc.generator, got, want)
		}
	}
	// Start by the shortcut path refuses too, with the reason on the banner.
	wb.llm().model.SetText("")
	rp.generator.SetSelected(llm.GAName)
	rp.Start()
	if rp.State() != runIdle || !strings.Contains(rp.errorText.Text, "No endpoint configured") {
		t.Errorf("Start without an endpoint: state %v, banner %q", rp.State(), rp.errorText.Text)
	}
}

// llm-ga and llm-mapelites started from the Run tab against the test endpoint write the run
// folder the CLI's core entry point writes for the same settings (final.json and config.json
// byte-equal), and Compare lists it.
func TestRunTabRunsLLMGA(t *testing.T) {
	for _, gen := range []string{llm.GAName, llm.MapElitesName} {
		t.Run(gen, func(t *testing.T) { runLLMFromRunTab(t, gen) })
	}
}

// useTestEndpoint points the LLM tab, whose endpoint the Run tab's LLM generators use, at the
// test server, online.
func useTestEndpoint(wb *Workbench, srv *llmtest.Server) {
	lp := wb.llm()
	lp.baseURL.SetText(srv.BaseURL())
	lp.model.SetText("apptest-model")
	lp.apiKey.SetText(llmTestKey)
	lp.temperature.SetText("")
	lp.offline.SetChecked(false)
}

func runLLMFromRunTab(t *testing.T, gen string) {
	srv := knownEditEndpoint(t)
	wb := newEvolveWorkbench(t)
	useTestEndpoint(wb, srv)
	lp := wb.llm()
	rp := wb.run
	wb.showTab("run")
	rp.generator.SetSelected(gen)
	if usesAxes(gen) {
		eventually(t, "the axes", func() bool { return rp.axisX.Selected != "" && rp.axisY.Selected != "" })
		rp.bins.SetText("4")
	}
	rp.fitness.SetSelected(search.FitnessQuality)
	rp.llmRate.SetText("1")
	rp.llmRepairs.SetText("1")
	startRun(t, wb, gen, 4, 2)
	waitRun(t, wb)
	if rp.State() != RunFinished {
		t.Fatalf("state %v (%s %s)", rp.State(), rp.status.Text, rp.errorText.Text)
	}
	rec := rp.Record()
	if rec == nil || rec.Dir == "" || rec.Config.Generator != gen || len(rec.Events) != 3 || usesAxes(gen) != (len(rec.Config.Axes) == 2) {
		t.Fatalf("record %+v", rec)
	}
	if len(srv.Calls()) == 0 {
		t.Fatal("the model was never asked")
	}
	if last := rec.Events[len(rec.Events)-1]; last.ModelCalls == 0 || !strings.Contains(rp.status.Text, fmt.Sprintf("%d model calls", last.ModelCalls)) {
		t.Errorf("the last event counts %d model calls, the status says %q", last.ModelCalls, rp.status.Text)
	}
	if _, err := os.Stat(filepath.Join(rec.Dir, llm.EvolveSummaryFile)); err != nil {
		t.Errorf("no %s: %v", llm.EvolveSummaryFile, err)
	}

	// The CLI's path (run_evolve.go): same endpoint settings, its own cache, another folder.
	seed := 3
	cfg := llm.Config{BaseURL: srv.BaseURL(), Model: "apptest-model", APIKey: llmTestKey, Seed: &seed,
		CacheDir: filepath.Join(t.TempDir(), "cache")}
	var cliDir string
	var cliErr error
	letUIRun(func() {
		client, err := llm.New(cfg)
		if err != nil {
			cliErr = err
			return
		}
		ecfg, err := llm.EvolveConfig(client, gen, search.Options{Problem: evolveTestProblem, Fitness: search.FitnessQuality,
			Seed: 3, PopSize: 4, Axes: rec.Config.Axes}, llm.EvolveSettings{Rate: 1, MaxRepairs: 1}, 2)
		if err != nil {
			cliErr = err
			return
		}
		cliDir = filepath.Join(t.TempDir(), "cli")
		_, cliErr = llm.StartEvolve(t.Context(), cliDir, client, ecfg, nil, nil)
	})
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	for _, f := range []string{experiment.FinalFile, experiment.ConfigFile} {
		a, errA := os.ReadFile(filepath.Join(rec.Dir, f))
		b, errB := os.ReadFile(filepath.Join(cliDir, f))
		if errA != nil || errB != nil || len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s of the Run tab's run differs from the CLI's (%v, %v)", f, errA, errB)
		}
	}

	wb.compare.addFolder(wb.outputDir())
	await(t, wb.compare.wait)
	found := false
	for _, r := range wb.compare.Runs() {
		found = found || (r.Dir == rec.Dir && r.Config.Generator == gen)
	}
	if !found {
		t.Errorf("Compare does not list %s", rec.Dir)
	}
	// offline (the LLM tab's box), a new run with the same settings replays the cache: the
	// model is not asked and final.json is the same.
	lp.offline.SetChecked(true)
	asked := len(srv.Calls())
	test.Tap(rp.startButton)
	waitRun(t, wb)
	if n := len(srv.Calls()); n != asked {
		t.Errorf("offline, the model was asked %d times", n-asked)
	}
	if again := rp.Record(); again.Dir == rec.Dir || rp.State() != RunFinished {
		t.Errorf("an offline replay: state %v in %s (%s)", rp.State(), again.Dir, rp.errorText.Text)
	} else {
		a, _ := os.ReadFile(filepath.Join(rec.Dir, experiment.FinalFile))
		b, _ := os.ReadFile(filepath.Join(again.Dir, experiment.FinalFile))
		if !bytes.Equal(a, b) {
			t.Error("the offline replay's final.json differs")
		}
	}
}

// An llm-ga run stopped after its first generation, opened in the Run tab, resumes with the
// endpoint it recorded: the answers received before come from the cache (the model is asked
// only what the uninterrupted run asked after them) and final.json is the uninterrupted run's.
func TestRunTabResumesLLMGA(t *testing.T) {
	srv := knownEditEndpoint(t)
	wb := newEvolveWorkbench(t)
	lp := wb.llm()
	lp.baseURL.SetText("http://127.0.0.1:9/v1") // not used: a resume asks the recorded endpoint
	lp.model.SetText("another-model")
	lp.apiKey.SetText(llmTestKey)
	lp.offline.SetChecked(false)
	outDir := wb.outputDir()
	opts := search.Options{Problem: evolveTestProblem, Fitness: search.FitnessQuality, Seed: 5, PopSize: 4}
	es := llm.EvolveSettings{Rate: 1, MaxRepairs: 1}
	core := func(dir, cache string, stopAfter int) (calls int, err error) {
		seed := 5
		client, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "apptest-model", APIKey: llmTestKey, Seed: &seed, CacheDir: cache})
		if err != nil {
			return 0, err
		}
		ecfg, err := llm.EvolveConfig(client, llm.GAName, opts, es, 3)
		if err != nil {
			return 0, err
		}
		before := len(srv.Calls())
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		_, err = llm.StartEvolve(ctx, dir, client, ecfg, nil, func(ev search.Event) {
			if ev.Generation == stopAfter {
				cancel()
			}
		})
		if stopAfter >= 0 && errors.Is(err, context.Canceled) {
			err = nil
		}
		return len(srv.Calls()) - before, err
	}
	var whole, first int
	var err error
	fullDir, stopped := filepath.Join(t.TempDir(), "whole"), filepath.Join(outDir, "stopped")
	letUIRun(func() {
		if whole, err = core(fullDir, filepath.Join(t.TempDir(), "cache"), -1); err != nil {
			return
		}
		first, err = core(stopped, filepath.Join(outDir, llmCacheDir), 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := loadRunRecord(stopped)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Finished() {
		t.Fatal("the stopped run finished")
	}
	wb.showTab("run")
	if err := wb.run.showRecord(rec); err != nil {
		t.Fatal(err)
	}
	if wb.run.State() != runPaused || wb.run.generator.Selected != llm.GAName || wb.run.llmRate.Text != "1" {
		t.Fatalf("opened: state %v, generator %s, rate %s", wb.run.State(), wb.run.generator.Selected, wb.run.llmRate.Text)
	}
	before := len(srv.Calls())
	test.Tap(wb.run.startButton)
	waitRun(t, wb)
	if wb.run.State() != RunFinished {
		t.Fatalf("state %v (%s %s)", wb.run.State(), wb.run.status.Text, wb.run.errorText.Text)
	}
	if rest := len(srv.Calls()) - before; first+rest != whole || rest == 0 {
		t.Errorf("the model was asked %d then %d times on resume, the uninterrupted run %d", first, rest, whole)
	}
	a, _ := os.ReadFile(filepath.Join(fullDir, experiment.FinalFile))
	b, _ := os.ReadFile(filepath.Join(stopped, experiment.FinalFile))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Error("the resumed run's final.json differs from the uninterrupted run's")
	}
}

package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pcgwb/llm/llmtest"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search/searchtest"
)

// toyGrid is a distinct 4×4 bit grid per seed (40503 is odd, so the map is a bijection on 16
// bits).
func toyGrid(seed int) string {
	bits := (seed * 40503) & 0xFFFF
	rows := make([]string, 4)
	for y := 0; y < 4; y++ {
		var cells []string
		for x := 0; x < 4; x++ {
			cells = append(cells, fmt.Sprint((bits>>(4*y+x))&1))
		}
		rows[y] = "[" + strings.Join(cells, ", ") + "]"
	}
	return "[" + strings.Join(rows, ", ") + "]"
}

// toyHandler answers each conversation with the grid of its seed, in a fenced block with prose.
func toyHandler(c llmtest.Call, _ int) llmtest.Reply {
	seed := 0
	if c.Request.Seed != nil {
		seed = *c.Request.Seed
	}
	return llmtest.Reply{Content: "Here is a level:\n```json\n" + toyGrid(seed) + "\n```\nI hope you like it."}
}

func toyOptions(n int) GeneratorOptions {
	return GeneratorOptions{
		Options:        searchOptions(searchtest.ToyName, n),
		PromptSettings: PromptSettings{Examples: 2, MaxRepairs: 2, Control: true},
	}
}

func newToyGenerator(t *testing.T, c *Client, opts GeneratorOptions) *Generator {
	t.Helper()
	p, err := problems.Make(opts.Problem)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGenerator(context.Background(), p, c, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func TestRunFolderIsAnExperimentRun(t *testing.T) {
	srv := llmtest.New(toyHandler)
	defer srv.Close()
	cache := t.TempDir()
	c := newTestClient(t, testConfig(srv, cache))
	g := newToyGenerator(t, c, toyOptions(6))
	dir := filepath.Join(t.TempDir(), "run")
	var events []int
	final, err := execute(context.Background(), dir, g, 1, func(ev searchEvent) { events = append(events, ev.Generation) })
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(events) != "[0 1]" {
		t.Fatalf("events %v", events)
	}
	for _, f := range []string{experiment.ConfigFile, experiment.EventsFile, experiment.FinalFile, RepliesFile, UsageFile, SummaryFile, PromptFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	// The experiment package reads it like any run.
	run, err := experiment.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if run.Config.Generator != GeneratorName || run.Config.Problem != searchtest.ToyName || run.Config.PopSize != 6 || run.Config.Generations != 1 {
		t.Fatalf("config %+v", run.Config)
	}
	st, err := run.Status()
	if err != nil || !st.Finished {
		t.Fatalf("status %+v %v", st, err)
	}
	runs, err := experiment.LoadRuns(dir)
	if err != nil || len(runs) != 1 || runs[0].Final == nil || len(runs[0].Best()) != 2 {
		t.Fatalf("LoadRuns: %v %+v", err, runs)
	}
	evs, err := experiment.ReadEvents(dir)
	if err != nil || len(evs) != 2 || evs[1].Size != 6 || evs[0].Generator != GeneratorName {
		t.Fatalf("events: %v %+v", err, evs)
	}
	f, err := experiment.ReadFinal(dir)
	if err != nil || len(f.Population) != 6 || f.Generation != 1 || f.Evaluations != 12 {
		t.Fatalf("final: %v %+v", err, f)
	}
	for i, ind := range f.Population {
		if i > 0 && ind.Fitness > f.Population[i-1].Fitness {
			t.Fatal("population not best first")
		}
	}
	if final.BestFitness != f.BestFitness {
		t.Fatal("returned and written finals differ")
	}
	var sum RunSummary
	b, _ := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Stats.Items != 12 || sum.Stats.Valid != 12 || sum.Totals.Requests != 12 || sum.Template != GenericTemplate {
		t.Fatalf("summary %+v", sum)
	}
	// the events record the tokens spent so far (the report's --x tokens): all of them at the
	// end, what the usage log says was asked (nothing came from the cache)
	if toks := sum.Stats.PromptTokens + sum.Stats.CompletionTokens; toks == 0 || evs[1].Tokens != toks ||
		toks != sum.Totals.Usage.PromptTokens+sum.Totals.Usage.CompletionTokens || evs[0].Tokens == 0 || evs[0].Tokens >= toks {
		t.Errorf("tokens: events %d then %d, stats %+v, usage %+v", evs[0].Tokens, evs[1].Tokens, sum.Stats, sum.Totals.Usage)
	}
	if n := len(readLines(t, filepath.Join(dir, RepliesFile))); n != 12 {
		t.Fatalf("%d exchanges", n)
	}
	var cfg RunConfig
	b, _ = os.ReadFile(filepath.Join(dir, experiment.ConfigFile))
	if err := json.Unmarshal(b, &cfg); err != nil || cfg.LLM.Model != "test-model" || cfg.LLM.Examples != 2 || cfg.LLM.Template != GenericTemplate {
		t.Fatalf("llm config %v %+v", err, cfg.LLM)
	}
	prompt, _ := os.ReadFile(filepath.Join(dir, PromptFile))
	if !strings.Contains(string(prompt), "=== user") || !strings.Contains(string(prompt), "Example 1") {
		t.Fatalf("prompt.txt:\n%s", prompt)
	}

	// Running the same run again returns the finished folder without a request.
	calls := len(srv.Calls())
	g2 := newToyGenerator(t, c, toyOptions(6))
	if _, err := execute(context.Background(), dir, g2, 1, nil); err != nil {
		t.Fatal(err)
	}
	if len(srv.Calls()) != calls {
		t.Fatal("a finished run asked again")
	}
	// Another run in the same folder is refused.
	if _, err := execute(context.Background(), dir, newToyGenerator(t, c, toyOptions(5)), 1, nil); !errors.Is(err, ErrOtherRun) {
		t.Fatalf("another run: %v", err)
	}

	// Offline replay into a new folder gives the same final.json, byte for byte.
	cfgOff := testConfig(srv, cache)
	cfgOff.Offline = true
	off := newTestClient(t, cfgOff)
	dir2 := filepath.Join(t.TempDir(), "replay")
	if _, err := execute(context.Background(), dir2, newToyGenerator(t, off, toyOptions(6)), 1, nil); err != nil {
		t.Fatal(err)
	}
	if len(srv.Calls()) != calls {
		t.Fatal("the offline replay asked the server")
	}
	a, _ := os.ReadFile(filepath.Join(dir, experiment.FinalFile))
	b, _ = os.ReadFile(filepath.Join(dir2, experiment.FinalFile))
	if !bytes.Equal(a, b) {
		t.Fatal("the offline replay's final.json differs")
	}
	// Offline with a request the cache lacks fails clearly.
	dir3 := filepath.Join(t.TempDir(), "miss")
	other := toyOptions(6)
	other.Seed = 2 // other prompts
	_, err = execute(context.Background(), dir3, newToyGenerator(t, off, other), 0, nil)
	if !errors.Is(err, ErrOfflineMiss) {
		t.Fatalf("offline miss: %v", err)
	}
}

// TestNoFileHoldsTheKey greps every file a run writes (the run folder and the cache) for the
// API key.
func TestNoFileHoldsTheKey(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		switch {
		case c.N == 1:
			return llmtest.Reply{Status: 500} // an error body in the logs
		case seen == 0 && c.N%3 == 0:
			return llmtest.Reply{Content: "no level, sorry"} // a re-ask
		}
		return toyHandler(c, seen)
	})
	defer srv.Close()
	root := t.TempDir()
	cache := filepath.Join(root, "cache")
	c := newTestClient(t, testConfig(srv, cache))
	g := newToyGenerator(t, c, toyOptions(8))
	if _, err := execute(context.Background(), filepath.Join(root, "run"), g, 1, nil); err != nil {
		t.Fatal(err)
	}
	for _, call := range srv.Calls() {
		if call.Authorization != "Bearer "+testKey {
			t.Fatalf("the key was not sent: %q", call.Authorization)
		}
	}
	files := checkNoKey(t, root)
	if files < 8+7 {
		t.Fatalf("only %d files written", files)
	}
}

func TestInvalidRepliesAreReaskedWithTheErrorAndCounted(t *testing.T) {
	var mu sync.Mutex
	var repairs []llmtest.Call
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		seed := *c.Request.Seed
		turns := 0
		for _, m := range c.Request.Messages {
			if m.Role == RoleAssistant {
				turns++
			}
		}
		if turns > 0 {
			mu.Lock()
			repairs = append(repairs, c)
			mu.Unlock()
		}
		switch {
		case seed == 42 && turns == 0: // item 0: a wrong shape first, then right
			return llmtest.Reply{Content: "```\n[[0, 1], [1, 0]]\n```"}
		case seed == 43: // item 1: never right
			return llmtest.Reply{Content: "I would rather not."}
		case seed == 44 && turns < 2: // item 2: right at the last re-ask
			return llmtest.Reply{Content: "```\n[[0, 1, 1, 1], [1, 0]]\n```"}
		}
		return toyHandler(c, seen)
	})
	defer srv.Close()
	c := newTestClient(t, testConfig(srv, ""))
	opts := toyOptions(4)
	g := newToyGenerator(t, c, opts)
	var mu2 sync.Mutex
	var events []ReplyEvent
	g.OnReply = func(ev ReplyEvent) { mu2.Lock(); events = append(events, ev); mu2.Unlock() }
	if err := g.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := g.Stats()
	want := Stats{Items: 4, Valid: 3, Invalid: 1, Replies: 2 + 3 + 3 + 1, Repairs: 1 + 2 + 2, Repaired: 2}
	if st.PromptTokens == 0 || st.CompletionTokens == 0 {
		t.Errorf("stats %+v: no tokens counted", st)
	}
	st.PromptTokens, st.CompletionTokens = 0, 0 // the test server's word counts
	if st != want {
		t.Fatalf("stats %+v, want %+v", st, want)
	}
	if len(g.Population()) != 3 {
		t.Fatalf("population %d", len(g.Population()))
	}
	if len(events) != st.Replies {
		t.Fatalf("%d reply events for %d replies", len(events), st.Replies)
	}
	finals := 0
	for _, ev := range events {
		if ev.Final {
			finals++
		}
		if (ev.Error == "") != (ev.Content != nil) {
			t.Fatalf("event %+v", ev)
		}
	}
	if finals != 4 {
		t.Fatalf("%d final events", finals)
	}
	// The re-ask carries the previous reply and the error.
	found := false
	for _, call := range repairs {
		if *call.Request.Seed != 42 {
			continue
		}
		msgs := call.Request.Messages
		last, prev := msgs[len(msgs)-1], msgs[len(msgs)-2]
		if prev.Role != RoleAssistant || !strings.Contains(prev.Content, "[[0, 1], [1, 0]]") {
			t.Fatalf("the re-ask does not carry the reply: %+v", prev)
		}
		if !strings.Contains(last.Content, "expected 4 elements, got 2") || !strings.Contains(last.Content, "Answer again") {
			t.Fatalf("the re-ask does not say what is wrong: %q", last.Content)
		}
		found = true
	}
	if !found {
		t.Fatal("item 0 was not re-asked")
	}
}

func TestFaultsLoseAndDuplicateNothing(t *testing.T) {
	const n = 16
	for _, stream := range []bool{false, true} {
		srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
			if seen == 0 {
				f := faults[(*c.Request.Seed)%len(faults)].reply
				if f.Content == "" && !f.EmptyChoices && f.Status == 0 && f.Delay == 0 {
					f.Content = "```\n" + toyGrid(*c.Request.Seed) + "\n```"
				}
				return f
			}
			return toyHandler(c, seen)
		})
		defer srv.Close()
		cfg := testConfig(srv, t.TempDir())
		cfg.Timeout = time.Second
		cfg.Concurrency = 8
		c := newTestClient(t, cfg)
		g := newToyGenerator(t, c, toyOptions(n))
		if stream {
			g.OnDelta = func(DeltaEvent) {}
		}
		before := len(srv.Calls())
		dir := filepath.Join(t.TempDir(), "run")
		final, err := execute(context.Background(), dir, g, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(final.Population) != n {
			t.Fatalf("stream=%v: %d levels, want %d", stream, len(final.Population), n)
		}
		seen := map[string]bool{}
		for _, ind := range final.Population {
			k := mustJSON(t, ind.Content)
			if seen[k] {
				t.Fatalf("duplicated level %s", k)
			}
			seen[k] = true
		}
		// Every item's own grid, once.
		for s := 42; s < 42+n; s++ {
			var want any
			json.Unmarshal([]byte(toyGrid(s)), &want)
			if !seen[mustJSON(t, want)] {
				t.Fatalf("stream=%v: the level of seed %d is lost", stream, s)
			}
		}
		// Every item met a fault first (a slow machine may add timeouts of its own).
		if calls := len(srv.Calls()) - before; calls < 2*n {
			t.Fatalf("stream=%v: %d calls, want at least %d", stream, calls, 2*n)
		}
		usage := readLines(t, filepath.Join(dir, UsageFile))
		if len(usage) != n {
			t.Fatalf("%d usage lines", len(usage))
		}
		for _, l := range usage {
			var rec UsageRecord
			if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Attempts < 2 || rec.Error != "" {
				t.Fatalf("usage line %s", l)
			}
		}
		if ex := readLines(t, filepath.Join(dir, RepliesFile)); len(ex) != n {
			t.Fatalf("%d exchanges", len(ex))
		}
	}
}

func TestStreamingGeneratorReportsDeltas(t *testing.T) {
	srv := llmtest.New(toyHandler)
	defer srv.Close()
	c := newTestClient(t, testConfig(srv, ""))
	g := newToyGenerator(t, c, toyOptions(3))
	var mu sync.Mutex
	text := map[int]string{}
	g.OnDelta = func(d DeltaEvent) {
		mu.Lock()
		defer mu.Unlock()
		text[d.Item] += d.Text
	}
	if err := g.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if !strings.Contains(text[i], toyGrid(42+i)) {
			t.Fatalf("item %d streamed %q", i, text[i])
		}
	}
}

func TestCancelledRunWritesNoFinal(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		r := toyHandler(c, seen)
		r.Delay = 5 * time.Second
		return r
	})
	defer srv.Close()
	c := newTestClient(t, testConfig(srv, ""))
	g := newToyGenerator(t, c, toyOptions(4))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	dir := filepath.Join(t.TempDir(), "run")
	start := time.Now()
	_, err := execute(ctx, dir, g, 0, nil)
	if !errors.Is(err, context.Canceled) || time.Since(start) > 3*time.Second {
		t.Fatalf("%v after %v", err, time.Since(start))
	}
	if _, err := os.Stat(filepath.Join(dir, experiment.FinalFile)); err == nil {
		t.Fatal("a cancelled run wrote final.json")
	}
}

func TestSaveLoadAndFailedStep(t *testing.T) {
	srv := llmtest.New(toyHandler)
	defer srv.Close()
	c := newTestClient(t, testConfig(srv, t.TempDir()))
	g := newToyGenerator(t, c, toyOptions(4))
	ctx := context.Background()
	if err := g.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := g.Save()
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Step(ctx); err != nil {
		t.Fatal(err)
	}
	after, _ := g.Save()

	g2 := newToyGenerator(t, c, toyOptions(4))
	if err := g2.Load(ctx, st); err != nil {
		t.Fatal(err)
	}
	if err := g2.Step(ctx); err != nil {
		t.Fatal(err)
	}
	again, _ := g2.Save()
	if g2.Stats().Items != g.Stats().Items || g2.Stats().Valid != g.Stats().Valid {
		t.Fatalf("item counts after loading: %+v, want %+v", g2.Stats(), g.Stats())
	}
	after.Extra, again.Extra = nil, nil // the counts of cached replies differ: g2's came from the cache
	if mustJSON(t, after) != mustJSON(t, again) {
		t.Fatal("a loaded generator continued differently")
	}

	// A step that fails leaves the generator as it was.
	cfg := testConfig(srv, t.TempDir())
	cfg.Offline = true
	g3 := newToyGenerator(t, newTestClient(t, cfg), toyOptions(4))
	if err := g3.Load(ctx, st); err != nil {
		t.Fatal(err)
	}
	if err := g3.Step(ctx); !errors.Is(err, ErrOfflineMiss) {
		t.Fatalf("step: %v", err)
	}
	s3, _ := g3.Save()
	if mustJSON(t, s3) != mustJSON(t, st) {
		t.Fatal("a failed step changed the generator")
	}
}

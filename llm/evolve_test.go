package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"pcgwb/llm/llmtest"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/search"
	"pcgwb/problems/space"
)

// evolveCase is one evolution run against a test model.
type evolveCase struct {
	generator string
	problem   string
	axes      []search.Axis
	rate      float64
	repairs   int
	// tournament is the GA's tournament size (0: the default, 7, which in a population of 6
	// nearly always picks the best: every child then has the same parent).
	tournament int
}

func (c evolveCase) opts() search.Options {
	return search.Options{Problem: c.problem, Seed: 5, PopSize: 6, Axes: c.axes, Tournament: c.tournament}
}

// knownEditModel answers every variation with KnownEdit of its parents.
func knownEditModel(t *testing.T, problem string) llmtest.Handler {
	t.Helper()
	p, err := problems.Make(problem)
	if err != nil {
		t.Skip(err)
	}
	bp, err := Templates{}.Load(problem, "")
	if err != nil {
		t.Fatal(err)
	}
	return llmtest.Evolver(func(parents []string, seed int) string { return KnownEdit(p, bp.Legend, parents, seed) })
}

// runEvolve runs c in dir through client cfg; stop, when > 0, cancels after that generation.
func runEvolve(t *testing.T, c evolveCase, cfg Config, dir string, gens, stop int) (*experiment.Final, *Evolver, error) {
	t.Helper()
	client := newTestClient(t, cfg)
	ecfg, err := EvolveConfig(client, c.generator, c.opts(), EvolveSettings{Rate: c.rate, MaxRepairs: c.repairs}, gens)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var g *Evolver
	final, err := StartEvolve(ctx, dir, client, ecfg, func(e *Evolver) { g = e }, func(ev search.Event) {
		if stop > 0 && ev.Generation == stop {
			cancel()
		}
	})
	return final, g, err
}

func readEvents(t *testing.T, dir string) []EvolveEventLine {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, experiment.EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []EvolveEventLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev EvolveEventLine
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	return out
}

func readExchanges(t *testing.T, dir string) []EvolveExchange {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, RepliesFile))
	if err != nil {
		t.Fatal(err)
	}
	var out []EvolveExchange
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var ex EvolveExchange
		if err := json.Unmarshal(line, &ex); err != nil {
			t.Fatal(err)
		}
		out = append(out, ex)
	}
	return out
}

func sameFile(t *testing.T, a, b string) {
	t.Helper()
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x, y) {
		t.Errorf("%s and %s differ", a, b)
	}
}

// With the known-edit model every child asked is the model's edit of its parent, the counts
// add up per generation, and both a resumed run and an offline replay give the same final.json
// byte for byte, without asking the server again.
func TestEvolveKnownEditModelResumeAndReplay(t *testing.T) {
	cases := []evolveCase{
		{generator: GAName, problem: "binary-v0", rate: 1},
		{generator: GAName, problem: "sokoban-v0", rate: 0.5, repairs: 1},
		{generator: MapElitesName, problem: "binary-v0", rate: 0.7,
			axes: []search.Axis{{Field: "regions", Min: 0, Max: 20, Bins: 5}, {Field: "path", Min: 0, Max: 40, Bins: 5}}},
	}
	for _, c := range cases {
		t.Run(c.generator+"/"+c.problem, func(t *testing.T) {
			srv := llmtest.New(knownEditModel(t, c.problem))
			defer srv.Close()
			root, cache := t.TempDir(), t.TempDir()
			cfg := testConfig(srv, cache)
			const gens = 3
			full, g, err := runEvolve(t, c, cfg, filepath.Join(root, "full"), gens, 0)
			if err != nil {
				t.Fatal(err)
			}
			st := g.Stats()
			if st.Asked == 0 || st.Valid != st.Asked || st.Fallbacks != 0 || st.Calls != st.Asked || st.Cached != 0 {
				t.Errorf("stats %+v: want every asked child valid at one call each, none cached", st)
			}
			if got := len(srv.Calls()); got != st.Calls {
				t.Errorf("server saw %d calls, stats say %d", got, st.Calls)
			}
			if c.rate == 1 && c.generator == GAName {
				if want := gens * (6 - 1); st.Asked != want { // elitism keeps ceil(0.1·6) = 1
					t.Errorf("asked %d children, want %d (every non-elite child)", st.Asked, want)
				}
			}
			// every answer is the known edit of the parents in its prompt
			p, _ := problems.Make(c.problem)
			bp, _ := Templates{}.Load(c.problem, "")
			for _, ex := range readExchanges(t, filepath.Join(root, "full")) {
				parents := llmtest.Blocks(ex.Sent[len(ex.Sent)-1].Content)
				want := KnownEdit(p, bp.Legend, parents, 42+ex.Sample)
				if got := llmtest.Blocks(ex.Reply); !ex.Valid || len(got) != 1 || got[0] != want {
					t.Fatalf("exchange %d/%d: reply %q is not the known edit %q", ex.Generation, ex.Item, ex.Reply, want)
				}
				if wantOp := map[int]string{1: OpMutate, 2: OpCrossover}[len(parents)]; ex.Operator != wantOp {
					t.Errorf("operator %q with %d parents", ex.Operator, len(parents))
				}
				if len(parents) == 2 && parents[0] == parents[1] {
					t.Errorf("generation %d child %d: a crossover prompt shows one level twice", ex.Generation, ex.Item)
				}
			}
			if c.generator == GAName {
				checkOrigins(t, full, readExchanges(t, filepath.Join(root, "full")))
			}
			evs := readEvents(t, filepath.Join(root, "full"))
			if len(evs) != gens+1 || evs[0].LLM.Calls != 0 || evs[gens].LLM != st {
				t.Fatalf("events: %d lines, first %+v, last %+v; want %d, no calls at generation 0, the final stats", len(evs), evs[0].LLM, evs[gens].LLM, gens+1)
			}
			for i := 1; i < len(evs); i++ {
				if evs[i].ModelCalls != evs[i].LLM.Calls {
					t.Errorf("generation %d: model_calls %d, llm.calls %d", i, evs[i].ModelCalls, evs[i].LLM.Calls)
				}
				if toks := evs[i].LLM.PromptTokens + evs[i].LLM.CompletionTokens; evs[i].Tokens != toks || toks <= evs[i-1].Tokens {
					t.Errorf("generation %d: tokens %d, llm %d, before %d: want the model's tokens, growing", i, evs[i].Tokens, toks, evs[i-1].Tokens)
				}
				if evs[i].LLM.Calls <= evs[i-1].LLM.Calls || evs[i].Evaluations < evs[i-1].Evaluations {
					t.Errorf("generation %d: calls and evaluations must grow: %+v after %+v", i, evs[i], evs[i-1])
				}
			}
			if c.generator == MapElitesName && (full.Archive == nil || full.Archive.Filled < 2) {
				t.Errorf("archive %+v: want at least two cells", full.Archive)
			}

			// interrupted after generation 1, then resumed: same final.json, nothing bought twice
			calls := len(srv.Calls())
			part := filepath.Join(root, "part")
			if _, _, err := runEvolve(t, c, cfg, part, gens, 1); !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted run: %v, want context.Canceled", err)
			}
			if _, _, err := runEvolve(t, c, cfg, part, gens, 0); err != nil {
				t.Fatal(err)
			}
			sameFile(t, filepath.Join(root, "full", experiment.FinalFile), filepath.Join(part, experiment.FinalFile))
			if got := len(srv.Calls()); got != calls {
				t.Errorf("the resumed run asked the server %d times, want 0 (all in the cache)", got-calls)
			}

			// offline replay from the cache alone, in a fresh folder
			off := cfg
			off.Offline = true
			off.BaseURL = cfg.BaseURL
			if _, _, err := runEvolve(t, c, off, filepath.Join(root, "offline"), gens, 0); err != nil {
				t.Fatal(err)
			}
			sameFile(t, filepath.Join(root, "full", experiment.FinalFile), filepath.Join(root, "offline", experiment.FinalFile))
		})
	}
}

// A broken model (prose, wrong sizes, timeouts) exercises repair and fallback: the run ends,
// every failure is counted, and the offline replay falls back the same way. The model's fault
// is a function of the prompt, so the tournament is small enough for the parents, and so the
// prompts and the faults, to vary.
func TestEvolveBrokenModelRepairsAndFallsBack(t *testing.T) {
	c := evolveCase{generator: GAName, problem: "binary-v0", rate: 1, repairs: 1, tournament: 2}
	p, err := problems.Make(c.problem)
	if err != nil {
		t.Skip(err)
	}
	bp, _ := Templates{}.Load(c.problem, "")
	srv := llmtest.New(llmtest.Broken(func(parents []string, seed int) string { return KnownEdit(p, bp.Legend, parents, seed) }, time.Minute))
	defer srv.Close()
	root, cache := t.TempDir(), t.TempDir()
	cfg := testConfig(srv, cache)
	cfg.Timeout, cfg.MaxRetries = 1500*time.Millisecond, -1 // generous: only the Timeout conversations (held a minute) reach it
	final, g, err := runEvolve(t, c, cfg, filepath.Join(root, "online"), 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkOrigins(t, final, readExchanges(t, filepath.Join(root, "online")))
	st := g.Stats()
	var want EvolveStats
	for _, ex := range readExchanges(t, filepath.Join(root, "online")) {
		if ex.Turn != 0 {
			continue
		}
		want.Asked++
		switch llmtest.FaultOf(ex.Sent[len(ex.Sent)-1].Content) {
		case llmtest.Good:
			want.Valid++
		case llmtest.WrongSize:
			want.Valid++
			want.Repaired++
		case llmtest.Prose, llmtest.Timeout:
			want.Fallbacks++
		}
	}
	if st.Asked != want.Asked || st.Valid != want.Valid || st.Repaired != want.Repaired || st.Fallbacks != want.Fallbacks {
		t.Errorf("stats %+v, want asked %d valid %d repaired %d fallbacks %d", st, want.Asked, want.Valid, want.Repaired, want.Fallbacks)
	}
	if st.Repaired == 0 || st.Failed == 0 || st.Fallbacks <= st.Failed {
		t.Errorf("stats %+v: the test model should have made every kind of failure", st)
	}
	if st.Asked != st.Valid+st.Fallbacks {
		t.Errorf("stats %+v: every child asked is valid or falls back", st)
	}
	off := cfg
	off.Offline = true
	if _, _, err := runEvolve(t, c, off, filepath.Join(root, "offline"), 3, 0); err != nil {
		t.Fatal(err)
	}
	sameFile(t, filepath.Join(root, "online", experiment.FinalFile), filepath.Join(root, "offline", experiment.FinalFile))
}

// The evolution prompts exist for every problem, show the parents with their metrics and the
// cell, and a user's folder overrides a family's hints.
func TestEvolvePromptsForEveryProblem(t *testing.T) {
	problemtest.RefData(t) // every problem, the ones needing the reference data too
	for _, name := range problems.List() {
		t.Run(name, func(t *testing.T) {
			p, err := problems.Make(name)
			if err != nil {
				t.Skip(err)
			}
			ep, err := Templates{}.LoadEvolve(name, "")
			if err != nil {
				t.Fatal(err)
			}
			base := NewPromptData(name, p, ep.Base.Legend)
			par := ParentData{Text: base.FormatContent(p.ContentSpace().Sample(newRand(1))), Quality: 0.25, Fitness: 0.25,
				Features: []Feature{{"path", 7}}, Cell: "1,2"}
			for _, op := range []string{OpMutate, OpCrossover} {
				d := &EvolveData{PromptData: base, Operator: op, Parents: []ParentData{par, par}, Fitness: "quality", Archive: true, Axes: []string{"path", "regions"}}
				msgs, err := ep.Messages(d)
				if err != nil {
					t.Fatal(err)
				}
				user := msgs[len(msgs)-1].Content
				if n := len(llmtest.Blocks(user)); n != map[string]int{OpMutate: 1, OpCrossover: 2}[op] {
					t.Errorf("%s: %d code blocks", op, n)
				}
				for _, want := range []string{"quality 0.25", "path 7", "archive cell 1,2", "path and regions"} {
					if !bytes.Contains([]byte(user), []byte(want)) {
						t.Errorf("%s prompt lacks %q:\n%s", op, want, user)
					}
				}
			}
		})
	}
	dir := t.TempDir()
	if err := writeFile(filepath.Join(dir, "binary-evolve.tmpl"), `{{define "hints"}}MY OWN HINT{{end}}`); err != nil {
		t.Fatal(err)
	}
	ep, err := Templates{Dir: dir}.LoadEvolve("binary-v0", "")
	if err != nil {
		t.Fatal(err)
	}
	emb, _ := Templates{}.LoadEvolve("binary-v0", "")
	p, _ := problems.Make("binary-v0")
	d := &EvolveData{PromptData: NewPromptData("binary-v0", p, ep.Base.Legend), Operator: OpMutate, Parents: []ParentData{{Text: "x"}}, Fitness: "quality"}
	msgs, err := ep.Messages(d)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains([]byte(msgs[len(msgs)-1].Content), []byte("MY OWN HINT")) || ep.Hash == emb.Hash || ep.Origin != filepath.Join(dir, "binary-evolve.tmpl") {
		t.Errorf("the user's template is not used (origin %s)", ep.Origin)
	}
}

// greedyBinaryModel answers the best single-tile flip of the parent (by quality): a model that
// always improves its parent when it can, so the run improves predictably.
func greedyBinaryModel(t *testing.T, p problems.Problem, legend Legend) llmtest.Handler {
	t.Helper()
	sp := p.ContentSpace()
	return llmtest.Evolver(func(parents []string, _ int) string {
		c, err := ParseContent(llmtest.Fenced(parents[0]), sp, legend)
		if err != nil {
			return ""
		}
		vals := space.Flat(sp, c)
		best, bestQ := c, math.Inf(-1)
		for k := range vals {
			vals[k] = 1 - vals[k]
			cand, err := space.Restructure(sp, vals)
			vals[k] = 1 - vals[k]
			if err != nil {
				continue
			}
			info, err := p.Info(cand)
			if err != nil {
				continue
			}
			if q := p.Quality(info); q > bestQ {
				best, bestQ = cand, q
			}
		}
		return FormatContent(best, sp, legend)
	})
}

// A model that improves every parent it gets beats random mutation at the same seed and
// budget of generations, and its run never loses its best level.
func TestEvolveGreedyModelImprovesOnTheGA(t *testing.T) {
	const name = "binary-v0"
	p, err := problems.Make(name)
	if err != nil {
		t.Skip(err)
	}
	bp, _ := Templates{}.Load(name, "")
	srv := llmtest.New(greedyBinaryModel(t, p, bp.Legend))
	defer srv.Close()
	c := evolveCase{generator: GAName, problem: name, rate: 1}
	const gens = 4
	final, _, err := runEvolve(t, c, testConfig(srv, t.TempDir()), filepath.Join(t.TempDir(), "run"), gens, 0)
	if err != nil {
		t.Fatal(err)
	}
	ga, err := search.New(p, "ga", c.opts())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := ga.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	first := ga.Best()
	for i := 0; i < gens; i++ {
		if err := ga.Step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("best: llm-ga %.4f, ga %.4f, first population %.4f", final.BestFitness, ga.Best(), first)
	if !(final.BestFitness > ga.Best()) || !(final.BestFitness > first) {
		t.Errorf("llm-ga with a greedy model: best %.4f; ga: %.4f (first population %.4f): want the model's run ahead", final.BestFitness, ga.Best(), first)
	}
}

// checkOrigins: the origins final.json gives the last generation's children of a GA run (which
// keeps them all) are what replies.jsonl says of them: the model's first answer, its answer
// after a re-ask, or a fallback, and the random operators for the children not asked; the
// other individuals are the elites, born before.
func checkOrigins(t *testing.T, final *experiment.Final, exs []EvolveExchange) {
	t.Helper()
	last := map[int]EvolveExchange{}
	for _, ex := range exs {
		if ex.Generation == final.Generation {
			last[ex.Item] = ex
		}
	}
	want, got := map[string]int{}, map[string]int{}
	for _, ex := range last {
		switch {
		case ex.Fallback:
			want[search.OriginFallback]++
		case ex.Valid && ex.Turn == 0:
			want[search.OriginModel]++
		case ex.Valid:
			want[search.OriginRepair]++
		default:
			t.Fatalf("the last exchange of child %d is neither valid nor a fallback: %+v", ex.Item, ex)
		}
	}
	elites := int(math.Ceil(0.1 * float64(final.Size)))
	if n := final.Size - elites - len(last); n > 0 {
		want[search.OriginOperators] = n // the children the model was not asked for
	}
	carried := 0
	for _, s := range final.Population {
		switch {
		case s.Origin == "":
			t.Fatalf("an individual without origin: %+v", s)
		case s.Born == final.Generation:
			got[s.Origin]++
		case s.Born < final.Generation:
			carried++
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || carried != elites {
		t.Errorf("final.json: last generation's origins %v and %d carried over; replies.jsonl says %v and the GA keeps %d elites", got, carried, want, elites)
	}
	t.Logf("last generation: %v", got)
}

package llm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pcgwb/llm/llmtest"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// originKeys are what an llm-ga population entry has beyond a ga one: ,"origin":"…","born":N
// at the end of the line.
var originKeys = regexp.MustCompile(`,"origin":"[a-z]+","born":[0-9]+}`)

// The ablation: llm-ga with an LLM rate of 0 is the GA. With the same seed and options the two
// run folders are identical, which means precisely:
//   - final.json byte for byte, once config.generator ("llm-ga" for "ga") and each individual's
//     "origin" and "born" keys (which only llm-ga records) are taken out;
//   - events.jsonl line by line, once "generator", "elapsed_s" (wall time) and "llm" (the
//     model's counts, all 0) are taken out of each line;
//   - checkpoint.json's random state, evaluation count and population (origins aside).
//
// The model is never asked.
func TestEvolveRateZeroIsTheGA(t *testing.T) {
	const problem, gens = "binary-v0", 3
	if _, err := problems.Make(problem); err != nil {
		t.Skip(err)
	}
	srv := llmtest.New(knownEditModel(t, problem))
	defer srv.Close()
	root := t.TempDir()
	opts := search.Options{Problem: problem, Seed: 7, PopSize: 8}

	gaDir := filepath.Join(root, "ga")
	run, err := experiment.Create(gaDir, experiment.Config{Generator: "ga", Generations: gens, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run.Execute(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	llmDir := filepath.Join(root, "llm-ga")
	c := evolveCase{generator: GAName, problem: problem, rate: 0}
	client := newTestClient(t, testConfig(srv, t.TempDir()))
	ecfg, err := EvolveConfig(client, GAName, opts, EvolveSettings{Rate: c.rate, MaxRepairs: 1}, gens)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := StartEvolve(context.Background(), llmDir, client, ecfg, nil, nil); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Calls()); n != 0 {
		t.Errorf("rate 0: the model was asked %d times", n)
	}

	ga, lg := readText(t, gaDir, experiment.FinalFile), readText(t, llmDir, experiment.FinalFile)
	if n := len(originKeys.FindAllString(lg, -1)); n != opts.PopSize {
		t.Errorf("llm-ga's final.json has %d origins for %d individuals", n, opts.PopSize)
	}
	lg = originKeys.ReplaceAllString(lg, "}")
	lg = strings.Replace(lg, `"generator": "llm-ga"`, `"generator": "ga"`, 1)
	if ga != lg {
		t.Errorf("final.json differs beyond the generator name and the origins:\nga:\n%s\nllm-ga:\n%s", ga, lg)
	}

	gaEvents, lgEvents := eventMaps(t, gaDir), eventMaps(t, llmDir)
	if len(gaEvents) != gens+1 || len(lgEvents) != len(gaEvents) {
		t.Fatalf("%d and %d event lines, want %d", len(gaEvents), len(lgEvents), gens+1)
	}
	for i := range gaEvents {
		if gaEvents[i] != lgEvents[i] {
			t.Errorf("event %d differs:\nga     %s\nllm-ga %s", i, gaEvents[i], lgEvents[i])
		}
	}

	gaCP, lgCP := checkpointState(t, gaDir), checkpointState(t, llmDir)
	if string(gaCP.RNG) != string(lgCP.RNG) || gaCP.Evaluations != lgCP.Evaluations || len(gaCP.Population) != len(lgCP.Population) {
		t.Fatal("the checkpoints' random state, evaluations or population size differ")
	}
	for i := range gaCP.Population {
		a, b := gaCP.Population[i], lgCP.Population[i]
		b.Origin, b.Born = "", 0
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("checkpoint individual %d differs:\n%s\n%s", i, ja, jb)
		}
	}
}

func readText(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// eventMaps reads events.jsonl without the keys that name the generator, time it or count the
// model's work, each line re-encoded (keys sorted).
func eventMaps(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(readText(t, dir, experiment.EventsFile)), "\n") {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "generator")
		delete(m, "elapsed_s")
		delete(m, "llm")
		b, _ := json.Marshal(m)
		out = append(out, string(b))
	}
	return out
}

func checkpointState(t *testing.T, dir string) *search.State {
	t.Helper()
	var cp struct {
		State *search.State `json:"state"`
	}
	if err := json.Unmarshal([]byte(readText(t, dir, experiment.CheckpointFile)), &cp); err != nil || cp.State == nil {
		t.Fatalf("%s: %v", filepath.Join(dir, experiment.CheckpointFile), err)
	}
	return cp.State
}

// A crossover of two equal parents asks the model for a mutation of the one level: the prompt
// never shows the same level twice.
func TestEvolveEqualParentsAskForAMutation(t *testing.T) {
	const name = "binary-v0"
	p, err := problems.Make(name)
	if err != nil {
		t.Skip(err)
	}
	ep, err := Templates{}.LoadEvolve(name, "")
	if err != nil {
		t.Fatal(err)
	}
	opts := search.Options{Problem: name}.WithDefaults("ga")
	_, fit, _ := search.ParseFitness(opts.Fitness)
	op := &evolveOp{p: p, prompt: ep, base: NewPromptData(name, p, ep.Base.Legend), opts: opts, fit: fit}
	sp := p.ContentSpace()
	a := search.NewIndividual(sp.Sample(newRand(1)), nil)
	twin := search.NewIndividual(sp.Sample(newRand(1)), nil) // another individual, the same level
	b := search.NewIndividual(sp.Sample(newRand(2)), nil)
	for _, tc := range []struct {
		parents []*search.Individual
		op      string
		n       int
	}{{[]*search.Individual{a}, OpMutate, 1}, {[]*search.Individual{a, b}, OpCrossover, 2},
		{[]*search.Individual{a, a}, OpMutate, 1}, {[]*search.Individual{a, twin}, OpMutate, 1}} {
		d := op.data(search.Variation{Parents: tc.parents})
		msgs, err := ep.Messages(d)
		if err != nil {
			t.Fatal(err)
		}
		if blocks := llmtest.Blocks(msgs[len(msgs)-1].Content); d.Operator != tc.op || len(d.Parents) != tc.n || len(blocks) != tc.n {
			t.Errorf("%d parents (equal: %v): operator %q with %d parents and %d levels in the prompt, want %q with %d",
				len(tc.parents), len(tc.parents) == 2 && tc.parents[1] != b, d.Operator, len(d.Parents), len(blocks), tc.op, tc.n)
		}
	}
}

package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"pcgwb/internal/safeio"
	"pcgwb/problems"
	"pcgwb/problems/search"
)

// ExampleFile is the run-folder file examples are read from when given a folder.
const ExampleFile = "final.json"

// Candidate is a content offered as an example, with its quality.
type Candidate struct {
	Content any
	Quality float64
}

// ExamplePool returns up to n distinct example contents for a problem, best quality first.
//
// from names where they come from: a run folder (its final.json) or a file (a run's
// final.json, or an item file as `workbench sample` writes). Without one, the built-in set is
// used: the constructive generator's levels where the problem has one, else the best of
// random samples of the content space. Everything is seeded by seed, so a run's prompts (and
// so its cache keys) are the same every time.
func ExamplePool(ctx context.Context, p problems.Problem, name, from string, n int, seed uint64) ([]Candidate, error) {
	if n <= 0 {
		return nil, nil
	}
	var contents []any
	var err error
	switch {
	case from != "":
		contents, err = readExampleContents(p, from)
	case search.HasBuilder(name):
		contents, err = generatedContents(ctx, p, name, constructiveGenerator(), max(2*n, 10), seed)
	default:
		contents, err = sampledContents(p, max(10*n, 40), seed)
	}
	if err != nil {
		return nil, err
	}
	infos, err := problems.Infos(ctx, p, contents)
	if err != nil {
		return nil, fmt.Errorf("evaluating the examples: %w", err)
	}
	cands := make([]Candidate, 0, len(contents))
	seen := map[string]bool{}
	for i, c := range contents {
		key, _ := json.Marshal(c)
		if seen[string(key)] {
			continue
		}
		seen[string(key)] = true
		cands = append(cands, Candidate{Content: c, Quality: p.Quality(infos[i])})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].Quality > cands[j].Quality })
	return cands[:min(n, len(cands))], nil
}

// constructiveGenerator is the registered generator that builds with the families' builders.
func constructiveGenerator() string {
	for _, d := range search.Descriptors() {
		if d.Constructive {
			return d.Name
		}
	}
	return ""
}

func generatedContents(ctx context.Context, p problems.Problem, name, gen string, n int, seed uint64) ([]any, error) {
	g, err := search.New(p, gen, search.Options{Problem: name, PopSize: n, Seed: seed})
	if err != nil {
		return nil, err
	}
	if err := g.Reset(ctx); err != nil {
		return nil, err
	}
	var out []any
	for _, ind := range g.Population() {
		out = append(out, ind.Content)
	}
	return out, nil
}

func sampledContents(p problems.Problem, n int, seed uint64) ([]any, error) {
	rng := newRand(seed)
	out := make([]any, n)
	for i := range out {
		out[i] = p.ContentSpace().Sample(rng)
	}
	return out, nil
}

// maxExampleFileBytes bounds the run folder's final.json or item file examples are read from.
const maxExampleFileBytes = 256 << 20

// readExampleContents reads contents from a run folder, a final.json or an item file.
func readExampleContents(p problems.Problem, from string) ([]any, error) {
	path := from
	if fi, err := os.Stat(from); err == nil && fi.IsDir() {
		path = filepath.Join(from, ExampleFile)
	}
	data, err := safeio.ReadFile(path, maxExampleFileBytes)
	if err != nil {
		return nil, fmt.Errorf("examples: %w", err)
	}
	var probe struct {
		Population []struct {
			Content json.RawMessage `json:"content"`
		} `json:"population"`
		Items json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("examples: %s: %w", path, err)
	}
	var out []any
	switch {
	case probe.Population != nil:
		for i, ind := range probe.Population {
			dec := json.NewDecoder(strings.NewReader(string(ind.Content)))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				return nil, fmt.Errorf("examples: %s: population[%d]: %w", path, i, err)
			}
			c, err := p.ContentSpace().Normalize(v, fmt.Sprintf("population[%d].content", i))
			if err != nil {
				return nil, fmt.Errorf("examples: %s: %w (is it a run of another problem?)", path, err)
			}
			out = append(out, c)
		}
	case probe.Items != nil:
		items, err := problems.DecodeItems(p, data)
		if err != nil {
			return nil, fmt.Errorf("examples: %s: %w", path, err)
		}
		for _, it := range items {
			out = append(out, it.Content)
		}
	default:
		return nil, fmt.Errorf("examples: %s is neither a run's final.json nor an item file", path)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("examples: %s holds no contents", path)
	}
	return out, nil
}

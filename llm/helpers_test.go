package llm

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"pcgwb/llm/llmtest"

	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

type searchEvent = search.Event

func searchOptions(problem string, n int) search.Options {
	return search.Options{Problem: problem, PopSize: n, Seed: 1}
}

// checkNoKey fails the test for each file below root holding the test API key and returns
// how many files it read.
func checkNoKey(t *testing.T, root string) int {
	t.Helper()
	return llmtest.CheckNoSecret(t, root, testKey, "SECRET")
}

// execute runs g's configuration in dir through the one run loop (StartRun), with g's
// callbacks: the tests build a generator to say what to run.
func execute(ctx context.Context, dir string, g *Generator, generations int, onEvent func(searchEvent)) (*experiment.Final, error) {
	return StartRun(ctx, dir, g.client, g.opts, generations, func(ng *Generator) {
		ng.OnReply, ng.OnDelta = g.OnReply, g.OnDelta
	}, onEvent)
}

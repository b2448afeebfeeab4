package llm

import (
	"os"
	"path/filepath"

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

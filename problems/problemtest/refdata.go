package problemtest

import (
	"os"
	"path/filepath"
	"testing"

	"pcgwb/problems/data"
)

// RefData points the process at the pcg_benchmark reference data for a test and returns the
// folder: $PCG_BENCHMARK_DATA when set, else ../shared/reference-data/pcg next to the module
// root. Each listed file (data paths such as "elimination/dictionary.txt") must be there; when
// one is missing the test fails under CI=true and is skipped otherwise, naming the variable.
// It sets PCG_BENCHMARK_DATA for the rest of the test, so the problems find the same folder.
func RefData(t testing.TB, files ...string) string {
	t.Helper()
	dir := os.Getenv(data.EnvVar)
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			t.Fatalf("reference data: %v", err)
		}
		dir = filepath.Join(filepath.Dir(root), "shared", "reference-data", "pcg")
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			msg := "reference data file %s not found in %s: set " + data.EnvVar +
				" to a pcg_benchmark/probs folder (see ../shared/reference-data/README.md)"
			if os.Getenv("CI") == "true" {
				t.Fatalf(msg, f, dir)
			}
			t.Skipf(msg, f, dir)
		}
	}
	t.Setenv(data.EnvVar, dir)
	return dir
}

// RefDataFiles is RefData for every file of the given datasets.
func RefDataFiles(t testing.TB, sets ...*data.Dataset) string {
	t.Helper()
	var files []string
	for _, s := range sets {
		for _, f := range s.Files {
			files = append(files, f.Path)
		}
	}
	return RefData(t, files...)
}

// moduleRoot is the folder holding go.mod, found upwards from the working directory (a test
// runs in its package folder).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

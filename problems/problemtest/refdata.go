package problemtest

import (
	"os"
	"path/filepath"
	"testing"

	"pcgwb/internal/testshared"
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
		shared, err := testshared.Root()
		if err != nil {
			t.Fatalf("reference data: %v", err)
		}
		dir = filepath.Join(shared, "reference-data", "pcg")
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			testshared.Missing(t, "reference data file %s not found in %s: set "+data.EnvVar+
				" to a pcg_benchmark/probs folder (see ../shared/reference-data/README.md)", f, dir)
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

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/problems/data"
	"pcgwb/problems/problemtest"
)

func noData(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv(data.EnvVar, "")
	t.Setenv("VIRTUAL_ENV", "")
	t.Setenv("CONDA_PREFIX", "")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	return home
}

func TestProblemsMarksMissingData(t *testing.T) {
	noData(t)
	t.Setenv(data.EnvVar, t.TempDir())
	code, out, _ := runCLI(t, "problems")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	want := "elimination-v0\t[needs data: elimination/dictionary.txt, elimination/count.txt]\n"
	if !strings.Contains(out, want) {
		t.Errorf("no marker line %q in\n%s", want, out)
	}
	if !strings.Contains(out, "\nloderunner-v0\t[needs data: loderunner/patterns.txt, loderunner/data/level_0..4.txt]\n") {
		t.Errorf("loderunner-v0 not marked in\n%s", out)
	}
	code, _, errs := runCLI(t, "sample", "elimination-v0")
	if code != 2 || !strings.Contains(errs, "workbench data import PATH") || strings.Count(errs, "\n") != 1 {
		t.Errorf("sample without data: exit %d, %q", code, errs)
	}
}

func TestDataImportThenStatus(t *testing.T) {
	home := noData(t)
	src := problemtest.RefData(t, "elimination/dictionary.txt", "elimination/count.txt")
	t.Setenv(data.EnvVar, "")
	code, out, errs := runCLI(t, "data", "import", src)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "ok       elimination/dictionary.txt") {
		t.Errorf("import output:\n%s", out)
	}
	code, out, _ = runCLI(t, "data", "status")
	dest := filepath.Join(home, ".config", "pcg-workbench", "data")
	if code != 0 || !strings.Contains(out, "directory: "+dest+" (imported copy)") ||
		!strings.Contains(out, "elimination word list") {
		t.Errorf("status: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dest, "elimination", "count.txt")); err != nil {
		t.Error(err)
	}
	if code, out, _ := runCLI(t, "problems"); code != 0 || !strings.Contains(out, "\nelimination-v0\n") {
		t.Errorf("elimination-v0 still marked after import:\n%s", out)
	}
}

func TestDataUsage(t *testing.T) {
	noData(t)
	for _, args := range [][]string{{"data"}, {"data", "nope"}, {"data", "import"}} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, errs := runCLI(t, "data", "import", t.TempDir()); code != 2 || !strings.Contains(errs, "no pcg_benchmark data") {
		t.Errorf("import of an empty folder: exit %d, %q", code, errs)
	}
}

package data_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pcgwb/problems/data"
	"pcgwb/problems/problemtest"
)

// isolate points every lookup at empty temporary folders (no env data, no user copy).
func isolate(t *testing.T) (home string) {
	t.Helper()
	t.Setenv(data.EnvVar, "")
	t.Setenv("VIRTUAL_ENV", "")
	t.Setenv("CONDA_PREFIX", "")
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	return home
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLinesFollowPythonReadlines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a\nb", []string{"a\n", "b"}},
		{"a\nb\n", []string{"a\n", "b\n"}},
		{"a\r\nb\rc", []string{"a\n", "b\n", "c"}},
		{"\n\n", []string{"\n", "\n"}},
	} {
		if got := data.Lines([]byte(tc.in)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Lines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEnvVarIsTheOnlyRootWhenSet(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	t.Setenv(data.EnvVar, dir)
	if r := data.Roots(); len(r) != 1 || r[0].Dir != dir || r[0].Source != data.SourceEnv {
		t.Fatalf("Roots() = %+v", r)
	}
	_, err := data.Find("elimination/dictionary.txt")
	m, ok := data.IsMissing(err)
	if !ok || m.EnvDir != dir || !strings.Contains(err.Error(), dir) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Find in an empty env dir: %v", err)
	}
	write(t, filepath.Join(dir, "elimination", "dictionary.txt"), "CAT\n")
	if p, err := data.Find("elimination/dictionary.txt"); err != nil || p != filepath.Join(dir, "elimination", "dictionary.txt") {
		t.Fatalf("Find = %q, %v", p, err)
	}
}

func TestMissingErrorIsOneLineWithTheHint(t *testing.T) {
	isolate(t)
	err := data.Need(data.EliminationWords, data.LodeRunnerLevels)()
	if err == nil {
		t.Fatal("data found in empty folders")
	}
	want := "needs the pcg_benchmark data (elimination/dictionary.txt, elimination/count.txt, " +
		"loderunner/data/level_0..4.txt): run `workbench data download` (or Get the data… in the window), " +
		"set PCG_BENCHMARK_DATA, or run `workbench data import PATH`"
	if err.Error() != want {
		t.Errorf("error = %q", err)
	}
	wrapped := fmt.Errorf("x-v0 is not available: %w", err)
	if m, ok := data.IsMissing(wrapped); !ok || len(m.Files) != 7 {
		t.Errorf("IsMissing(%v) = %v, %v", wrapped, m, ok)
	}
}

func TestFindsAnInstalledPythonPackageBeforeTheUserCopy(t *testing.T) {
	home := isolate(t)
	user, err := data.UserDir()
	if err != nil {
		t.Skip("no user config dir on this platform:", err)
	}
	site := filepath.Join(home, ".local", "lib", "python3.11", "site-packages")
	probs := filepath.Join(site, "pcg_benchmark", "probs")
	write(t, filepath.Join(probs, "loderunner", "patterns.txt"), "1111\n")
	write(t, filepath.Join(user, "loderunner", "patterns.txt"), "0000\n")
	write(t, filepath.Join(user, "smb", "slices.txt"), "x\n")

	roots := data.Roots()
	if len(roots) < 2 || roots[0].Dir != probs || roots[0].Source != data.SourcePython ||
		roots[len(roots)-1].Dir != user || roots[len(roots)-1].Source != data.SourceImported {
		t.Fatalf("Roots() = %+v", roots)
	}
	if p, _ := data.Find("loderunner/patterns.txt"); p != filepath.Join(probs, "loderunner", "patterns.txt") {
		t.Errorf("patterns found at %q, want the package's", p)
	}
	// A file the package lacks still comes from the user copy.
	if p, _ := data.Find("smb/slices.txt"); p != filepath.Join(user, "smb", "slices.txt") {
		t.Errorf("slices found at %q, want the user copy", p)
	}
}

func TestFindsPyenvAndEditableInstalls(t *testing.T) {
	home := isolate(t)
	pyenv := filepath.Join(home, ".pyenv", "versions", "3.12.1", "lib", "python3.12", "site-packages")
	write(t, filepath.Join(pyenv, "pcg_benchmark", "probs", "elimination", "count.txt"), "A\t1\n")
	checkout := filepath.Join(home, "src", "pcg_benchmark")
	write(t, filepath.Join(checkout, "pcg_benchmark", "probs", "smb", "slices.txt"), "x\n")
	local := filepath.Join(home, ".local", "lib", "python3.11", "site-packages")
	write(t, filepath.Join(local, "pcg_benchmark.egg-link"), checkout+"\n.\n")
	finderSrc := filepath.Join(home, "other")
	write(t, filepath.Join(finderSrc, "pcg_benchmark", "probs", "smb", "noise.txt"), "1\n")
	write(t, filepath.Join(local, "__editable___pcg_benchmark_0_1_0_finder.py"),
		fmt.Sprintf("MAPPING = {'pcg_benchmark': '%s'}\n", filepath.Join(finderSrc, "pcg_benchmark")))

	dirs := data.PythonPackageDirs()
	for _, want := range []string{
		filepath.Join(pyenv, "pcg_benchmark", "probs"),
		filepath.Join(checkout, "pcg_benchmark", "probs"),
		filepath.Join(finderSrc, "pcg_benchmark", "probs"),
	} {
		found := false
		for _, d := range dirs {
			found = found || d == want
		}
		if !found {
			t.Errorf("%s not found in %q", want, dirs)
		}
	}
}

// fakeProbs writes a small but valid pcg_benchmark/probs tree (invented content, the shapes of
// the real files).
func fakeProbs(t *testing.T, root string) {
	t.Helper()
	write(t, filepath.Join(root, "elimination", "dictionary.txt"), "CAT\nDOG\nSEA-COW\nZZZ")
	write(t, filepath.Join(root, "elimination", "count.txt"), "THE\t100\nCAT\t7\n")
	var pat strings.Builder
	for i := 0; i < data.PatternCount; i++ {
		fmt.Fprintf(&pat, "%04d\n", i%7*1111)
	}
	write(t, filepath.Join(root, "loderunner", "patterns.txt"), strings.TrimSuffix(pat.String(), "\n"))
	level := strings.Repeat(strings.Repeat("1", data.LevelCols)+"\n", data.LevelRows-1) + strings.Repeat("0", data.LevelCols)
	for i := 0; i < data.LevelCount; i++ {
		write(t, filepath.Join(root, filepath.FromSlash(data.LevelPath(i))), level)
	}
}

func TestImportCopiesValidFilesAndReports(t *testing.T) {
	isolate(t)
	src := t.TempDir()
	fakeProbs(t, filepath.Join(src, "pcg_benchmark", "probs"))
	// An invalid pattern file is reported and not copied.
	write(t, filepath.Join(src, "pcg_benchmark", "probs", "loderunner", "patterns.txt"), "1111\n2222\n")
	rep, err := data.Import(src)
	if err != nil {
		t.Fatal(err)
	}
	user, _ := data.UserDir()
	if rep.Dest != user || rep.Source != filepath.Join(src, "pcg_benchmark", "probs") {
		t.Errorf("report %+v", rep)
	}
	if len(rep.Copied) != 2+data.LevelCount {
		t.Errorf("copied %v", rep.Copied)
	}
	if !reflect.DeepEqual(rep.Missing, []string{"smb/slices.txt"}) {
		t.Errorf("missing %v", rep.Missing)
	}
	if len(rep.Invalid) != 1 || rep.Invalid[0].Path != "loderunner/patterns.txt" {
		t.Errorf("invalid %v", rep.Invalid)
	}
	// The copy is now the data directory.
	if err := data.Need(data.EliminationWords, data.LodeRunnerLevels)(); err != nil {
		t.Errorf("after import: %v", err)
	}
	if err := data.Need(data.LodeRunnerPatterns)(); err == nil {
		t.Error("the invalid pattern file was imported")
	}
	for _, s := range data.Status() {
		if s.Available() != (s.Dataset == data.EliminationWords || s.Dataset == data.LodeRunnerLevels) {
			t.Errorf("status of %s: available %v, missing %v", s.Dataset.Name, s.Available(), s.Missing)
		}
	}
}

func TestImportRefusesAFolderWithoutData(t *testing.T) {
	isolate(t)
	if _, err := data.ImportTo(t.TempDir(), t.TempDir()); err == nil {
		t.Error("an empty folder was imported")
	}
	if _, err := data.ImportTo(filepath.Join(t.TempDir(), "nope"), t.TempDir()); err == nil {
		t.Error("a missing folder was imported")
	}
	src := t.TempDir()
	write(t, filepath.Join(src, "elimination", "dictionary.txt"), "lower case\n")
	rep, err := data.ImportTo(src, t.TempDir())
	if err == nil || len(rep.Invalid) != 1 {
		t.Errorf("an invalid dictionary was imported: %+v, %v", rep, err)
	}
}

func TestValidators(t *testing.T) {
	byPath := map[string]func([]byte) error{}
	for _, ds := range data.Datasets() {
		for _, f := range ds.Files {
			byPath[f.Path] = f.Validate
		}
	}
	row := strings.Repeat("1", data.LevelCols)
	level := strings.Repeat(row+"\n", data.LevelRows)
	patterns := strings.Repeat("0156\n", data.PatternCount)
	for _, tc := range []struct {
		path, content string
		ok            bool
	}{
		{"elimination/dictionary.txt", "AA\nAAH\nZZZ", true},
		{"elimination/dictionary.txt", "", false},
		{"elimination/dictionary.txt", "AA\nbad\n", false},
		{"elimination/count.txt", "THE\t53097401461\nOF\t3\n", true},
		{"elimination/count.txt", "THE 5\n", false},
		{"elimination/count.txt", "THE\tmany\n", false},
		{"loderunner/patterns.txt", patterns, true},
		{"loderunner/patterns.txt", patterns + "1111\n", false},
		{"loderunner/patterns.txt", strings.Replace(patterns, "0156", "0157", 1), false},
		{"loderunner/data/level_0.txt", level, true},
		{"loderunner/data/level_0.txt", level + row + "\n", false},
		{"loderunner/data/level_0.txt", strings.Replace(level, row, row+"1", 1), false},
		{"smb/slices.txt", strings.Repeat("----------------\n", data.SliceCount), true},
		{"smb/slices.txt", strings.Repeat("---\n", data.SliceCount), false},
	} {
		err := byPath[tc.path]([]byte(tc.content))
		if (err == nil) != tc.ok {
			t.Errorf("%s %.30q: err = %v, want ok %v", tc.path, tc.content, err, tc.ok)
		}
	}
}

func TestLazyRetriesUntilItSucceeds(t *testing.T) {
	calls := 0
	l := data.NewLazy(func() (int, error) {
		calls++
		if calls == 1 {
			return 0, errors.New("not yet")
		}
		return 42, nil
	})
	if _, err := l.Get(); err == nil {
		t.Fatal("first load should fail")
	}
	for i := 0; i < 3; i++ {
		if v, err := l.Get(); v != 42 || err != nil {
			t.Fatalf("Get = %v, %v", v, err)
		}
	}
	if calls != 2 {
		t.Errorf("loader called %d times, want 2", calls)
	}
}

// The reference's own files pass validation and import (into a temporary folder, never into
// the project).
func TestReferenceDataValidates(t *testing.T) {
	var files []string
	for _, ds := range data.Datasets() {
		for _, f := range ds.Files {
			files = append(files, f.Path)
		}
	}
	dir := problemtest.RefData(t, files...)
	rep, err := data.ImportTo(dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Missing) > 0 || len(rep.Invalid) > 0 || len(rep.Copied) != len(files) {
		t.Fatalf("report %+v", rep)
	}
	if p, err := data.Patterns(); err != nil || len(p) != data.PatternCount {
		t.Fatalf("Patterns: %d, %v", len(p), err)
	}
	if l, err := data.Levels(); err != nil || len(l) != data.LevelCount || len(l[0]) != data.LevelRows {
		t.Fatalf("Levels: %v", err)
	}
}

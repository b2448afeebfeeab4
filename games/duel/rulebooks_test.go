package duel

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sharedRulebooks locates ../shared/gg-bench/games next to the module root. The rulebooks are
// reference data that must not be copied into the project, so the test reads them in place: a
// missing folder skips the test locally and fails it in CI.
func sharedRulebooks(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("module root not found")
		}
		dir = parent
	}
	p := filepath.Join(dir, "..", "shared", "gg-bench", "games")
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("reference data missing: %v", err)
		}
		t.Skipf("reference data not available: %v", err)
	}
	return p
}

var benchmarkID = regexp.MustCompile(`benchmark env id (\d+)`)

// TestEveryRulebookHasABuiltin checks that each shared gg-bench rulebook has a built-in game of
// the same name that names the rulebook's benchmark id, and that its rules text is our own.
func TestEveryRulebookHasABuiltin(t *testing.T) {
	dir := sharedRulebooks(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rulebooks in %s: %v", dir, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		t.Run(name, func(t *testing.T) {
			fh, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			sc := bufio.NewScanner(fh)
			sc.Scan()
			m := benchmarkID.FindStringSubmatch(sc.Text())
			if m == nil {
				t.Fatalf("no benchmark id in the first line %q", sc.Text())
			}
			var rulebook []string
			for sc.Scan() {
				rulebook = append(rulebook, sc.Text())
			}
			p, err := BuiltinProgram(name, Limits{})
			if err != nil {
				t.Fatalf("no built-in for the rulebook: %v", err)
			}
			src := string(p.Source())
			if !strings.Contains(src, "benchmark game "+m[1]) {
				t.Errorf("%s.star does not name benchmark game %s", name, m[1])
			}
			// no line of the rulebook (beyond short ones) appears in the script
			for _, line := range rulebook {
				line = strings.TrimSpace(line)
				if len(line) >= 40 && strings.Contains(src, line) {
					t.Errorf("%s.star copies the rulebook line %q", name, line)
				}
			}
		})
	}
}

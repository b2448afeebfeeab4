package duel

import (
	"bufio"
	"os"
	"path/filepath"
	"pcgwb/games/duel/script"
	"regexp"
	"strings"
	"testing"

	"pcgwb/internal/testshared"
)

var benchmarkID = regexp.MustCompile(`benchmark env id (\d+)`)

// TestEveryRulebookHasABuiltin checks that each shared gg-bench rulebook has a built-in game of
// the same name that names the rulebook's benchmark id, and that its rules text is our own.
func TestEveryRulebookHasABuiltin(t *testing.T) {
	// The gg-bench rulebooks, read in place (reference data, never copied).
	dir := testshared.Dir(t, "gg-bench", "games")
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
			p, err := script.BuiltinProgram(name, script.Limits{})
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

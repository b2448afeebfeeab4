package birds

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A trial file whose name is not ASCII is refused with the reason, not carried through every
// stage to score 0.
func TestNonASCIITrialNameIsRefused(t *testing.T) {
	dir := t.TempDir()
	writeAnswer(t, dir, "alpha", "I", 1, "```\ndrop_block('b31', 10)\n```")
	odd := filepath.Join(dir, "alpha", StageRaw, "I", "alpha_I_é2.txt")
	if err := os.WriteFile(odd, []byte("```\ndrop_block('b31', 10)\n```"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(context.Background(), dir, Options{Classifier: Unavailable{}, Workers: 1, Trials: 1})
	if err != nil && rep == nil {
		t.Fatal(err)
	}
	ex := rep.Stages[0]
	if ex.Stage != "extract" || ex.Written != 1 || len(ex.Failures) != 1 || !strings.Contains(ex.Failures[0].Err, "not ASCII") {
		t.Fatalf("extract report %+v", ex)
	}
	if _, err := os.Stat(filepath.Join(dir, "alpha", StageLevels, "I", "alpha_I_é2.xml")); !os.IsNotExist(err) {
		t.Fatalf("the non-ASCII trial was converted: %v", err)
	}
}

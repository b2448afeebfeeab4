package data_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"pcgwb/problems/data"
)

// TestImportFollowsNoLinkAndQuotesNothingItReached: a data path that is a link (to a file of
// the machine, or through a linked folder) is refused, and the secret never appears in the
// report or the error; a FIFO is refused without hanging.
func TestImportFollowsNoLinkAndQuotesNothingItReached(t *testing.T) {
	const secret = "root:$6$SECRET-HASH:19000:0:99999:7:::"
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, src, secretFile string)
		path  string
	}{
		{"file link", func(t *testing.T, src, secretFile string) {
			mkdir(t, filepath.Join(src, "elimination"))
			if err := os.Symlink(secretFile, filepath.Join(src, "elimination", "dictionary.txt")); err != nil {
				t.Fatal(err)
			}
		}, "elimination/dictionary.txt"},
		{"folder link", func(t *testing.T, src, secretFile string) {
			other := t.TempDir()
			if err := os.WriteFile(filepath.Join(other, "dictionary.txt"), []byte(secret+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(other, filepath.Join(src, "elimination")); err != nil {
				t.Fatal(err)
			}
		}, "elimination/dictionary.txt"},
		{"fifo", func(t *testing.T, src, _ string) {
			mkdir(t, filepath.Join(src, "elimination"))
			if err := syscall.Mkfifo(filepath.Join(src, "elimination", "dictionary.txt"), 0o644); err != nil {
				t.Skip("no FIFO here:", err)
			}
		}, "elimination/dictionary.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			src := t.TempDir()
			secretFile := filepath.Join(t.TempDir(), "shadow")
			if err := os.WriteFile(secretFile, []byte(secret+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			tc.setup(t, src, secretFile)
			// One valid file so that the import has something to copy.
			write(t, filepath.Join(src, "loderunner", "patterns.txt"), strings.Repeat("0000\n", data.PatternCount))
			rep, err := data.ImportTo(src, t.TempDir())
			all := fmt.Sprintf("%v %+v", err, rep)
			if strings.Contains(all, "SECRET") {
				t.Fatalf("the report quotes the reached file: %s", all)
			}
			found := false
			for _, inv := range rep.Invalid {
				found = found || inv.Path == tc.path
			}
			if !found {
				t.Fatalf("%s not refused: %+v", tc.path, rep)
			}
		})
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Folders and paths report, score, compare and level cannot use are bad input (exit 2) with a
// clear reason, refused before anything is evaluated or written.
func TestBirdsBadFoldersAndPathsExit2(t *testing.T) {
	dir := birdsCompetition(t)
	if code, _, errs := runCLI(t, "birds", "evaluate", "--quiet", "--classifier", "none", dir); code != 0 {
		t.Fatalf("evaluate: exit %d: %s", code, errs)
	}
	empty := t.TempDir()
	level := filepath.Join(t.TempDir(), "l.txt")
	writeBirdsFile(t, level, "drop_block('b31', 10)\n")
	outside := filepath.Join(t.TempDir(), "victim.png")
	writeBirdsFile(t, outside, "precious")
	link := filepath.Join(t.TempDir(), "link.png")
	if err := os.Symlink(outside, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	prompt := filepath.Join(t.TempDir(), "p.txt")
	writeBirdsFile(t, prompt, "Build the letter <OBJECT>.")
	outLink := filepath.Join(t.TempDir(), "out")
	if err := os.Symlink(empty, outLink); err != nil {
		t.Fatal(err)
	}
	dirLink := filepath.Join(t.TempDir(), "competition")
	if err := os.Symlink(dir, dirLink); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"evaluate of a linked folder", []string{"evaluate", dirLink}, "symbolic link: give the real folder"},
		{"report of a linked folder", []string{"report", dirLink}, "symbolic link: give the real folder"},
		{"report of an empty folder", []string{"report", empty}, "no team folder"},
		{"score of an empty folder", []string{"score", empty}, "no team folder"},
		{"2025 score with an empty folder", []string{"score", "--edition", "2025", dir, dir, empty}, "no team folder"},
		{"compare with an empty folder", []string{"compare", "--team-a", "one", empty, dir}, "no team folder"},
		{"compare without a team named", []string{"compare", dir, dir}, "name the one to compare"},
		{"compare with an unknown team", []string{"compare", "--team-a", "one", "--team-b", "nope", dir, dir}, `no team "nope"`},
		{"level --image through a link", []string{"level", level, "--image", link}, "never written through"},
		{"level --image a folder", []string{"level", level, "--image", empty}, "not a regular file"},
		{"prompt --out a link", []string{"prompt", prompt, "--out", outLink, "--model", "m", "--offline", "--trials", "1", "--letters", "A"}, "not a real folder"},
		{"level --image in a missing folder", []string{"level", level, "--image", filepath.Join(empty, "no", "x.png")}, "folder is missing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append([]string{"birds"}, c.args...)...)
			if code != 2 || !strings.Contains(errs, c.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 with %q", code, out, errs, c.want)
			}
			if data, _ := os.ReadFile(outside); string(data) != "precious" {
				t.Fatal("wrote through the link")
			}
			if entries, _ := os.ReadDir(empty); len(entries) != 0 {
				t.Fatalf("wrote into the empty folder: %v", entries)
			}
		})
	}
}

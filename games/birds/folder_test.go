package birds

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/internal/folderlock"
)

// pngClassifier is letterClassifier under the name of the test of broken PNG files: the
// classify stage decodes each file before the classifier sees it, so a broken one is that
// item's error.
type pngClassifier struct{ letterClassifier }

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// A second evaluation derives every stage from the current answers: an answer that changed
// into "I cannot do that" and an answer that was deleted leave no program, level, image,
// stability, similarity or score behind.
func TestEvaluateRemovesStaleOutputs(t *testing.T) {
	dir := competitionFolder(t)
	opt := Options{Classifier: &letterClassifier{}, Workers: 2, Trials: 1}
	if _, err := Evaluate(context.Background(), dir, opt); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"beta/intermediate/I/beta_I_2.txt", "beta/levels/I/beta_I_1.xml", "beta/images/I/beta_I_2.png", "beta/similarity/I.json", "beta/stability/I.json"} {
		if !exists(filepath.Join(dir, f)) {
			t.Fatalf("first run: missing %s", f)
		}
	}
	writeAnswer(t, dir, "beta", "I", 1, "I cannot do that.")
	if err := os.Remove(filepath.Join(dir, "beta", StageRaw, "I", "beta_I_2.txt")); err != nil {
		t.Fatal(err)
	}
	// A file the pipeline does not produce stays.
	keep := filepath.Join(dir, "beta", StageImages, "I", "beta_I_1_raw.png")
	if err := os.WriteFile(keep, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(context.Background(), dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"intermediate/I/beta_I_1.txt", "intermediate/I/beta_I_2.txt", "levels/I/beta_I_1.xml", "levels/I/beta_I_2.xml",
		"images/I/beta_I_1.png", "images/I/beta_I_2.png", "stability/I.json", "similarity/I.json", "diversity/I.json"} {
		if exists(filepath.Join(dir, "beta", f)) {
			t.Errorf("stale beta/%s survived the second run", f)
		}
	}
	if !exists(keep) {
		t.Error("a file the pipeline does not write was removed")
	}
	removed := 0
	for _, s := range rep.Stages {
		removed += s.Removed
	}
	if removed < 9 {
		t.Errorf("%d stale files reported removed, want ≥ 9: %+v", removed, rep.Stages)
	}
	csv, err := os.ReadFile(filepath.Join(dir, StageResult, "trial_scores.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(csv), "\n") {
		if strings.HasPrefix(line, `"beta","I",`) && !strings.HasSuffix(strings.TrimSpace(line), `"0","0","0","0"`) {
			t.Errorf("beta's vanished trials are still scored: %s", line)
		}
	}
	if !strings.Contains(string(csv), `"alpha","I",1,"0.`) {
		t.Errorf("beta's vanished trials are still scored:\n%s", csv)
	}
	if !strings.Contains(string(csv), `"alpha","I"`) {
		t.Errorf("alpha is not scored:\n%s", csv)
	}
}

// Links in the place of a stage folder or an output never lead a write outside the folder;
// the trials concerned fail with the reason and the others are scored.
func TestEvaluateRefusesLinks(t *testing.T) {
	for _, c := range []struct{ name, link string }{
		{"intermediate", "beta/intermediate"},
		{"images", "beta/images"},
		{"letter folder", "beta/levels/I"},
		{"output file", "beta/stability/I.json"},
		{"team folder", "gamma"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := competitionFolder(t)
			outside := t.TempDir()
			target := filepath.Join(outside, "target")
			if strings.HasSuffix(c.link, ".json") {
				if err := os.WriteFile(target, []byte("precious"), 0o644); err != nil {
					t.Fatal(err)
				}
			} else if err := os.Mkdir(target, 0o755); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, c.link)
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, link); err != nil {
				t.Skip("no symlinks:", err)
			}
			rep, err := Evaluate(context.Background(), dir, Options{Classifier: &letterClassifier{}, Workers: 2, Trials: 1})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Scores == nil || len(rep.Scores.Prompts) != 2 {
				t.Fatalf("not scored: %+v", rep)
			}
			if data, err := os.ReadFile(target); err == nil && string(data) != "precious" {
				t.Fatalf("wrote through the link: %q", data)
			}
			if entries, _ := os.ReadDir(target); len(entries) != 0 {
				t.Fatalf("wrote into the linked folder: %v", entries)
			}
			failed := 0
			for _, s := range rep.Stages {
				for _, f := range s.Failures {
					if strings.Contains(f.Err, "not a real folder") {
						failed++
					}
				}
			}
			if failed == 0 {
				t.Fatalf("no failure names the link: %+v", rep.Stages)
			}
		})
	}
}

// One unreadable image fails its trial; every other image of every team is classified.
func TestClassifyOneBadImage(t *testing.T) {
	dir := competitionFolder(t)
	opt := Options{Classifier: &pngClassifier{}, Workers: 2, Trials: 1}
	if _, err := Evaluate(context.Background(), dir, opt); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "alpha", StageImages, "I", "alpha_I_2.png")
	if err := os.WriteFile(bad, []byte("not a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := ClassifyStage(context.Background(), dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failures) != 1 || !strings.Contains(r.Failures[0].File, "alpha_I_2.png") || r.Written != r.Items-1 {
		t.Fatalf("%+v", r)
	}
	sim := readJSONFile[SimilarityFile](filepath.Join(dir, "alpha", StageSimilarity, "I.json"))
	if sim == nil || sim.Count != 2 {
		t.Fatalf("similarity %+v", sim)
	}
	if _, err := ScoreStage(context.Background(), dir, opt); err != nil {
		t.Fatal(err)
	}
}

// Oversized and special input files fail their trial with the reason.
func TestEvaluateBoundedReads(t *testing.T) {
	dir := competitionFolder(t)
	writeAnswer(t, dir, "beta", "I", 3, strings.Repeat("x", MaxResponseBytes+1))
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "beta", StageRaw, "I", "beta_I_4.txt")); err != nil {
		t.Skip(err)
	}
	r, err := ExtractStage(context.Background(), dir, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, f := range r.Failures {
		reasons[filepath.Base(f.File)] = f.Err
	}
	if !strings.Contains(reasons["beta_I_3.txt"], "larger than") || reasons["beta_I_4.txt"] == "" || r.Written != 9 {
		t.Fatalf("%+v", r)
	}
}

// The folder has one writer: a second evaluation is refused while the lock is held.
func TestEvaluateTakesFolderLock(t *testing.T) {
	dir := competitionFolder(t)
	l, err := folderlock.Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	_, err = Evaluate(context.Background(), dir, Options{Classifier: &letterClassifier{}, Trials: 1})
	if !errors.Is(err, folderlock.ErrHeld) {
		t.Fatalf("got %v, want the lock refused", err)
	}
}

// A competition folder given as a link is refused before anything is written, and the error
// names the link and the folder to give instead (not "a folder inside the competition folder").
func TestEvaluateRefusesALinkedCompetitionFolder(t *testing.T) {
	dir := competitionFolder(t)
	link := filepath.Join(t.TempDir(), "competition")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Evaluate(context.Background(), link, Options{Trials: 1})
	if err == nil || !strings.Contains(err.Error(), "symbolic link: give the real folder ("+real+")") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "alpha", StageIntermediate)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("wrote through the link: %v", err)
	}
}

package birds

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// similarityIDs lists the trial ids of a similarity file (nil when it is absent).
func similarityIDs(t *testing.T, path string) []string {
	t.Helper()
	f := readJSONFile[SimilarityFile](path)
	if f == nil {
		return nil
	}
	var ids []string
	for _, tr := range f.Trials {
		ids = append(ids, tr.ID)
	}
	return ids
}

// moveToLink moves dir/rel to outside and leaves a symbolic link to it in its place.
func moveToLink(t *testing.T, dir, rel, outside string) {
	t.Helper()
	target := filepath.Join(outside, strings.ReplaceAll(rel, "/", "_"))
	if err := os.Rename(filepath.Join(dir, rel), target); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, rel)); err != nil {
		t.Skip("no symlinks:", err)
	}
}

// trialRows returns the trial_scores.csv rows of a team and letter.
func trialRows(t *testing.T, dir, team, letter string) []string {
	t.Helper()
	csv, err := os.ReadFile(filepath.Join(dir, StageResult, "trial_scores.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(string(csv), "\n") {
		if strings.HasPrefix(line, `"`+team+`","`+letter+`",`) {
			rows = append(rows, strings.TrimSpace(line))
		}
	}
	return rows
}

// After a complete evaluation the folder changes; the second evaluation scores nothing from
// the first run's files: not without a classifier (similarity of changed or vanished images,
// result files), not through a stage folder that became a link (the team's outputs are
// derived from no inputs, and a linked result folder is never read).
func TestEvaluateScoresNothingFromOldFiles(t *testing.T) {
	withClassifier := Options{Classifier: &letterClassifier{}, Workers: 2, Trials: 1}
	noClassifier := Options{Classifier: Unavailable{}, Workers: 2, Trials: 1}
	for _, c := range []struct {
		name   string
		change func(t *testing.T, dir, outside string)
		opt    Options
		check  func(t *testing.T, dir string, rep *Report)
	}{
		{"no classifier: answers changed to no code and deleted", func(t *testing.T, dir, _ string) {
			writeAnswer(t, dir, "beta", "I", 1, "I cannot do that")
			if err := os.Remove(filepath.Join(dir, "alpha", StageRaw, "I", "alpha_I_2.txt")); err != nil {
				t.Fatal(err)
			}
		}, noClassifier, func(t *testing.T, dir string, rep *Report) {
			if ids := similarityIDs(t, filepath.Join(dir, "beta", StageSimilarity, "I.json")); strings.Join(ids, ",") != "beta_I_2.png" {
				t.Errorf("beta I similarity ids %v, want only beta_I_2.png", ids)
			}
			if ids := similarityIDs(t, filepath.Join(dir, "alpha", StageSimilarity, "I.json")); strings.Join(ids, ",") != "alpha_I_1.png,alpha_I_3.png" {
				t.Errorf("alpha I similarity ids %v", ids)
			}
			div := readJSONFile[DiversityFile](filepath.Join(dir, "alpha", StageDiversity, "I.json"))
			if div == nil || strings.Contains(string(must(os.ReadFile(filepath.Join(dir, "alpha", StageDiversity, "I.json")))), "alpha_I_2") {
				t.Errorf("alpha I diversity not derived again: %+v", div)
			}
			for _, f := range resultFiles {
				if exists(filepath.Join(dir, StageResult, f)) {
					t.Errorf("stale result/%s survived an evaluation that could not score", f)
				}
			}
		}},
		{"no classifier: answer changed to another level", func(t *testing.T, dir, _ string) {
			writeAnswer(t, dir, "alpha", "I", 1, "```\ndrop_block('b13', 3)\ndrop_block('b31', 5)\n```")
		}, noClassifier, func(t *testing.T, dir string, rep *Report) {
			if ids := similarityIDs(t, filepath.Join(dir, "alpha", StageSimilarity, "I.json")); strings.Join(ids, ",") != "alpha_I_2.png,alpha_I_3.png" {
				t.Errorf("alpha I similarity ids %v: the changed image keeps its old similarity", ids)
			}
			if ids := similarityIDs(t, filepath.Join(dir, "alpha", StageSimilarity, "L.json")); len(ids) != 3 {
				t.Errorf("unchanged alpha L similarity lost entries: %v", ids)
			}
		}},
		{"linked intermediate folder", func(t *testing.T, dir, outside string) {
			moveToLink(t, dir, "beta/intermediate", outside)
		}, withClassifier, func(t *testing.T, dir string, rep *Report) {
			for _, f := range []string{"levels/I/beta_I_1.xml", "images/I/beta_I_1.png", "stability/I.json", "similarity/I.json", "diversity/I.json"} {
				if exists(filepath.Join(dir, "beta", f)) {
					t.Errorf("beta/%s of the first run survived", f)
				}
			}
			for _, row := range trialRows(t, dir, "beta", "I") {
				if !strings.HasSuffix(row, `"0","0","0","0"`) {
					t.Errorf("beta scored from old files: %s", row)
				}
			}
		}},
		{"linked stability folder", func(t *testing.T, dir, outside string) {
			moveToLink(t, dir, "alpha/stability", outside)
		}, withClassifier, func(t *testing.T, dir string, rep *Report) {
			rows := trialRows(t, dir, "alpha", "I")
			for _, row := range rows {
				if fields := strings.Split(row, ","); len(fields) < 5 || fields[4] != `"0"` {
					t.Errorf("alpha's stability read through the link: %s", row)
				}
			}
			if len(rows) == 0 {
				t.Error("alpha is not scored")
			}
			warned := false
			for _, f := range rep.Stages[len(rep.Stages)-1].Failures {
				warned = warned || strings.Contains(f.Err, "not read")
			}
			if !warned {
				t.Errorf("the score stage does not say the linked folder was not read: %+v", rep.Stages[len(rep.Stages)-1])
			}
			if _, err := ReadTeams(dir, Edition2024); err == nil {
				t.Error("strict ReadTeams read a linked stability folder")
			}
		}},
		{"linked letter folder of answers", func(t *testing.T, dir, outside string) {
			moveToLink(t, dir, "alpha/raw/L", outside)
		}, withClassifier, func(t *testing.T, dir string, rep *Report) {
			named := false
			for _, f := range rep.Stages[0].Failures {
				named = named || f.File == filepath.Join("alpha", StageRaw, "L") && strings.Contains(f.Err, "not a real folder")
			}
			if !named {
				t.Errorf("the linked letter folder is not reported: %+v", rep.Stages[0])
			}
			if exists(filepath.Join(dir, "alpha", StageLevels, "L", "alpha_L_1.xml")) {
				t.Error("alpha L levels of the first run survived")
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, outside := competitionFolder(t), t.TempDir()
			if _, err := Evaluate(context.Background(), dir, withClassifier); err != nil {
				t.Fatal(err)
			}
			c.change(t, dir, outside)
			before := snapshotTree(t, outside)
			rep, err := Evaluate(context.Background(), dir, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, dir, rep)
			if after := snapshotTree(t, outside); after != before {
				t.Errorf("the folder outside changed:\n%s\n---\n%s", before, after)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// snapshotTree describes every file under dir: path, size, modification time.
func snapshotTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d %v\n", p, info.Mode(), info.Size(), info.ModTime())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

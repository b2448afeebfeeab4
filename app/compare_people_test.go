package app

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/canvas"

	"pcgwb/games/play"
	"pcgwb/games/playtest"
	"pcgwb/games/playtest/playtesttest"
)

// peopleSession writes a playtest session over the two test run folders (3 levels of each
// generator) into the experimenter's folder dir/a, and a second laptop's copy of its kiosk
// folder into dir/b. In a, P01 wins every ga level in 10, 20 and 30 s and rates them fun 4, and
// loses every llm level, rating them 2; in b, P02 wins everything, the ga levels in 40 s and
// the llm ones in 50 s, rating them all 5.
func peopleSession(t *testing.T, dir string) (a, b string) {
	t.Helper()
	runs := playtesttest.RunFolders(t, filepath.Join(dir, "runs"))
	a, b = filepath.Join(dir, "a"), filepath.Join(dir, "b")
	s, err := playtest.Create(a, playtest.Options{Seed: 3, Sources: []playtest.Source{
		{Dir: runs["ga"], N: 3, Pick: playtest.PickBest}, {Dir: runs["llm"], N: 3, Pick: playtest.PickBest}}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(a, playtest.KioskDir, playtest.SessionFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b, playtest.SessionFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	gaTime := 0.0
	for i, l := range s.Levels {
		ann := playtest.Record{Participant: "P01", Level: l.Name, Position: i + 1, Outcome: play.Outcome{Problem: l.Problem, Result: play.ResultLost, Seconds: 5},
			Answers: map[string]string{"fun": "2", "difficulty": "3"}}
		bob := playtest.Record{Participant: "P02", Level: l.Name, Position: i + 1, Outcome: play.Outcome{Problem: l.Problem, Result: play.ResultWon, Seconds: 50},
			Answers: map[string]string{"fun": "5", "difficulty": "3"}}
		if l.Generator == "ga" {
			gaTime += 10
			ann.Result, ann.Seconds, ann.Answers["fun"] = play.ResultWon, gaTime, "4"
			bob.Seconds = 40
		}
		if err := playtest.SaveRecord(filepath.Join(a, playtest.KioskDir), ann); err != nil {
			t.Fatal(err)
		}
		if err := playtest.SaveRecord(b, bob); err != nil {
			t.Fatal(err)
		}
	}
	return a, b
}

// The People section shows, per generator, completion, median time to win and the mean
// answers with their intervals and n (participants for the two-way cluster intervals, plays won
// for the median time), computed by hand from peopleSession's participants; with both laptops'
// folders the records merge. The report's plots are shown as images.
func TestComparePeople(t *testing.T) {
	wb := newTestWorkbench(t)
	a, b := peopleSession(t, t.TempDir())
	type cell struct{ value, n string } // the estimate's value (with its interval opening) and n
	for _, tc := range []struct {
		name    string
		folders []string
		plays   int
		want    map[string][]cell // generator → levels, completed, median time, fun
	}{
		{"one laptop", []string{a}, 6, map[string][]cell{
			"ga":  {{"3", ""}, {"1.00 n=1", "n=1"}, {"20.00 [", "n=3"}, {"4.00 n=1", "n=1"}},
			"llm": {{"3", ""}, {"0.00 n=1", "n=1"}, {"–", "n=0"}, {"2.00 n=1", "n=1"}},
		}},
		{"two laptops merged", []string{a, b}, 12, map[string][]cell{
			"ga":  {{"3", ""}, {"1.00 [1.00, 1.00]", "n=2"}, {"35.00 [", "n=6"}, {"4.50 [", "n=2"}},
			"llm": {{"3", ""}, {"0.50 [", "n=2"}, {"50.00 [50.00, 50.00]", "n=3"}, {"3.50 [", "n=2"}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := wb.compare.people
			ps.Clear()
			ps.addFolders(tc.folders...)
			await(t, ps.wait)
			if ps.report == nil || ps.report.Plays != tc.plays {
				t.Fatalf("report %+v (status %q), want %d plays", ps.report, ps.status.Text, tc.plays)
			}
			rows := peopleTable(ps.report)
			if got := len(ps.table.Objects); got != len(rows)*len(rows[0]) {
				t.Fatalf("%d table cells shown, want %d", got, len(rows)*len(rows[0]))
			}
			if ps.scroll.Size().Height < ps.table.MinSize().Height {
				t.Fatalf("the table's scroll is %v high, its rows %v: rows are cut", ps.scroll.Size().Height, ps.table.MinSize().Height)
			}
			if strings.Join(rows[0], "|") != "Generator|Levels|Completed|Median time to win (s)|fun|difficulty" {
				t.Fatalf("header %q", rows[0])
			}
			if len(rows) != 3 {
				t.Fatalf("%d generator rows, want 2", len(rows)-1)
			}
			for _, row := range rows[1:] {
				want, ok := tc.want[row[0]]
				if !ok {
					t.Fatalf("unexpected generator %q", row[0])
				}
				for i, w := range want {
					got := row[1+i]
					if !strings.HasPrefix(got, w.value) || !strings.HasSuffix(got, w.n) {
						t.Errorf("%s %s = %q, want %q … %q", row[0], rows[0][1+i], got, w.value, w.n)
					}
				}
			}
			// per level: every player played it once; ann won the ga levels only, bob all
			levels := peopleLevels(ps.report)
			if len(levels) != 7 || strings.Join(levels[0][:7], "|") != "Level|Generator|Quality|Solver moves|Plays|Won|Median time (s)" {
				t.Fatalf("per-level table %q", levels)
			}
			for _, row := range levels[1:] {
				plays, won, llmTime := len(tc.folders), len(tc.folders), "50.00"
				if row[1] == "llm" {
					won--
				}
				if won == 0 {
					llmTime = "–"
				}
				if row[4] != fmt.Sprint(plays) || row[5] != fmt.Sprint(won) || (row[1] == "llm" && row[6] != llmTime) {
					t.Errorf("level row %q: want %d plays, %d won, llm time %s", row, plays, won, llmTime)
				}
			}
			thumbs := 0
			for _, o := range ps.levels.Objects {
				if _, ok := o.(*canvas.Image); ok {
					thumbs++
				}
			}
			if thumbs != 6 || len(ps.levels.Objects) != 7*(len(levels[0])+1) {
				t.Errorf("%d thumbnails, %d cells in the per-level table", thumbs, len(ps.levels.Objects))
			}
			if !strings.Contains(ps.relations.Text, "playable completed") {
				t.Errorf("relations %q", ps.relations.Text)
			}
			if len(ps.plots) != len(peoplePlots) {
				t.Fatalf("%d plots shown, want %d", len(ps.plots), len(peoplePlots))
			}
			for _, f := range ps.plotFiles {
				fh, err := os.Open(f)
				if err != nil {
					t.Fatal(err)
				}
				img, err := png.Decode(fh)
				fh.Close()
				if err != nil || img.Bounds().Dx() < 100 {
					t.Fatalf("plot %s: %v", f, err)
				}
			}
			if filepath.Dir(ps.plotFiles[0]) != filepath.Join(a, playtest.ReportDir) {
				t.Errorf("report written to %s", filepath.Dir(ps.plotFiles[0]))
			}
		})
	}
	t.Run("not a session", func(t *testing.T) {
		ps := wb.compare.people
		ps.Clear()
		ps.addFolders(t.TempDir())
		await(t, ps.wait)
		if ps.report != nil || len(ps.plots) != 0 || !strings.Contains(ps.status.Text, "failed") {
			t.Fatalf("report %v, %d plots, status %q", ps.report, len(ps.plots), ps.status.Text)
		}
	})
}

package app

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"pcgwb/games/playtest"
	"pcgwb/games/playtest/playtesttest"
	"pcgwb/problems/experiment"
)

// "New playtest…" writes a session of the compared runs (N per run, best or random) and says
// where and how to play it; a folder holding a session already is refused.
func TestCompareNewPlaytest(t *testing.T) {
	wb := newTestWorkbench(t)
	cp := wb.compare
	if !cp.playtestButton.Disabled() {
		t.Fatal("New playtest is enabled with no run compared")
	}
	root := t.TempDir()
	runs := playtesttest.RunFolders(t, filepath.Join(root, "runs"))
	for _, gen := range []string{"ga", "llm"} { // the test runs hold only final.json: no config.json to read
		final, err := experiment.ReadFinal(runs[gen])
		if err != nil {
			t.Fatal(err)
		}
		cp.addRuns(newRunRecord(runs[gen], final.Config))
	}
	await(t, cp.wait)
	if len(cp.Runs()) != 2 || cp.playtestButton.Disabled() {
		t.Fatalf("%d runs, New playtest disabled %v (status %q)", len(cp.Runs()), cp.playtestButton.Disabled(), cp.status.Text)
	}
	out := filepath.Join(root, "my session")
	for _, tc := range []struct {
		name      string
		dir       string
		choice    playtestChoice
		levels    int
		questions int
		best      bool   // the levels are each run's best (indices 0 … N-1)
		fails     string // the status when the session cannot be written
	}{
		{"best two, hand-made question", out, playtestChoice{perSource: 2, pick: playtest.PickBest, handMade: true, seed: 1}, 4, 3, true, ""},
		{"random three", filepath.Join(root, "random"), playtestChoice{perSource: 3, pick: playtest.PickRandom, seed: 5}, 6, 2, false, ""},
		{"more than a run holds", filepath.Join(root, "all"), playtestChoice{perSource: 9, pick: playtest.PickBest, seed: 1}, 6, 2, true, ""},
		{"folder taken", out, playtestChoice{perSource: 1, pick: playtest.PickBest, seed: 1}, 0, 0, false, "already holds a playtest session"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got *playtest.Session
			var gotErr error
			called := false
			cp.createPlaytest(tc.dir, tc.choice, func(s *playtest.Session, err error) { got, gotErr, called = s, err, true })
			await(t, cp.wait)
			if !called {
				t.Fatal("done was not called")
			}
			if tc.fails != "" {
				if gotErr == nil || !strings.Contains(cp.status.Text, "New playtest failed") || !strings.Contains(cp.status.Text, tc.fails) {
					t.Fatalf("err %v, status %q", gotErr, cp.status.Text)
				}
				return
			}
			if gotErr != nil {
				t.Fatal(gotErr)
			}
			s, err := playtest.LoadKey(tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Levels) != tc.levels || len(got.Levels) != tc.levels || len(s.Questions) != tc.questions || s.Seed != tc.choice.seed {
				t.Fatalf("%d levels, %d questions, seed %d; want %d, %d, %d", len(s.Levels), len(s.Questions), s.Seed, tc.levels, tc.questions, tc.choice.seed)
			}
			byGen := map[string][]int{}
			for _, l := range s.Levels {
				byGen[l.Generator] = append(byGen[l.Generator], l.Index)
			}
			for gen, idx := range byGen {
				sort.Ints(idx)
				n := len(playtesttest.Runs[gen])
				if gen == "ga" {
					n-- // zelda-s000 has 17 players: left out, it cannot be played
				}
				if want := min(tc.choice.perSource, n); len(idx) != want {
					t.Fatalf("%s: %d levels, want %d", gen, len(idx), want)
				}
				for i, x := range idx {
					if tc.best && x != i {
						t.Fatalf("%s: indices %v are not the best", gen, idx)
					}
				}
			}
			for _, want := range []string{filepath.Join(tc.dir, playtest.KioskDir), playtest.KeyFile, playtestCommand(tc.dir), "from 2 runs"} {
				if !strings.Contains(cp.status.Text, want) {
					t.Fatalf("status %q does not say %q", cp.status.Text, want)
				}
			}
		})
	}
	cp.Clear()
	if !cp.playtestButton.Disabled() {
		t.Fatal("New playtest is enabled after Clear")
	}
}

func TestPlaytestCommandQuotes(t *testing.T) {
	for _, tc := range []struct{ dir, want string }{
		{"/tmp/ws-1", "workbench playtest play /tmp/ws-1"},
		{"/tmp/my session", "workbench playtest play '/tmp/my session'"},
		{"/tmp/it's", `workbench playtest play '/tmp/it'\''s'`},
		{"", "workbench playtest play ''"},
	} {
		if got := playtestCommand(tc.dir); got != tc.want {
			t.Errorf("PlaytestCommand(%q) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}

func TestParsePlaytestChoice(t *testing.T) {
	for _, tc := range []struct {
		n, pick, seed string
		want          playtestChoice
		err           string
	}{
		{"3", "best", "7", playtestChoice{perSource: 3, pick: playtest.PickBest, seed: 7}, ""},
		{" 10 ", "random", "0", playtestChoice{perSource: 10, pick: playtest.PickRandom}, ""},
		{"0", "best", "1", playtestChoice{}, "levels per run"},
		{"1001", "best", "1", playtestChoice{}, "levels per run"},
		{"x", "best", "1", playtestChoice{}, "levels per run"},
		{"3", "worst", "1", playtestChoice{}, "pick"},
		{"3", "best", "-1", playtestChoice{}, "seed"},
	} {
		got, err := parsePlaytestChoice(tc.n, tc.pick, tc.seed, false)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parsePlaytestChoice(%q, %q, %q) error %v, want %q", tc.n, tc.pick, tc.seed, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parsePlaytestChoice(%q, %q, %q) = %+v, %v; want %+v", tc.n, tc.pick, tc.seed, got, err, tc.want)
		}
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/games/play"
	"pcgwb/games/playtest"
	"pcgwb/games/playtest/playtesttest"
	"pcgwb/problems"
)

func TestPlaytestUsage(t *testing.T) {
	runs := playtesttest.RunFolders(t, t.TempDir())
	out := filepath.Join(t.TempDir(), "s")
	checkExits(t, []exitCase{
		{[]string{"playtest"}, 2, "commands:"},
		{[]string{"playtest", "new", "--out", out}, 2, "--from and --out are required"},
		{[]string{"playtest", "new", "--from", runs["ga"] + ":zero", "--out", out}, 2, "neither a count"},
		{[]string{"playtest", "new", "--from", runs["ga"], "--out", out, "--time-limit", "-1"}, 2, "negative"},
		{[]string{"playtest", "new", "--from", filepath.Join(t.TempDir(), "none"), "--out", out}, 1, "no such file"},
		{[]string{"playtest", "play", out, "--participant", "ana"}, 2, "participants are codes"},
		{[]string{"playtest", "new", "--from", runs["ga"], "--out", out, "--near-duplicate", "2"}, 2, "--near-duplicate"},
		{[]string{"playtest", "report"}, 2, "expected DIR..."},
		{[]string{"playtest", "merge", out}, 2, "expected DIR SRC..."},
	})
	var stdout, stderr bytes.Buffer
	if code := run([]string{"playtest", "new", "--from", runs["ga"] + ":2," + runs["llm"] + ":#2", "--out", out, "--seed", "9"}, &stdout, &stderr); code != 0 {
		t.Fatalf("playtest new: %d %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "3 levels from 2 sources, seed 9") || !strings.Contains(stdout.String(), playtest.KeyFile+" (keep it)") {
		t.Fatalf("playtest new said %q", stdout.String())
	}
	if code := run([]string{"playtest", "new", "--from", runs["ga"], "--out", out}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "already holds") {
		t.Fatalf("a second playtest new in the same folder: %d %s", code, stderr.String())
	}
}

// TestPlaytestWindow plays a two-level session in the real kiosk window (a child process)
// with synthetic key presses through the window's input layer: both levels won, both
// questionnaires answered, then the report.
func TestPlaytestWindow(t *testing.T) {
	haveDisplay(t)
	runs := playtesttest.RunFolders(t, t.TempDir())
	dir := filepath.Join(t.TempDir(), "session")
	s, err := playtest.Create(dir, playtest.Options{Sources: []playtest.Source{{Dir: runs["ga"], N: 1, Pick: playtest.PickBest}, {Dir: runs["llm"], N: 1, Pick: playtest.PickBest}}, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	var script []string
	for _, i := range s.Order(1) {
		l := s.Levels[i]
		p, err := problems.Make(l.Problem)
		if err != nil {
			t.Fatal(err)
		}
		g, err := play.New(l.Problem, p, l.Item.Content)
		if err != nil {
			t.Fatal(err)
		}
		// Enter plays; the solution; Enter opens the questions; right picks 4 for fun, Enter
		// keeps 3 for difficulty.
		script = append(script, "enter", play.FormatScript(g.Solution()), "enter", "right enter", "enter")
	}
	shot := filepath.Join(t.TempDir(), "playtest.png")
	out, _ := runWindowChild(t, "workbench playtest play", "playtest", "play", dir, "--window",
		"--script", strings.Join(script, " "), "--screenshot", shot, "--exit-after", "80s")
	if !strings.Contains(out, "P01: 2 levels recorded") || !strings.Contains(out, "0 left") {
		t.Fatalf("the kiosk did not record both levels:\n%s", out)
	}
	checkScreenshot(t, shot, "playtest-done.png", 300, 200, 2, out)
	_, recs, err := playtest.LoadAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Result != play.ResultWon || r.Answers["fun"] != "4" || r.Answers["difficulty"] != "3" || len(r.Trace) < r.Moves || r.Position == 0 {
			t.Errorf("record %s %s: %s, answers %v, position %d", r.Participant, r.Level, r.Text(), r.Answers, r.Position)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"playtest", "report", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("playtest report: %d %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "2 plays by 1 participants") || !strings.Contains(stdout.String(), "completion 1.00") {
		t.Fatalf("report:\n%s", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(dir, playtest.ReportDir, "completion.png")); err != nil {
		t.Fatal(err)
	}
}

func TestLevelsExport(t *testing.T) {
	runs := playtesttest.RunFolders(t, t.TempDir())
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"levels", "export", runs["ga"], "--out", out, "-n", "2", "--base", "ga"}, &stdout, &stderr); code != 0 {
		t.Fatalf("levels export: %d %s", code, stderr.String())
	}
	for _, f := range []string{"ga.txt", "ga.legend.json", "ga-tiles.png", "ga-1.tmx", "ga-2.tmx"} {
		if !strings.Contains(stdout.String(), filepath.Join(out, f)) {
			t.Errorf("%s not written:\n%s", f, stdout.String())
		}
	}
	stdout.Reset()
	if code := run([]string{"levels", "export", filepath.Join(out, "ga.txt"), "--problem", "zelda-v0", "--out", out, "--base", "again"}, &stdout, &stderr); code != 0 {
		t.Fatalf("levels export of the text: %d %s", code, stderr.String())
	}
	a, _ := os.ReadFile(filepath.Join(out, "ga.txt"))
	b, _ := os.ReadFile(filepath.Join(out, "again.txt"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("the text did not survive a round trip:\n%s\n%s", a, b)
	}
	checkExits(t, []exitCase{
		{[]string{"levels", "export", filepath.Join(out, "ga.txt"), "--out", out}, 2, "--problem"},
		{[]string{"levels", "export", filepath.Join(out, "ga-tiles.png"), "--problem", "zelda-v0", "--out", out}, 2, "not a valid item file"},
		{[]string{"levels", "export", runs["ga"]}, 2, "--out is required"},
		{[]string{"levels", "export", runs["ga"], "--out", out, "--base", "../x"}, 1, "not a plain file name"},
	})
}

// `play` says what is wrong with a level that cannot be played instead of opening it (no
// window is needed to find out).
func TestPlayRefusesAnUnplayableLevel(t *testing.T) {
	rows := make([][]int, 7)
	for y := range rows {
		rows[y] = []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	}
	rows[0][0], rows[6][10] = 2, 4 // a player and a door, no key
	data, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	level := filepath.Join(t.TempDir(), "nokey.json")
	if err := os.WriteFile(level, data, 0o644); err != nil {
		t.Fatal(err)
	}
	checkExits(t, []exitCase{
		{[]string{"play", "zelda-v0", level}, 2, "cannot be played: it has no key"},
		{[]string{"play", "zelda-v0", level, "--replay"}, 2, "no key"},
	})
}

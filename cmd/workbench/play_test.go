package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pcgwb/app"
	"pcgwb/games/play"
	"pcgwb/problems"
)

// goldenZeldaLevel writes a quality-1 golden zelda-v0 room to a level file and returns it with
// its solution script (the metric's route, played through the same keys as the keyboard).
func goldenZeldaLevel(t *testing.T) (path, script string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "problems", "zelda", "testdata", "zelda-v0.json"))
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Items []struct {
			ID      string  `json:"id"`
			Content any     `json:"content"`
			Quality float64 `json:"quality"`
		} `json:"items"`
	}
	if err := json.Unmarshal(data, &golden); err != nil {
		t.Fatal(err)
	}
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range golden.Items {
		if it.Quality != 1 {
			continue
		}
		c, err := p.ContentSpace().Normalize(it.Content, "content")
		if err != nil {
			t.Fatal(err)
		}
		g, err := play.New("zelda-v0", p, c)
		if err != nil {
			t.Fatal(err)
		}
		level, _ := json.Marshal(map[string]any{"id": it.ID, "content": it.Content})
		path = filepath.Join(t.TempDir(), it.ID+".json")
		if err := os.WriteFile(path, level, 0o644); err != nil {
			t.Fatal(err)
		}
		return path, play.FormatScript(g.Solution())
	}
	t.Fatal("no golden zelda-v0 room of quality 1")
	return "", ""
}

// TestPlaySmoke opens `workbench play` on a golden Zelda room in a real window (a child
// process: Ebiten wants a process of its own), plays the solution through the input layer,
// and checks that the game reports a win and that the screenshot read back from the GPU shows
// the room.
func TestPlaySmoke(t *testing.T) {
	haveDisplay(t)
	level, script := goldenZeldaLevel(t)
	shot := filepath.Join(t.TempDir(), "play.png")
	out, took := runWindowChild(t, "workbench play", "play", "zelda-v0", level, "--script", script, "--screenshot", shot, "--exit-after", "60s")
	if !strings.Contains(out, "result: win") {
		t.Fatalf("the scripted solution did not report a win:\n%s", out)
	}
	t.Logf("played %q and captured in %v", script, took.Round(time.Millisecond))
	checkScreenshot(t, shot, "play-zelda.png", 400, 300, 8, out)
}

func TestPlayLevelFormats(t *testing.T) {
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	room := `[[2,1,1,1,1,1,1,1,1,1,3],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[4,1,1,1,1,1,1,1,1,5,5]]`
	for _, tc := range []struct {
		name, data string
		index      int
		want       string // error substring, "" for success
	}{
		{"bare content", room, 0, ""},
		{"content and control", `{"content":` + room + `,"control":{"player_key":12,"key_door":12}}`, 0, ""},
		{"item file", `{"items":[{"content":` + room + `},{"id":"b","content":` + room + `}]}`, 1, ""},
		{"item file index out of range", `{"items":[{"content":` + room + `}]}`, 3, "out of range"},
		{"not JSON", `[[2,1`, 0, "not valid JSON"},
		{"wrong size", `[[2,3,4]]`, 0, "content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			item, err := decodeLevel(p, []byte(tc.data), tc.index)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := play.New("zelda-v0", p, item.Content); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestPlayUsage(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`[[2,1`), 0o644); err != nil {
		t.Fatal(err)
	}
	level := filepath.Join(t.TempDir(), "l.json")
	if err := os.WriteFile(level, []byte(`[[2,1,1,1,1,1,1,1,1,1,3],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[4,1,1,1,1,1,1,1,1,5,5]]`), 0o644); err != nil {
		t.Fatal(err)
	}
	checkExits(t, []exitCase{
		{[]string{"play", "zelda-v0"}, 2, "expected PROBLEM LEVEL.json"},
		{[]string{"play", "zeldaa-v0", level}, 2, "did you mean"},
		{[]string{"play", "zelda-v0", level, "--script", "jump"}, 2, "unknown key"},
		{[]string{"play", "zelda-v0", filepath.Join(t.TempDir(), "missing.json")}, 1, "no such file"},
		{[]string{"play", "zelda-v0", bad}, 2, "not valid JSON"},
		{[]string{"play", "zelda-v0", level, "--handoff"}, 2, "not a level hand-off"},
		{[]string{"play", "zelda-v0", level, "--trace", bad}, 2, "not a play outcome"},
		{[]string{"play", "zelda-v0", level, "--bogus"}, 2, "flag provided but not defined"},
		{[]string{"play", "elimination-v0", level}, 2, ""},
	})
}

// TestPlayOutcomeRoundTrip is the hand-off both ways through a real child and window: the
// parent sends the level in play.EncodeLevel's encoding, the child plays the solution script
// and reports its play.Outcome as JSON, which comes back to the parent; the trace it recorded
// replays to the same win.
func TestPlayOutcomeRoundTrip(t *testing.T) {
	haveDisplay(t) // two real play windows
	t.Setenv(childEnv, "1")
	level, script := goldenZeldaLevel(t)
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(level)
	if err != nil {
		t.Fatal(err)
	}
	item, err := decodeLevel(p, data, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Two real windows in turn, each closed by its own ticks, not by a wall clock: the
	// screenshot is taken a few ticks after the script (or the recorded trace) has been played,
	// then the window closes. A window that never gets there hangs until go test's -timeout.
	ctx := context.Background()
	o, err := app.LaunchPlay(ctx, "zelda-v0", item, false, "--script", script, "--screenshot", filepath.Join(t.TempDir(), "script.png"))
	if err != nil {
		t.Fatal(err)
	}
	keys, _ := play.ParseScript(script)
	if o == nil || o.Result != play.ResultWon || o.Moves != len(keys) || o.Problem != "zelda-v0" || o.Level != item.ID || len(o.Trace) != len(keys) {
		t.Fatalf("outcome %+v, want a win in %d moves of level %s", o, len(keys), item.ID)
	}
	g, err := play.New("zelda-v0", p, item.Content)
	if err != nil {
		t.Fatal(err)
	}
	s := play.NewSession("zelda-v0", g, false)
	s.SetTrace(o.Trace)
	for i := 0; i <= o.Ticks && s.Status() == play.Running; i++ {
		s.Tick()
	}
	if s.Status() != play.Won {
		t.Fatalf("the recorded trace replays to %v", s.Status())
	}
	// Watching the recorded play in the window (the GUI's way) wins the same way.
	shot := filepath.Join(t.TempDir(), "trace.png")
	w, err := app.WatchRecorded(ctx, "zelda-v0", item, o, "--screenshot", shot)
	if err != nil {
		t.Fatal(err)
	}
	if w == nil || w.Result != play.ResultWon || w.Moves != o.Moves {
		t.Fatalf("watching the recorded play: %+v, want a win in %d moves", w, o.Moves)
	}
}

// exitCase is a command line, the exit code it must give and a substring of its stderr.
type exitCase struct {
	args []string
	code int
	want string
}

// checkExits runs each command line in process and reports those that do not exit with their
// code or whose stderr misses their substring.
func checkExits(t *testing.T, cases []exitCase) {
	t.Helper()
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}

// The GUI's launcher runs this executable as `play` in a child and shows the child's error:
// here a room without a player, which fails before any window opens (no display needed).
func TestLaunchPlayReportsTheChildsError(t *testing.T) {
	t.Setenv(childEnv, "1") // the child is this test binary acting as the workbench
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	var rows []any
	for y := 0; y < 7; y++ {
		row := make([]any, 11)
		for x := range row {
			row[x] = 1
		}
		rows = append(rows, row)
	}
	c, err := p.ContentSpace().Normalize(rows, "content")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	o, err := app.LaunchPlay(ctx, "zelda-v0", problems.Item{ID: "empty", Content: c}, false)
	if err == nil || !strings.Contains(err.Error(), "no player") || o != nil {
		t.Fatalf("LaunchPlay error %v, outcome %v, want the child's \"no player\"", err, o)
	}
	if !app.CanPlay("zelda-v0") {
		t.Fatal("zelda-v0 is not playable")
	}
}

// `play` reads a run's own final.json as eval and render do: the individual --index names.
func TestPlayReadsARunsFinalPopulation(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errs := runCLI(t, "run", "--problem", "zelda-v0", "--generator", "random", "--generations", "1", "--pop", "3", "--out", dir, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	final := filepath.Join(dir, "final.json")
	want, err := finalItems("zelda-v0", final)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		got, err := readPlayLevel("zelda-v0", p, final, i, false)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(got.Content)
		b, _ := json.Marshal(want[i].Content)
		if !bytes.Equal(a, b) {
			t.Fatalf("individual %d: %s, want %s", i, a, b)
		}
	}
	if _, err := readPlayLevel("zelda-v0", p, final, len(want), false); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("--index past the population: %v", err)
	}
	if _, err := readPlayLevel("sokoban-v0", p, final, 0, false); err == nil || !strings.Contains(err.Error(), "is a run of zelda-v0") {
		t.Errorf("another problem's run: %v", err)
	}
}

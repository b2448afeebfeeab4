package play

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pcgwb/problems"
	_ "pcgwb/problems/all"
	"pcgwb/problems/data"
	"pcgwb/problems/problemtest"
)

var update = flag.Bool("update", false, "rewrite the playthrough transcripts in testdata/playthroughs")

// level loads one golden item of a problem's default variant and makes its game.
func level(t *testing.T, problem, id string) (problems.Problem, problems.Content, Game) {
	t.Helper()
	base := strings.TrimSuffix(problem, "-v0")
	g := problemtest.LoadGolden(t, filepath.Join("..", "..", "problems", base, "testdata", problem+".json"))
	p, err := problems.Make(problem)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range g.Items {
		if it.ID != id {
			continue
		}
		c, err := p.ContentSpace().Normalize(it.Content, "content")
		if err != nil {
			t.Fatal(err)
		}
		game, err := New(problem, p, c)
		if err != nil {
			t.Fatal(err)
		}
		return p, c, game
	}
	t.Fatalf("%s: no golden item %s", problem, id)
	return nil, nil, nil
}

// needData skips (or fails on CI) without the reference data a problem loads at run time.
func needData(t *testing.T, problem string) {
	t.Helper()
	switch {
	case strings.HasPrefix(problem, "loderunner-"):
		problemtest.RefDataFiles(t, data.LodeRunnerPatterns, data.LodeRunnerLevels)
	case strings.HasPrefix(problem, "loderunnertile"):
		problemtest.RefDataFiles(t, data.LodeRunnerLevels)
	case strings.HasPrefix(problem, "elimination"):
		problemtest.RefDataFiles(t, data.EliminationWords)
	case strings.HasPrefix(problem, "smb-"):
		problemtest.RefDataFiles(t, data.SMBSlices)
	}
}

// play runs a script through a session, as the window's --script does, to its end.
func play(t *testing.T, g Game, keys []Key) *Session {
	t.Helper()
	s := NewSession("test", g, false)
	s.SetScript(keys)
	for !s.FeedDone() {
		s.Tick()
	}
	s.Tick()
	return s
}

func parse(t *testing.T, script string) []Key {
	t.Helper()
	keys, err := ParseScript(script)
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// checkTranscript compares a playthrough with its golden file (rewritten with -update).
func checkTranscript(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "playthroughs", name+".txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./games/play -update to write it)", err)
	}
	if got != string(want) {
		t.Fatalf("playthrough %s differs from %s (run with -update after checking the change):\n%s", name, path, firstDiff(got, string(want)))
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got: " + gl + "\nwant: " + wl
		}
	}
	return ""
}

// Each game is won by a script (its recorded solution unless win is set) and lost (or, where
// nothing loses, left unwon) by a short script; the playthroughs are kept as transcripts.
var games = []struct {
	problem, id string
	// win replaces the recorded solution as the winning script.
	win string
	// lose is a script that loses; stay a script that neither wins nor loses (games without a
	// losing state).
	lose, stay string
	// winTranscript: also keep the winning playthrough (kept off for big boards).
	winTranscript bool
	// unwinnable: the level's recorded solution cannot win (Lode Runner's tour when gold lies
	// beyond the player's reach); it must still not lose.
	unwinnable bool
	// replayWin: the recorded solution is not a key script (Mario's frames hold several
	// buttons at once), so the win is checked by a replay.
	replayWin bool
}{
	{problem: "sokoban-v0", id: "sokoban-s024", lose: "LD", winTranscript: true},
	{problem: "ddave-v0", id: "ddave-s024", lose: "L", winTranscript: true},
	{problem: "mdungeons-v0", id: "mdungeons-s021", lose: "UDDDL", winTranscript: true},
	{problem: "zelda-v0", id: "zelda-s020", lose: "UULLLD", winTranscript: true},
	{problem: "binary-v0", id: "binary-s019", stay: "LLRR", winTranscript: true},
	{problem: "isaac-v0", id: "isaac-s021", stay: "LRUD", winTranscript: true},
	{problem: "loderunnertile-v0", id: "loderunnertile-s020", lose: "LLLLLLLLLLLUUURRRR"},
	{problem: "loderunner-v0", id: "loderunner-s021", lose: "LLLLLLDLLLLLRLLLLLR", unwinnable: true},
	{problem: "elimination-v0", id: "elimination-s017", stay: "text:zzz enter text:ab backspace", winTranscript: true},
	// Talakat's recorded "solution" is the benchmark's still ship, which survives this pattern.
	{problem: "talakat-v0", id: "talakat-s020", lose: strings.Repeat("U", 40), winTranscript: true},
	// The agent's moves win this rule set again when played on a fresh engine.
	{problem: "arcade-v0", id: "arcade-s004", stay: "wait", winTranscript: true},
	{problem: "arcade-v0", id: "arcade-s020", win: "wait wait wait", lose: "L", unwinnable: true},
	{problem: "smb-v0", id: "smb-s020", lose: strings.Repeat("R", 130), replayWin: true},
	{problem: "smbtile-v0", id: "smbtile-s020", stay: "RRRRR", replayWin: true},
}

func TestScriptedWinAndLose(t *testing.T) {
	for _, tc := range games {
		t.Run(tc.id, func(t *testing.T) {
			needData(t, tc.problem)
			_, _, g := level(t, tc.problem, tc.id)
			sol := g.Solution()
			if len(sol) == 0 {
				t.Fatal("no recorded solution")
			}
			if tc.win != "" {
				sol = parse(t, tc.win)
			}
			want := Won
			if tc.unwinnable {
				want = Running
			}
			if tc.replayWin {
				s := NewSession(tc.problem, g, true)
				for !s.FeedDone() {
					s.Tick()
				}
				if s.Status() != want {
					t.Fatalf("the replay ends %s, want %s:\n%s", s.Status(), want, g.Text())
				}
			} else if s := play(t, g, sol); s.Status() != want {
				t.Fatalf("the solution %s ends %s, want %s:\n%s", FormatScript(sol), s.Status(), want, g.Text())
			}
			if tc.winTranscript {
				_, _, g := level(t, tc.problem, tc.id)
				checkTranscript(t, tc.id+"-win", Playthrough(tc.problem, g, sol))
			}
			script, want := tc.lose, Lost
			if script == "" {
				script, want = tc.stay, Running
			}
			_, _, g = level(t, tc.problem, tc.id)
			if s := play(t, g, parse(t, script)); s.Status() != want {
				t.Fatalf("script %q ends %s, want %s:\n%s", script, s.Status(), want, g.Text())
			}
			_, _, g = level(t, tc.problem, tc.id)
			suffix := "-lose"
			if want == Running {
				suffix = "-unsolved"
			}
			checkTranscript(t, tc.id+suffix, Playthrough(tc.problem, g, parse(t, script)))
		})
	}
}

// A replay plays the recorded solution by itself and ends won; restart starts it over.
func TestReplayWins(t *testing.T) {
	for _, tc := range games {
		t.Run(tc.id, func(t *testing.T) {
			needData(t, tc.problem)
			_, _, g := level(t, tc.problem, tc.id)
			s := NewSession(tc.problem, g, true)
			for i := 0; i < 100000 && !s.FeedDone(); i++ {
				s.Tick()
			}
			want := Won
			if tc.unwinnable {
				want = Running
			}
			if tc.problem == "arcade-v0" {
				want = Won // the replay shows the agent's own game, which wins both rule sets
			}
			if s.Status() != want {
				t.Fatalf("replay ends %s, want %s", s.Status(), want)
			}
			s.Press(KeyRestart)
			if fed, total := s.Fed(); fed != 0 || total == 0 || s.Status() != Running {
				t.Fatalf("after restart: fed %d/%d, %s", fed, total, s.Status())
			}
		})
	}
}

func TestReplayControls(t *testing.T) {
	_, _, g := level(t, "sokoban-v0", "sokoban-s024")
	s := NewSession("sokoban-v0", g, true)
	start := g.Text()
	s.Press(KeyPause)
	for i := 0; i < 200; i++ {
		s.Tick()
	}
	if fed, _ := s.Fed(); fed != 0 || g.Text() != start {
		t.Fatalf("paused replay fed %d keys", fed)
	}
	s.Press(KeyStep)
	s.Press(KeyStep)
	if fed, _ := s.Fed(); fed != 2 {
		t.Fatalf("two steps fed %d keys", fed)
	}
	s.Press(KeyPause)
	slow := s.interval()
	s.Press(KeyFaster)
	if s.interval() >= slow {
		t.Fatalf("faster: interval %d, was %d", s.interval(), slow)
	}
	for i := 0; i < 10; i++ {
		s.Press(KeySlower)
	}
	if s.interval() != TPS {
		t.Fatalf("slowest: interval %d, want one step a second", s.interval())
	}
}

func TestSokobanUndo(t *testing.T) {
	_, _, g := level(t, "sokoban-v0", "sokoban-s024")
	start := g.Text()
	s := play(t, g, parse(t, "LD"))
	if s.Status() != Lost {
		t.Fatalf("%s", s.Status())
	}
	s.Press(KeyUndo)
	s.Press(KeyUndo)
	if g.Text() != start || s.Status() != Running {
		t.Fatalf("two undos did not restore the start:\n%s", g.Text())
	}
	if g.(Undoer).Undo() {
		t.Fatal("undo past the start")
	}
}

// flatDave is an open ddave-v0 level: the player on the floor at the left, the key in the
// middle, the door at the right.
func flatDave(t *testing.T) Game {
	t.Helper()
	p, err := problems.Make("ddave-v0")
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]any, 7)
	for y := range rows {
		row := make([]any, 11)
		for x := range row {
			row[x] = 1
		}
		rows[y] = row
	}
	floor := rows[6].([]any)
	floor[0], floor[5], floor[10] = 2, 5, 3
	g, err := New("ddave-v0", p, rows)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Live, Dangerous Dave's time steps on its own: a jump comes back down without a key. Under a
// script only keys step.
func TestStepperStepsOnItsOwnOnlyLive(t *testing.T) {
	g := flatDave(t)
	s := NewSession("ddave-v0", g, false)
	start := g.Text()
	s.Press(KeyUp)
	jumped := g.Text()
	if jumped == start {
		t.Fatal("the jump did not move the player")
	}
	for i := 0; i < 10*ddaveCadence; i++ {
		s.Tick()
	}
	if g.Text() != start {
		t.Fatalf("live, the player did not land:\n%s", g.Text())
	}
	g = flatDave(t)
	s = play(t, g, []Key{KeyUp})
	jumped = g.Text()
	for i := 0; i < 10*ddaveCadence; i++ {
		s.Tick()
	}
	if g.Text() != jumped {
		t.Fatalf("under a script the game stepped on its own:\n%s", g.Text())
	}
	if s := play(t, flatDave(t), parse(t, "RRRRR RRRRR")); s.Status() != Won {
		t.Fatalf("walking to the key and the door ends %s", s.Status())
	}
}

func TestBuildingReplayAndInspection(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want Status
	}{{"building-s000", Won}, {"building-s001", Lost}} {
		_, _, g := level(t, "building-v0", tc.id)
		if g.Status() != tc.want {
			t.Fatalf("%s: finished building is %s, want %s", tc.id, g.Status(), tc.want)
		}
		s := NewSession("building-v0", g, true)
		if g.Status() != Running && tc.want == Won {
			t.Fatalf("%s: the replay does not start from the empty lot", tc.id)
		}
		for !s.FeedDone() {
			s.Tick()
		}
		if g.Status() != tc.want {
			t.Fatalf("%s: replayed building is %s, want %s", tc.id, g.Status(), tc.want)
		}
	}
	_, _, g := level(t, "building-v0", "building-s000")
	checkTranscript(t, "building-s000-inspect", Playthrough("building-v0", g, parse(t, "right right up down down down backspace backspace space enter left")))
}

func TestFrames(t *testing.T) {
	for _, tc := range games {
		t.Run(tc.id, func(t *testing.T) {
			needData(t, tc.problem)
			_, _, g := level(t, tc.problem, tc.id)
			for _, replay := range []bool{false, true} {
				s := NewSession(tc.problem, g, replay)
				f := s.Frame()
				b := g.Board().Bounds()
				if w, h := FrameSize(b.Dx(), b.Dy()); f.Rect.Dx() != w || f.Rect.Dy() != h {
					t.Fatalf("frame %v, want %d×%d", f.Rect, w, h)
				}
				colors := map[[4]uint8]bool{}
				for i := 0; i < len(f.Pix); i += 4 {
					colors[[4]uint8(f.Pix[i:i+4])] = true
				}
				if len(colors) < 5 {
					t.Fatalf("frame has %d colours", len(colors))
				}
			}
		})
	}
}

func TestScriptSyntax(t *testing.T) {
	keys := parse(t, "RRdl, up wait space text:Cat enter undo restart esc . a + -")
	want := []Key{KeyRight, KeyRight, KeyDown, KeyLeft, KeyUp, KeyWait, KeyAction, Letter('c'), Letter('a'), Letter('t'),
		KeyEnter, KeyUndo, KeyRestart, KeyQuit, KeyWait, KeyAction, KeyFaster, KeySlower}
	if FormatScript(keys) != FormatScript(want) || len(keys) != len(want) {
		t.Fatalf("parsed %s, want %s", FormatScript(keys), FormatScript(want))
	}
	for i := range want {
		if keys[i] != want[i] {
			t.Fatalf("key %d: %v, want %v", i, keys[i], want[i])
		}
	}
	if again := parse(t, FormatScript(keys)); FormatScript(again) != FormatScript(keys) {
		t.Fatalf("round trip: %s", FormatScript(again))
	}
	for _, bad := range []string{"jump", "text:a1", "lrx"} {
		if _, err := ParseScript(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestUnplayable(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    problems.Problem
	}{
		{"nosuch-v0", nil},
		{"sokoban-v0", nil}, // a registered family given a problem of another type
	} {
		if _, err := New(tc.name, tc.p, nil); !errors.Is(err, ErrNoPlayView) {
			t.Errorf("%s: error %v, want ErrNoPlayView", tc.name, err)
		}
	}
	if Playable("nosuch-v0") || !Playable("sokoban-large-v0") {
		t.Fatal("Playable does not follow the registry")
	}
}

// TestEveryGameRegisters checks the open registry holds one play view for each family of the
// registered problems (problems.Families) and no other, and that each accepts its problems'
// type.
func TestEveryGameRegisters(t *testing.T) {
	want := problems.Families()
	if got := Families(); len(want) < 14 || !slices.Equal(got, want) {
		t.Fatalf("families %v, want %v", got, want)
	}
	for _, name := range problems.List() {
		if !Playable(name) {
			continue
		}
		p, err := problems.Make(name)
		if err != nil {
			continue // needs data this machine has not got
		}
		c := p.ContentSpace().Sample(problems.NewRand(1))
		if _, err := New(name, p, c); errors.Is(err, ErrNoPlayView) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

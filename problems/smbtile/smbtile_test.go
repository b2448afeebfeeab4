package smbtile

import (
	"errors"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/data"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/smb"
	"pcgwb/problems/smb/engine"
)

const goldenFile = "testdata/smbtile-v0.json"

func mustMake(t testing.TB, name string) *smb.Problem {
	t.Helper()
	p, err := problems.Make(name)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*smb.Problem)
}

func golden(t testing.TB, p problems.Problem, id string) problems.Content {
	t.Helper()
	g := problemtest.LoadGolden(t, goldenFile)
	for i, it := range g.Items {
		if it.ID == id {
			return g.Contents(t, p)[i]
		}
	}
	t.Fatalf("no golden item %s", id)
	return nil
}

// Every golden item runs; five of them are played by the A* agent.
func TestGolden(t *testing.T) {
	problemtest.CheckGolden(t, mustMake(t, "smbtile-v0"), problemtest.LoadGolden(t, goldenFile))
}

// The reference raises ZeroDivisionError on a map without enemies; the port returns an error.
func TestGoldenErrorCases(t *testing.T) {
	p := mustMake(t, "smbtile-v0")
	g := problemtest.LoadGolden(t, goldenFile)
	if len(g.ErrorCases) == 0 {
		t.Fatal("the golden file has no error case")
	}
	for i, ec := range g.ErrorCases {
		c, err := p.ContentSpace().Normalize(ec["content"], "content")
		if err != nil {
			t.Fatal(err)
		}
		if ec["error"] != "ZeroDivisionError" {
			t.Fatalf("error case %d: %v", i, ec["error"])
		}
		if _, err := p.Info(c); !errors.Is(err, smb.ErrNoEnemies) {
			t.Errorf("error case %d: Info = %v, want smb.ErrNoEnemies", i, err)
		}
	}
}

func TestConformance(t *testing.T) {
	for _, name := range []string{"smbtile-v0", "smbtile-medium-v0", "smbtile-small-v0", "smbtile-scene-v0"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			problemtest.Conformance(t, name, problemtest.Options{})
		})
	}
}

// The tile version needs no data files.
func TestNeedsNoData(t *testing.T) {
	t.Setenv(data.EnvVar, t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if err := problems.Unavailable("smbtile-v0"); err != nil {
		t.Fatal(err)
	}
	mustMake(t, "smbtile-scene-v0")
}

func TestRowsPadTheMap(t *testing.T) {
	g := make([][]int, smb.Rows)
	for y := range g {
		g[y] = []int{0, 9}
	}
	rows := Rows(g)
	for y, want := range map[int]string{0: "----y---", 13: "-M--y-F-", 14: "XXX-yXXX", 15: "XXX-yXXX"} {
		if rows[y] != want {
			t.Errorf("row %d = %q, want %q", y, rows[y], want)
		}
	}
}

// The scripted agent's info shows its last action on every step (the reference's aliasing),
// while the engine keeps the real actions, so its trace replays.
func TestScriptedActionsAreAliasedInTheInfoOnly(t *testing.T) {
	p := mustMake(t, "smbtile-v0")
	c := golden(t, p, "smbtile-s022")
	info, err := p.Info(c)
	if err != nil {
		t.Fatal(err)
	}
	in := info.(*smb.Info)
	if in.Agent != smb.AgentScripted || in.Complete != 1 {
		t.Fatalf("agent %q, complete %v: the scripted agent should finish smbtile-s022", in.Agent, in.Complete)
	}
	for _, a := range in.Actions {
		if a != in.Actions[len(in.Actions)-1] {
			t.Fatalf("info actions vary: %v", in.Actions)
		}
	}
	l, err := p.Level(c)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.Run(l, p.Timer(), engine.Scripted{})
	actions := make([]engine.Actions, len(r.Steps))
	distinct := map[engine.Actions]bool{}
	for i, s := range r.Steps {
		actions[i] = s.Actions
		distinct[s.Actions] = true
		if s.X != in.Locations[i][0] || s.Y != in.Locations[i][1] {
			t.Fatalf("step %d at (%v, %v), info says %v", i, s.X, s.Y, in.Locations[i])
		}
	}
	if len(distinct) < 2 {
		t.Errorf("the real scripted actions never change: %v", distinct)
	}
	replay := engine.Replay(l, p.Timer(), actions).Result()
	if replay.Status != engine.Win || len(replay.Steps) != len(r.Steps) || replay.Jumps != in.Jumps {
		t.Errorf("replay: %v after %d steps with %d jumps", replay.Status, len(replay.Steps), replay.Jumps)
	}
}

// An A* trace replays to the golden locations.
func TestAStarTraceReplays(t *testing.T) {
	p := mustMake(t, "smbtile-v0")
	c := golden(t, p, "smbtile-s020")
	info, err := p.Info(c)
	if err != nil {
		t.Fatal(err)
	}
	in := info.(*smb.Info)
	if in.Agent != smb.AgentAStar {
		t.Fatalf("agent %q, want the A* agent", in.Agent)
	}
	l, err := p.Level(c)
	if err != nil {
		t.Fatal(err)
	}
	actions := make([]engine.Actions, len(in.Actions))
	for i, a := range in.Actions {
		actions[i] = engine.Actions(a)
	}
	g := engine.Replay(l, p.Timer(), actions)
	for i, s := range g.Steps() {
		if s.X != in.Locations[i][0] || s.Y != in.Locations[i][1] {
			t.Fatalf("step %d replays to (%v, %v), want %v", i, s.X, s.Y, in.Locations[i])
		}
	}
	if g.World().Status() != engine.Win {
		t.Errorf("replay ends with %v", g.World().Status())
	}
}

func TestRenderSize(t *testing.T) {
	p := mustMake(t, "smbtile-v0")
	img, err := p.Render(golden(t, p, "smbtile-s020"))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 2496 || b.Dy() != 256 {
		t.Errorf("render is %v, want 2496×256", b)
	}
}

func BenchmarkInfo(b *testing.B) {
	p := mustMake(b, "smbtile-v0")
	g := problemtest.LoadGolden(b, goldenFile)
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}

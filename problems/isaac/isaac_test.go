package isaac

import (
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
)

func TestGolden(t *testing.T) {
	p, err := problems.Make("isaac-v0")
	if err != nil {
		t.Fatal(err)
	}
	problemtest.CheckGolden(t, p, problemtest.LoadGolden(t, "testdata/isaac-v0.json"))
}

func TestConformance(t *testing.T) {
	for _, name := range []string{"isaac-v0", "isaac-medium-v0", "isaac-large-v0"} {
		t.Run(name, func(t *testing.T) { problemtest.Conformance(t, name, problemtest.Options{}) })
	}
}

func content(layout []int, start, boss, shop, treasure int) problems.Content {
	l := make([]any, len(layout))
	for i, v := range layout {
		l[i] = v
	}
	return map[string]any{"layout": l, "start": start, "boss": boss, "shop": shop, "treasure": treasure}
}

// A closed 3×2 block of six rooms in the top-left of the 4×4 floor: every door matches its
// neighbour's, nothing leads off the map.
var sixRooms = []int{
	DoorRight | DoorDown, DoorLeft | DoorRight | DoorDown, DoorLeft | DoorDown, 0,
	DoorUp | DoorRight, DoorLeft | DoorUp | DoorRight, DoorLeft | DoorUp, 0,
	0, 0, 0, 0,
	0, 0, 0, 0,
}

func TestInfoOfAClosedFloor(t *testing.T) {
	p, _ := problems.Make("isaac-v0")
	info, err := p.Info(content(sixRooms, 0, 6, 2, 5))
	if err != nil {
		t.Fatal(err)
	}
	in := info.(*Info)
	if in.MapSize != 6 || in.NumRegions != 1 || in.ConnectRegions != 1 || in.LooseConnections != 0 || in.Locations != 4 {
		t.Errorf("info %+v", in)
	}
	// start 0 and boss 6 are marked at maze cells (0,0) and (2,1), both walls in the maze:
	// the start mark is boxed in by walls, so the walk does not exist.
	if in.PlayerBossDistance != -1 {
		t.Errorf("player_boss_distance %d, want -1", in.PlayerBossDistance)
	}
	// boss 6 has two doors, treasure 5 three, shop 2 two: no dead ends.
	if in.DeadEnd != 0 {
		t.Errorf("dead_end %d", in.DeadEnd)
	}
}

// A door on one side only, and a door off the map, are loose.
func TestLooseConnections(t *testing.T) {
	p, _ := problems.Make("isaac-v0")
	layout := make([]int, 16)
	layout[0] = DoorLeft | DoorRight // off the map on the left; unanswered on the right
	layout[1] = DoorDown             // unanswered below
	info, err := p.Info(content(layout, 0, 1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if got := info.(*Info).LooseConnections; got != 3 {
		t.Errorf("loose connections %d, want 3", got)
	}
}

// start == boss: the boss mark overwrites the start mark, so no walk is measured.
func TestStartOnBoss(t *testing.T) {
	p, _ := problems.Make("isaac-v0")
	info, _ := p.Info(content(sixRooms, 1, 1, 2, 5))
	if d := info.(*Info).PlayerBossDistance; d != -1 {
		t.Errorf("player_boss_distance %d, want -1", d)
	}
	if l := info.(*Info).Locations; l != 3 {
		t.Errorf("locations %d, want 3", l)
	}
}

func TestRenderSize(t *testing.T) {
	p, _ := problems.Make("isaac-v0")
	img, err := p.Render(content(sixRooms, 0, 6, 2, 5))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 64 {
		t.Errorf("render %v, want 64×64", b)
	}
}

func BenchmarkInfo(b *testing.B) {
	p, err := problems.Make("isaac-v0")
	if err != nil {
		b.Fatal(err)
	}
	g := problemtest.LoadGolden(b, "testdata/isaac-v0.json")
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}

package engine

import (
	"strings"
	"testing"
)

// flat builds a level text of the given rows (top to bottom) in the reference's format, with
// the trailing newline.
func flat(rows ...string) string { return strings.Join(rows, "\n") + "\n" }

// ground is a 16-row level of sky over two rows of ground, with Mario at column 1 and the
// flag at column w-2, and extra characters placed by (x, y).
func ground(w int, extra map[[2]int]byte) string {
	rows := make([]string, 16)
	for y := range rows {
		b := []byte(strings.Repeat("-", w))
		if y >= 14 {
			b = []byte(strings.Repeat("X", w))
		}
		if y == 13 {
			b[1], b[w-2] = 'M', 'F'
		}
		for p, c := range extra {
			if p[1] == y {
				b[p[0]] = c
			}
		}
		rows[y] = string(b)
	}
	return flat(rows...)
}

func mustParse(t *testing.T, text string) *Level {
	t.Helper()
	l, err := ParseLevel(text)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestParseLevelKeepsTheEmptyLastRowAndDecodesPipesAndFlag(t *testing.T) {
	l := mustParse(t, ground(12, map[[2]int]byte{
		{3, 12}: 't', {4, 12}: 't', {3, 13}: 't', {4, 13}: 't', // a two-tile pipe
		{7, 12}: 't', {7, 13}: 't', // a one-tile pipe
		{5, 13}: 'g', {6, 9}: 'Q', {8, 9}: 'o',
	}))
	if l.W != 12 || l.H != 17 || l.HeightPx() != 272 {
		t.Fatalf("level is %d×%d (%d px high), want 12×17 (272 px): the trailing newline adds a row", l.W, l.H, l.HeightPx())
	}
	for _, c := range []struct{ x, y, want int }{
		{3, 12, TilePipeTopLeft}, {4, 12, TilePipeTopRight}, {3, 13, TilePipeLeft}, {4, 13, TilePipeRight},
		{7, 12, TileSinglePipeTop}, {7, 13, TileSinglePipe},
		{6, 9, TileCoinBlock}, {8, 9, TileCoin}, {0, 14, TileGround},
		{10, 13, TileFlagPole}, {10, 3, TileFlagPole}, {10, 2, TileFlagTop}, {10, 1, TileAir},
	} {
		if got := l.Tile(c.x, c.y); got != c.want {
			t.Errorf("tile (%d, %d) = %d, want %d", c.x, c.y, got, c.want)
		}
	}
	if l.MarioX != 1 || l.MarioY != 13 || l.ExitX != 10 || l.ExitY != 13 || l.TotalCoins != 2 {
		t.Errorf("start (%d, %d), exit (%d, %d), coins %d", l.MarioX, l.MarioY, l.ExitX, l.ExitY, l.TotalCoins)
	}
	if ts := l.Templates(); len(ts) != 1 || ts[0] != (Template{5, 13, Goomba}) {
		t.Errorf("templates = %v", ts)
	}
	if _, err := ParseLevel(ground(12, map[[2]int]byte{{5, 13}: 'T'})); err == nil {
		t.Error("a piranha-plant pipe was accepted")
	}
}

// The framework rebuilds Mario at (x-8)+8 when it clones a world, which rounds positions below
// 8 px; the A* agent searches on such clones.
func TestCloneRoundsMarioThroughTheConstructorOffset(t *testing.T) {
	w := NewWorld(mustParse(t, ground(20, nil)), 15000)
	x := 0.1
	w.mario.x, w.mario.y = x, 100.1
	c := w.Clone()
	if want := (x - 8) + 8; c.mario.x != want || c.mario.x == x {
		t.Errorf("cloned x = %v, want %v (not 0.1)", c.mario.x, want)
	}
	if c.mario.y != 100.1 {
		t.Errorf("cloned y = %v, want 100.1 (exact above 15 px)", c.mario.y)
	}
}

// Clones share the tiles until one changes them.
func TestCloneCopiesTilesOnWrite(t *testing.T) {
	w := NewWorld(mustParse(t, ground(20, map[[2]int]byte{{5, 10}: 'o'})), 15000)
	c := w.Clone()
	c.setBlock(5, 10, 0)
	if w.Tile(5, 10) != TileCoin || c.Tile(5, 10) != TileAir || w.level.Tile(5, 10) != TileCoin {
		t.Fatalf("tiles: world %d, clone %d, level %d", w.Tile(5, 10), c.Tile(5, 10), w.level.Tile(5, 10))
	}
	w.setBlock(5, 10, TileUsed)
	if c.Tile(5, 10) != TileAir || w.level.Tile(5, 10) != TileCoin {
		t.Fatal("a write to the original reached the clone or the level")
	}
}

// The frame that times the game out returns before clearing the events, so the game loop adds
// the previous frame's events a second time: here one real jump counts twice.
func TestTimeOutFrameRepeatsThePreviousEvents(t *testing.T) {
	g := &Game{world: NewWorld(mustParse(t, ground(20, nil)), 150)}
	g.world.Update(0)
	g.Step(Right) // lands
	g.Step(Right) // may jump from now on
	g.Step(Right | Jump)
	if g.Over() || len(g.world.Events()) != 1 || g.world.Events()[0].Type != EventJump {
		t.Fatalf("after the jump frame: over %v, events %v", g.Over(), g.world.Events())
	}
	g.Step(Right | Jump)
	if g.world.Status() != TimeOut {
		t.Fatalf("status %v, want a time out", g.world.Status())
	}
	if r := g.Result(); r.Jumps != 2 || len(r.Steps) != 4 {
		t.Errorf("jumps %d over %d steps, want 2 over 4", r.Jumps, len(r.Steps))
	}
}

// stompWorld has one enemy of the given kind spawned on the ground, with Mario falling onto it.
func stompWorld(t *testing.T, c byte) *World {
	t.Helper()
	w := NewWorld(mustParse(t, ground(30, map[[2]int]byte{{4, 13}: c})), 15000)
	w.Update(0)
	if len(w.enemies) != 1 {
		t.Fatalf("%d enemies spawned, want 1", len(w.enemies))
	}
	e := w.enemies[0]
	w.mario.x, w.mario.y = e.x, e.y-e.height-2
	w.mario.ya, w.mario.onGround, w.mario.wasOnGround = 4, false, false
	return w
}

func hasEvent(w *World, t EventType) bool {
	for _, e := range w.events {
		if e.Type == t {
			return true
		}
	}
	return false
}

// A stomped koopa dies on the spot: the reference compares Python's builtin `type`, so its
// shell branch never runs.
func TestStompedKoopaLeavesNoShell(t *testing.T) {
	w := stompWorld(t, 'k')
	w.Update(0)
	if !hasEvent(w, EventStompKill) || len(w.Enemies(nil)) != 0 || len(w.enemies) != 0 {
		t.Fatalf("events %v, enemies %v", w.events, w.Enemies(nil))
	}
	if w.mario.jumpTime != 8 || w.mario.ya != 8*marioJumpSpeed {
		t.Errorf("Mario did not bounce: jumpTime %d, ya %v", w.mario.jumpTime, w.mario.ya)
	}
}

// Spikies hurt whoever lands on them, but a winged spiky only loses its wings: the winged
// exclusion is the same `type` comparison.
func TestSpikyHurtsButWingedSpikyIsStomped(t *testing.T) {
	w := stompWorld(t, 'y')
	w.Update(0)
	if !hasEvent(w, EventHurt) || w.Status() != Lose {
		t.Errorf("landing on a spiky: events %v, status %v", w.events, w.Status())
	}
	w = stompWorld(t, 'Y')
	w.Update(0)
	es := w.Enemies(nil)
	if hasEvent(w, EventHurt) || len(es) != 1 || es[0].Winged || w.Status() != Running {
		t.Errorf("landing on a winged spiky: events %v, enemies %+v, status %v", w.events, es, w.Status())
	}
}

// Running under a coin block bumps it from below: it becomes a used block and pays a coin, and
// a coin lying on it is taken too.
func TestBumpingACoinBlock(t *testing.T) {
	w := NewWorld(mustParse(t, ground(30, map[[2]int]byte{{3, 11}: 'Q', {3, 10}: 'o'})), 15000)
	w.Update(0)
	w.mario.x = 3*16 + 8
	w.mario.onGround, w.mario.mayJump = true, true
	for i := 0; i < 6 && w.Tile(3, 11) == TileCoinBlock; i++ {
		w.Update(Jump)
	}
	if w.Tile(3, 11) != TileUsed || w.Tile(3, 10) != TileAir || w.Coins() != 2 {
		t.Errorf("block %d, coin tile %d, coins %d; want used block, no coin, 2 coins", w.Tile(3, 11), w.Tile(3, 10), w.Coins())
	}
}

// The scripted agent holds speed and jump exactly when Mario may jump or is in the air.
func TestScriptedAgent(t *testing.T) {
	w := NewWorld(mustParse(t, ground(20, nil)), 15000)
	for _, c := range []struct {
		mayJump, onGround bool
		want              Actions
	}{
		{false, true, Right},
		{true, true, Right | Speed | Jump},
		{false, false, Right | Speed | Jump},
	} {
		w.mario.mayJump, w.mario.onGround = c.mayJump, c.onGround
		if got := (Scripted{}).Act(w); got != c.want {
			t.Errorf("mayJump %v onGround %v: %05b, want %05b", c.mayJump, c.onGround, got, c.want)
		}
	}
}

// An agent's trace replays to the same game: the same positions at every step and the same
// result.
func TestReplayReproducesTheAgentsGame(t *testing.T) {
	text := ground(60, map[[2]int]byte{
		{10, 14}: '-', {10, 15}: '-', {11, 14}: '-', {11, 15}: '-', // a hole
		{16, 13}: 'g', {22, 10}: 'Q', {30, 12}: '#', {30, 13}: '#', {40, 13}: 'k',
	})
	l := mustParse(t, text)
	for _, agent := range []Agent{Scripted{}, NewAStar(100, 8)} {
		r := Run(l, 3, agent)
		actions := make([]Actions, len(r.Steps))
		for i, s := range r.Steps {
			actions[i] = s.Actions
		}
		g := Replay(l, 3, actions)
		got := g.Result()
		if len(got.Steps) != len(r.Steps) || got.Status != r.Status || got.Completion != r.Completion ||
			got.Jumps != r.Jumps || got.Kills != r.Kills || got.Coins != r.Coins {
			t.Fatalf("%T: replay %+v differs from the run %+v", agent, summary(got), summary(r))
		}
		for i := range got.Steps {
			if got.Steps[i] != r.Steps[i] {
				t.Fatalf("%T: step %d replays to %+v, want %+v", agent, i, got.Steps[i], r.Steps[i])
			}
		}
	}
}

func summary(r Result) Result {
	r.Steps, r.Events = nil, nil
	return r
}

// The A* queue is re-sorted stably after each expansion: among equal scores the older node
// stays first.
func TestAStarMergeKeepsOldNodesFirstOnTies(t *testing.T) {
	a, b, c := &node{score: 3}, &node{score: 1}, &node{score: 1}
	d, e := &node{score: 1}, &node{score: 2}
	got := mergeStable([]*node{a, b, c}, []*node{d, e})
	want := []*node{a, e, b, c, d}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("position %d: score %v, want the node with %v", i, got[i].score, want[i].score)
		}
	}
}

package arcade

import (
	"fmt"
	"strings"

	"pcgwb/problems/numpyrng"
	"pcgwb/problems/shape"
)

// Colours of the non-player pieces, in the order the engine updates them.
const (
	Red = iota
	Green
	Yellow
	Colours
)

// player is the collision-rule index of the player (rules "player-red" …).
const player = Colours

// MaxPieces is the number of start positions per colour.
const MaxPieces = 4

// Behaviours of a colour.
const (
	Still = iota
	Flicker
	RandomShort // random walk, new direction every 5 steps
	RandomLong  // random walk, new direction every 10 steps
	WanderHorz
	WanderVert
	Chase
	Flee
	Behaviours
)

// Collision actions.
const (
	KeepBoth = iota
	KillFirst
	KillSecond
	KillBoth
	Actions
)

// Win conditions: survive until the time limit, or reach a score.
const (
	WinTime = iota
	WinScore5
	WinScore10
	WinScore20
	WinRules
)

var (
	colourNames    = [Colours]string{"red", "green", "yellow"}
	behaviourNames = [Behaviours]string{"still", "flicker", "randomShort", "randomLong", "wanderHorz", "wanderVert", "chase", "flee"}
	actionNames    = [Actions]string{"none", "killFirst", "killSecond", "killBoth"}
	winNames       = [WinRules]string{"time", "score5", "score10", "score20"}
	// points of a collision rule's score index.
	points = [4]int{0, 1, 2, 4}
	// winScores is the score a win rule asks for (0: survive instead).
	winScores = [WinRules]int{0, 5, 10, 20}
	// ruleKeys are the collision rules in content order, as (first, second) kinds.
	ruleKeys = [...]struct {
		name          string
		first, second int
	}{
		{"player-red", player, Red}, {"player-green", player, Green}, {"player-yellow", player, Yellow},
		{"red-red", Red, Red}, {"red-green", Red, Green}, {"red-yellow", Red, Yellow},
		{"green-green", Green, Green}, {"green-yellow", Green, Yellow}, {"yellow-yellow", Yellow, Yellow},
	}
)

// Action is a player move: one of Directions.
type Action struct{ X, Y int }

// Directions are the agents' moves in the reference's order: left, right, up, down, none.
var Directions = [5]Action{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {0, 0}}

var (
	walkDirs = [4]Action{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}
	horzDirs = [2]Action{{-1, 0}, {1, 0}}
	vertDirs = [2]Action{{0, -1}, {0, 1}}
)

// Rule is one collision rule: what happens to the two pieces and the points it scores.
type Rule struct{ Action, Score int }

// Start is a colour's start positions: the first Num of the four are used.
type Start struct {
	Num  int
	X, Y [MaxPieces]int
}

// Rules is a content: the game's rules.
type Rules struct {
	// X, Y is the player's start (unpadded); Seed seeds every random stream of the games.
	X, Y, Seed, Win int
	Behaviour       [Colours]int
	Starts          [Colours]Start
	// Collide[first][second] for the nine rule keys (first <= second, player first).
	Collide [Colours + 1][Colours]Rule
}

// ParseRules reads a normalized content (the reference's dictionary).
func ParseRules(c any) (*Rules, error) {
	m, ok := c.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("arcade: content is not a dictionary")
	}
	var err error
	num := func(v any, path string) int {
		switch x := v.(type) {
		case int:
			return x
		case float64:
			return int(x)
		}
		if err == nil {
			err = fmt.Errorf("arcade: content %s is not a number", path)
		}
		return 0
	}
	sub := func(v any, path string) map[string]any {
		d, ok := v.(map[string]any)
		if !ok && err == nil {
			err = fmt.Errorf("arcade: content %s is not a dictionary", path)
		}
		return d
	}
	r := &Rules{X: num(m["x"], "x"), Y: num(m["y"], "y"), Seed: num(m["seed"], "seed"), Win: num(m["win"], "win")}
	for c, name := range colourNames {
		r.Behaviour[c] = num(m[name], name)
		s := sub(m[name+"Start"], name+"Start")
		r.Starts[c].Num = num(s["num"], name+"Start.num")
		xs, _ := s["x"].([]any)
		ys, _ := s["y"].([]any)
		if len(xs) < MaxPieces || len(ys) < MaxPieces {
			if err == nil {
				err = fmt.Errorf("arcade: content %sStart needs %d x and y values", name, MaxPieces)
			}
			continue
		}
		for i := 0; i < MaxPieces; i++ {
			r.Starts[c].X[i] = num(xs[i], name+"Start.x")
			r.Starts[c].Y[i] = num(ys[i], name+"Start.y")
		}
	}
	for _, k := range ruleKeys {
		d := sub(m[k.name], k.name)
		r.Collide[k.first][k.second] = Rule{num(d["action"], k.name+".action"), num(d["score"], k.name+".score")}
	}
	if err != nil {
		return nil, err
	}
	if r.Win < 0 || r.Win >= WinRules {
		return nil, fmt.Errorf("arcade: win rule %d out of range", r.Win)
	}
	for c := range r.Behaviour {
		if r.Behaviour[c] < 0 || r.Behaviour[c] >= Behaviours {
			return nil, fmt.Errorf("arcade: %s behaviour %d out of range", colourNames[c], r.Behaviour[c])
		}
		if r.Starts[c].Num < 0 || r.Starts[c].Num > MaxPieces {
			return nil, fmt.Errorf("arcade: %sStart.num %d out of range", colourNames[c], r.Starts[c].Num)
		}
	}
	for _, k := range ruleKeys {
		if rr := r.Collide[k.first][k.second]; rr.Action < 0 || rr.Action >= Actions || rr.Score < 0 || rr.Score >= len(points) {
			return nil, fmt.Errorf("arcade: rule %s out of range", k.name)
		}
	}
	return r, nil
}

// Script is the rules in the reference's words (its render's text).
func (r *Rules) Script() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Start: %d,%d - %d\nBehavior:\n", r.X, r.Y, r.Seed)
	for _, c := range [...]int{Red, Yellow, Green} {
		fmt.Fprintf(&b, "  %s: %s ", colourNames[c], behaviourNames[r.Behaviour[c]])
		s := r.Starts[c]
		for i := 0; i < s.Num; i++ {
			fmt.Fprintf(&b, "- %d,%d ", s.X[i], s.Y[i])
		}
		b.WriteByte('\n')
	}
	b.WriteString("Rules:\n")
	for _, k := range ruleKeys {
		rr := r.Collide[k.first][k.second]
		fmt.Fprintf(&b, "  %s: %s - %d\n", k.name, actionNames[rr.Action], points[rr.Score])
	}
	fmt.Fprintf(&b, "Win: %s", winNames[r.Win])
	return b.String()
}

// Piece is a red, green or yellow object; coordinates are padded (unpadded + 1).
type Piece struct {
	X, Y, State, Value int16
	Alive              bool
}

// Player is the player's avatar; coordinates are padded.
type Player struct {
	X, Y, Score, Time int32
	Alive             bool
}

// State is a whole game state. It is a plain value: copying it clones the game.
type State struct {
	Player Player
	Pieces [Colours][MaxPieces]Piece
	Count  [Colours]int8
}

// Layout is the fixed level the rules are played on, padded with a ring of walls, with the
// BFS distance map of every empty cell for the chasing and fleeing behaviours.
type Layout struct {
	W, H  int // padded size
	empty []bool
	// open[cell] is -1 (all bits set) where empty, 0 on walls: a mask for branch-free moves.
	open []int32
	// dist[cell] is the distance map (padded, row-major, -1 for walls and unreached cells) from
	// an empty cell, nil for walls.
	dist [][]int16
	// chase and flee are the moves of chasing and fleeing pieces (see pursuits).
	chase, flee []int16
}

// NewLayout pads a W×H 0/1 grid (1 = empty) and precomputes its distance maps.
func NewLayout(g shape.Grid) *Layout {
	p := g.Padded(0)
	l := &Layout{W: p.W, H: p.H, empty: make([]bool, len(p.Cells)), open: make([]int32, len(p.Cells)), dist: make([][]int16, len(p.Cells))}
	pass := shape.TilesOf(1)
	for i, v := range p.Cells {
		l.empty[i] = v == 1
		if v != 1 {
			continue
		}
		l.open[i] = -1
		d := shape.BFS(p, i%p.W, i/p.W, pass)
		m := make([]int16, len(d))
		for j, v := range d {
			m[j] = int16(v)
		}
		l.dist[i] = m
	}
	l.chase, l.flee = l.pursuits(true), l.pursuits(false)
	return l
}

// pursuits is, for the player on empty cell pc and a chasing (or fleeing) piece on empty cell
// c, the piece's move as a cell offset at [pc*cells+c]: Engine.behave's choice (the first of
// left, right, up, down with the least distance to the player, the greatest to flee; walls
// count -1), 0 when that neighbour is a wall. Play-outs look it up instead of comparing four
// distances per piece and step.
func (l *Layout) pursuits(chase bool) []int16 {
	cells := len(l.empty)
	t := make([]int16, cells*cells)
	for pc, d := range l.dist {
		if d == nil {
			continue
		}
		for c := range cells {
			if !l.empty[c] {
				continue
			}
			x, y := c%l.W, c/l.W
			best := 0
			bestV := d[(y+walkDirs[0].Y)*l.W+x+walkDirs[0].X]
			for k := 1; k < len(walkDirs); k++ {
				v := d[(y+walkDirs[k].Y)*l.W+x+walkDirs[k].X]
				if (chase && v < bestV) || (!chase && v > bestV) {
					best, bestV = k, v
				}
			}
			if to := (y+walkDirs[best].Y)*l.W + x + walkDirs[best].X; l.empty[to] {
				t[pc*cells+c] = int16(to - c)
			}
		}
	}
	return t
}

// Empty reports whether a padded cell is inside and empty.
func (l *Layout) Empty(x, y int) bool {
	return x >= 0 && y >= 0 && x < l.W && y < l.H && l.empty[y*l.W+x]
}

// Engine plays one content's rules on a layout. Its random generator is the reference's
// engine generator: reseeded by Initialize and shared by every update that follows, the agents'
// look-ahead simulations included.
type Engine struct {
	Rules   *Rules
	Layout  *Layout
	MaxTime int
	rng     numpyrng.Generator
	// prep caches what Update needs of Rules (made again whenever Rules is another pointer).
	prep prepared
}

// prepared lists, per first colour, the later colours whose collision rule does something,
// so that the pair loop of Update visits only the pairs that can matter.
type prepared struct {
	rules *Rules
	pairs [Colours][]pairRule
	// anyPairs says whether some pair rule does something at all.
	anyPairs bool
	// stamp[cell] == tick marks the cells holding a live piece in the current update.
	stamp []uint32
	tick  uint32
}

type pairRule struct {
	second int
	rule   Rule
}

func (e *Engine) prepare() {
	r := e.Rules
	e.prep.rules = r
	e.prep.stamp = make([]uint32, e.Layout.W*e.Layout.H)
	e.prep.tick = 0
	e.prep.anyPairs = false
	for c1 := 0; c1 < Colours; c1++ {
		e.prep.pairs[c1] = nil
		for c2 := c1; c2 < Colours; c2++ {
			if rule := r.Collide[c1][c2]; rule != (Rule{}) {
				e.prep.pairs[c1] = append(e.prep.pairs[c1], pairRule{c2, rule})
				e.prep.anyPairs = true
			}
		}
	}
}

// NewEngine prepares a game of the rules on the layout with the reference's time limit of 40.
func NewEngine(r *Rules, l *Layout) *Engine { return &Engine{Rules: r, Layout: l, MaxTime: 40} }

// Initialize reseeds the engine's generator and returns the start state: the player at its
// start, then every red, green and yellow piece whose start is empty (pieces placed on walls
// are dropped).
func (e *Engine) Initialize() State {
	e.rng.Seed(uint64(e.Rules.Seed))
	var s State
	s.Player = Player{X: int32(e.Rules.X + 1), Y: int32(e.Rules.Y + 1), Alive: true}
	for c := 0; c < Colours; c++ {
		st := e.Rules.Starts[c]
		for i := 0; i < st.Num; i++ {
			x, y := st.X[i]+1, st.Y[i]+1
			if e.Layout.Empty(x, y) {
				s.Pieces[c][s.Count[c]] = Piece{X: int16(x), Y: int16(y), Alive: true}
				s.Count[c]++
			}
		}
	}
	return s
}

// IsWin: the score reached the win rule's target, or (win rule "time") the time ran out.
func (e *Engine) IsWin(s *State) bool {
	if t := winScores[e.Rules.Win]; t > 0 {
		return int(s.Player.Score) >= t
	}
	return int(s.Player.Time) >= e.MaxTime
}

// IsLose: the time ran out before the score was reached, or (win rule "time") the player died.
func (e *Engine) IsLose(s *State) bool {
	if e.Rules.Win != WinTime {
		return int(s.Player.Time) >= e.MaxTime
	}
	return !s.Player.Alive
}

// Over is IsWin or IsLose.
func (e *Engine) Over(s *State) bool { return e.IsWin(s) || e.IsLose(s) }

// tryMove moves a piece one cell if that cell is empty. Pieces stand on empty cells, which
// the padding's ring of walls keeps off the border, so every neighbour is inside the layout.
func (e *Engine) tryMove(x, y *int16, d Action) bool {
	nx, ny := int(*x)+d.X, int(*y)+d.Y
	if e.Layout.empty[ny*e.Layout.W+nx] {
		*x, *y = int16(nx), int16(ny)
		return true
	}
	return false
}

// Update plays one step with the player moving by a (no-op once the game is over): the clock
// ticks, the player moves, every piece behaves (red, green, yellow), then collisions score.
func (e *Engine) Update(s *State, a Action) {
	if e.Over(s) {
		return
	}
	e.update(s, a)
}

// update is Update on a state known not to be over.
func (e *Engine) update(s *State, a Action) {
	p := &s.Player
	p.Time++
	if nx, ny := int(p.X)+a.X, int(p.Y)+a.Y; e.Layout.Empty(nx, ny) {
		p.X, p.Y = int32(nx), int32(ny)
	}
	px, py := int(p.X), int(p.Y)
	for c := 0; c < Colours; c++ {
		b := e.Rules.Behaviour[c]
		ps := s.Pieces[c][:s.Count[c]]
		for i := range ps {
			o := &ps[i]
			if !o.Alive && b != Flicker {
				continue
			}
			o.Value++
			if b != Still {
				e.behave(b, o, px, py)
			}
		}
	}
	// The player meets every live piece (its own death does not stop it).
	for c := 0; c < Colours; c++ {
		rule := e.Rules.Collide[player][c]
		if rule == (Rule{}) {
			continue
		}
		for i := 0; i < int(s.Count[c]); i++ {
			o := &s.Pieces[c][i]
			if o.Alive && int32(o.X) == p.X && int32(o.Y) == p.Y {
				applyRule(rule, &p.Alive, &o.Alive)
				p.Score += int32(points[rule.Score])
			}
		}
	}
	// Piece pairs: each first piece against every piece of its own and the later colours. The
	// reference skips pairs whose records are equal field for field (its dict inequality), which
	// also skips two distinct pieces that share position, state, value and life. Pairs whose
	// rule keeps both and scores nothing have no effect and are not visited.
	if e.prep.rules != e.Rules {
		e.prepare()
	}
	if !e.prep.anyPairs || !e.shareACell(s) {
		return // no two live pieces meet: no pair can fire
	}
	for c1 := 0; c1 < Colours; c1++ {
		pairs := e.prep.pairs[c1]
		if len(pairs) == 0 {
			continue
		}
		for i := 0; i < int(s.Count[c1]); i++ {
			a := &s.Pieces[c1][i]
			if !a.Alive {
				continue // stays dead: no pair of it can fire
			}
			ax, ay := a.X, a.Y
			for _, pr := range pairs {
				bs := s.Pieces[pr.second][:s.Count[pr.second]]
				for j := range bs {
					b := &bs[j]
					if ax != b.X || ay != b.Y || !a.Alive || !b.Alive || *a == *b {
						continue
					}
					applyRule(pr.rule, &a.Alive, &b.Alive)
					p.Score += int32(points[pr.rule.Score])
				}
			}
		}
	}
}

// shareACell reports whether two live pieces stand on the same cell.
func (e *Engine) shareACell(s *State) bool {
	e.prep.tick++
	if e.prep.tick == 0 { // wrapped: forget every old mark
		clear(e.prep.stamp)
		e.prep.tick = 1
	}
	stamp, tick, w := e.prep.stamp, e.prep.tick, e.Layout.W
	for c := 0; c < Colours; c++ {
		ps := s.Pieces[c][:s.Count[c]]
		for i := range ps {
			if !ps[i].Alive {
				continue
			}
			k := int(ps[i].Y)*w + int(ps[i].X)
			if stamp[k] == tick {
				return true
			}
			stamp[k] = tick
		}
	}
	return false
}

// behave moves a live (or flickering) piece whose value has just been counted up.
func (e *Engine) behave(b int, o *Piece, px, py int) {
	switch b {
	case Flicker:
		// Dead for values 5–9, 15–19, …, alive again after.
		o.Alive = (o.Value/5)%2 == 0
	case RandomShort, RandomLong:
		turn := o.Value%5 == 1
		if b == RandomLong {
			turn = o.Value%10 == 1
		}
		if turn {
			o.State = int16(e.rng.IntN(4))
		}
		e.tryMove(&o.X, &o.Y, walkDirs[o.State])
	case WanderHorz, WanderVert:
		if o.Value == 1 {
			o.State = int16(e.rng.IntN(2))
		}
		dirs := horzDirs
		if b == WanderVert {
			dirs = vertDirs
		}
		// Blocked: turn round for the next step (the reference retries the old direction now).
		if !e.tryMove(&o.X, &o.Y, dirs[o.State]) {
			o.State = 1 - o.State
		}
	case Chase, Flee:
		d := e.Layout.dist[py*e.Layout.W+px]
		// A stable sort of left, right, up, down by distance (descending to flee) and a try of
		// the first: walls count -1, so chasers next to a wall push into it and stay.
		best := 0
		bestV := d[(int(o.Y)+walkDirs[0].Y)*e.Layout.W+int(o.X)+walkDirs[0].X]
		for k := 1; k < len(walkDirs); k++ {
			v := d[(int(o.Y)+walkDirs[k].Y)*e.Layout.W+int(o.X)+walkDirs[k].X]
			if (b == Chase && v < bestV) || (b == Flee && v > bestV) {
				best, bestV = k, v
			}
		}
		e.tryMove(&o.X, &o.Y, walkDirs[best])
	}
}

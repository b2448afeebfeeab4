package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"pcgwb/problems"
	"pcgwb/problems/shape"
	"pcgwb/problems/space"
)

// The constructive baselines follow the paper's appendix in spirit (its text is not part of
// the public experiments repository, so the details here are our own): a maze carved by
// randomized Prim's algorithm is the base, walls are thinned to open rooms and loops, and the
// problem's objects are placed on the result. Nothing is evaluated while building: a
// constructive generator never looks at quality. Run as a generator it behaves like random
// search with built instead of sampled contents (each generation builds PopSize more and keeps
// the best PopSize); with 0 generations it is the paper's one-shot baseline.
//
//   - binary: the maze, with up to 30% of its removable walls knocked out.
//   - zelda: the maze with 20–60% of the removable walls knocked out; the player on a random
//     floor tile, the key on a random tile among the farthest quarter from the player, the door
//     among the farthest quarter from the key, and the variant's enemy count on random floor
//     tiles at least two steps from the player.
//   - sokoban: the maze thinned by 50–100%, then built backwards so that it is solvable: the
//     control's crate count is put on random target tiles and the player walks randomly,
//     pulling crates off their targets (4·(W+H) moves, up to four times more while a crate or
//     the player still stands on a target, which the tile set cannot show; if that fails the
//     level is rebuilt, with one crate fewer after every 10 failures).
type builder func(r *rand.Rand, control problems.Control) problems.Content

// BuilderFactory makes the constructive builder of one problem of a family: rows × cols is
// its grid, params its registered parameters (problems.Entry.Params).
type BuilderFactory func(rows, cols int, params problems.Params) func(r *rand.Rand, control problems.Control) problems.Content

// builders are the constructive generator's builders by problem family.
var builders = problems.NewFamilyTable[BuilderFactory]("constructive builder")

// RegisterBuilder gives the constructive generator a builder for the tile-grid problems of
// family f; call it from an init function.
func RegisterBuilder(f problems.Family, b BuilderFactory) { builders.Register(f, b) }

// ConstructiveFamilies lists the problem families with a constructive builder, sorted.
func ConstructiveFamilies() []problems.Family { return builders.Families() }

// HasBuilder tells whether the problem registered as name has a constructive builder.
func HasBuilder(name string) bool {
	_, ok := builders.Of(name)
	return ok
}

func init() {
	RegisterBuilder("binary", func(rows, cols int, _ problems.Params) func(*rand.Rand, problems.Control) problems.Content {
		return func(r *rand.Rand, _ problems.Control) problems.Content {
			g := primMaze(rows, cols, r)
			thin(g, 0.3*r.Float64(), r)
			return shape.GridContent(g)
		}
	})
	RegisterBuilder("zelda", func(rows, cols int, params problems.Params) func(*rand.Rand, problems.Control) problems.Content {
		enemies := params.Int("enemies", 3)
		return func(r *rand.Rand, _ problems.Control) problems.Content {
			return buildZelda(rows, cols, enemies, r)
		}
	})
	RegisterBuilder("sokoban", func(rows, cols int, _ problems.Params) func(*rand.Rand, problems.Control) problems.Content {
		return func(r *rand.Rand, control problems.Control) problems.Content {
			return buildSokoban(rows, cols, controlInt(control, "crates", 1), r)
		}
	})
}

func constructorFor(p problems.Problem, name string) (builder, error) {
	if name == "" {
		return nil, fmt.Errorf("the constructive generator needs the problem's registered name (Options.Problem)")
	}
	factory, ok := builders.Of(name)
	arr, grid := p.ContentSpace().(space.Array)
	if !ok || !grid || len(arr.Dims) != 2 {
		fams := make([]string, 0, 3)
		for _, f := range ConstructiveFamilies() {
			fams = append(fams, string(f))
		}
		return nil, fmt.Errorf("the constructive generator is not available for %q (only for %s)", name, strings.Join(fams, ", "))
	}
	params := problems.Params{}
	if e, ok := problems.Lookup(name); ok {
		params = e.Params
	}
	return factory(arr.Dims[0], arr.Dims[1], params), nil
}

// Tile values of the problems built here (the reference's encodings).
const (
	tileSolid = 0
	tileEmpty = 1
	// zelda
	zeldaPlayer = 2
	zeldaKey    = 3
	zeldaDoor   = 4
	zeldaEnemy  = 5
	// sokoban
	sokoPlayer = 2
	sokoCrate  = 3
	sokoTarget = 4
)

func controlInt(control problems.Control, key string, def int) int {
	m, ok := control.(map[string]any)
	if !ok {
		return def
	}
	switch v := m[key].(type) {
	case int:
		return v
	case float64:
		return int(v)
	}
	return def
}

// primMaze carves a perfect maze with randomized Prim's algorithm: maze cells sit on even
// coordinates, the walls between them are opened as the tree grows. With an even size the last
// row or column stays solid.
func primMaze(rows, cols int, r *rand.Rand) shape.Grid {
	g := shape.NewGrid(cols, rows)
	cr, cc := (rows+1)/2, (cols+1)/2
	in := make([]bool, cr*cc)
	type edge struct{ from, to int }
	var frontier []edge
	add := func(c int) {
		in[c] = true
		y, x := c/cc, c%cc
		g.Set(2*x, 2*y, tileEmpty)
		for _, d := range shape.Neighbours() {
			nx, ny := x+d.X, y+d.Y
			if nx >= 0 && ny >= 0 && nx < cc && ny < cr && !in[ny*cc+nx] {
				frontier = append(frontier, edge{c, ny*cc + nx})
			}
		}
	}
	add(r.IntN(cr * cc))
	for len(frontier) > 0 {
		i := r.IntN(len(frontier))
		e := frontier[i]
		frontier[i] = frontier[len(frontier)-1]
		frontier = frontier[:len(frontier)-1]
		if in[e.to] {
			continue
		}
		fy, fx := e.from/cc, e.from%cc
		ty, tx := e.to/cc, e.to%cc
		g.Set(fx+tx, fy+ty, tileEmpty) // the wall between 2·from and 2·to
		add(e.to)
	}
	return g
}

// thin opens each wall that separates two floor tiles (left-right or up-down) with probability
// fraction; opening such a wall never disconnects anything.
func thin(g shape.Grid, fraction float64, r *rand.Rand) {
	open := func(x, y int) bool { return g.In(x, y) && g.At(x, y) != tileSolid }
	var walls []int
	for y := 0; y < g.H; y++ {
		for x := 0; x < g.W; x++ {
			if g.At(x, y) == tileSolid && ((open(x-1, y) && open(x+1, y)) || (open(x, y-1) && open(x, y+1))) {
				walls = append(walls, y*g.W+x)
			}
		}
	}
	for _, w := range walls {
		if r.Float64() < fraction {
			g.Cells[w] = tileEmpty
		}
	}
}

// pickFar returns a random tile among the farthest quarter (by BFS steps from the given
// distance map) of the candidates.
func pickFar(cands []int, dist []int, r *rand.Rand) int {
	best := 0
	for _, c := range cands {
		best = max(best, dist[c])
	}
	var far []int
	for _, c := range cands {
		if dist[c] >= best*3/4 {
			far = append(far, c)
		}
	}
	return far[r.IntN(len(far))]
}

func floorTiles(g shape.Grid) []int {
	var out []int
	for i, v := range g.Cells {
		if v == tileEmpty {
			out = append(out, i)
		}
	}
	return out
}

func without(list []int, drop ...int) []int {
	out := list[:0:0]
outer:
	for _, v := range list {
		for _, d := range drop {
			if v == d {
				continue outer
			}
		}
		out = append(out, v)
	}
	return out
}

func buildZelda(rows, cols, enemies int, r *rand.Rand) problems.Content {
	g := primMaze(rows, cols, r)
	thin(g, 0.2+0.4*r.Float64(), r)
	floor := floorTiles(g)
	pass := shape.TilesOf(tileEmpty, zeldaPlayer, zeldaKey, zeldaDoor, zeldaEnemy)
	player := floor[r.IntN(len(floor))]
	floor = without(floor, player)
	fromPlayer := shape.BFS(g, player%g.W, player/g.W, pass)
	key := pickFar(floor, fromPlayer, r)
	floor = without(floor, key)
	fromKey := shape.BFS(g, key%g.W, key/g.W, pass)
	door := pickFar(floor, fromKey, r)
	floor = without(floor, door)
	g.Cells[player], g.Cells[key], g.Cells[door] = zeldaPlayer, zeldaKey, zeldaDoor
	var spots []int
	for _, c := range floor {
		if fromPlayer[c] >= 2 {
			spots = append(spots, c)
		}
	}
	for i := 0; i < enemies && len(spots) > 0; i++ {
		j := r.IntN(len(spots))
		g.Cells[spots[j]] = zeldaEnemy
		spots = append(spots[:j], spots[j+1:]...)
	}
	return shape.GridContent(g)
}

// buildSokoban retries until the backward walk leaves no crate and no player on a target (which
// the tile set cannot show), asking for one crate fewer every 10 attempts; after 30 attempts it
// keeps the last level as it is.
func buildSokoban(rows, cols, crates int, r *rand.Rand) problems.Content {
	var level problems.Content
	for attempt := 0; attempt < 30; attempt++ {
		var ok bool
		level, ok = sokobanAttempt(rows, cols, max(1, crates-attempt/10), r)
		if ok {
			break
		}
	}
	return level
}

func sokobanAttempt(rows, cols, crates int, r *rand.Rand) (problems.Content, bool) {
	g := primMaze(rows, cols, r)
	thin(g, 0.5+0.5*r.Float64(), r)
	floor := floorTiles(g)
	// Keep room for the player and at least one free tile to move into.
	crates = max(1, min(crates, (len(floor)-2)))
	if crates < 1 || len(floor) < 3 {
		return shape.GridContent(g), false
	}
	r.Shuffle(len(floor), func(i, j int) { floor[i], floor[j] = floor[j], floor[i] })
	targets := append([]int(nil), floor[:crates]...)
	isTarget := map[int]bool{}
	for _, t := range targets {
		isTarget[t] = true
	}
	boxes := map[int]bool{}
	for _, t := range targets {
		boxes[t] = true
	}
	player := floor[crates]
	free := func(c int) bool { return g.Cells[c] != tileSolid && !boxes[c] }
	step := func(c int, d shape.Point) (int, bool) {
		x, y := c%g.W+d.X, c/g.W+d.Y
		if !g.In(x, y) {
			return 0, false
		}
		return y*g.W + x, true
	}
	settled := func() bool {
		if isTarget[player] {
			return false
		}
		for b := range boxes {
			if isTarget[b] {
				return false
			}
		}
		return true
	}
	moves := 4 * (rows + cols)
	for i := 0; i < moves*4 && (i < moves || !settled()); i++ {
		dirs := shape.Neighbours()
		d := dirs[r.IntN(len(dirs))]
		to, ok := step(player, d)
		if !ok || !free(to) {
			continue
		}
		back, okBack := step(player, shape.Point{X: -d.X, Y: -d.Y})
		pull := okBack && boxes[back] && r.Float64() < 0.7
		if pull {
			delete(boxes, back)
			boxes[player] = true
		}
		player = to
	}
	ok := settled()
	for _, t := range targets {
		g.Cells[t] = sokoTarget
	}
	for b := range boxes {
		g.Cells[b] = sokoCrate
	}
	g.Cells[player] = sokoPlayer
	return shape.GridContent(g), ok
}

// constructive builds individuals instead of sampling them; see the comment on builder.
type constructive struct {
	*engine
	build builder
}

func (g *constructive) newIndividual() *Individual {
	k := problems.SampleControl(g.p, g.rng)
	return NewIndividual(g.build(g.rng, k), k)
}

func (g *constructive) batch() []*Individual {
	out := make([]*Individual, g.opts.PopSize)
	for i := range out {
		out[i] = g.newIndividual()
	}
	return out
}

func (g *constructive) init(ctx context.Context) error {
	pop := g.batch()
	if err := g.eval.evaluate(ctx, pop); err != nil {
		return err
	}
	g.sortPop(pop)
	g.pop = pop
	return nil
}

func (g *constructive) step(ctx context.Context) error {
	return g.survive(ctx, g.batch(), g.opts.PopSize)
}

package ddave

import (
	"fmt"
	"image"

	"pcgwb/problems"
	"pcgwb/problems/shape"
	"pcgwb/problems/solver"
	"pcgwb/problems/space"
)

var (
	// open is everything the player can stand in; the repair keeps the open area around the
	// chosen player.
	open        = shape.TileRange(Empty, Spike)
	playerTiles = shape.TilesOf(Player)
)

func init() {
	problems.MustRegister("ddave-v0", problems.Params{"width": 11, "height": 7, "jumps": 2}, New)
	problems.MustRegister("ddave-complex-v0", problems.Params{"width": 11, "height": 7, "jumps": 6}, New)
	problems.MustRegister("ddave-large-v0", problems.Params{"width": 17, "height": 11, "jumps": 10}, New)
}

var (
	_ problems.Problem   = (*DDave)(nil)
	_ problems.Describer = (*DDave)(nil)
)

// DDave is one variant of the problem.
type DDave struct {
	width, height int
	// jumps is the number of jumps quality asks the solution to take.
	jumps int
	// power is the iteration budget of each of the four agents.
	power int
	// diversity is the fraction of width+height the heat-map difference must reach to count as
	// fully diverse.
	diversity float64
	content   space.Space
	control   space.Space
}

// Info is what quality, diversity and controllability read; its JSON is the reference's info.
type Info struct {
	Players         int      `json:"players"`
	Exits           int      `json:"exits"`
	Diamonds        int      `json:"diamonds"`
	Keys            int      `json:"keys"`
	Spikes          int      `json:"spikes"`
	PlayerOnGround  int      `json:"playerOnGround"`
	PlayerLocations [][2]int `json:"player_locations"`
	ExitLocations   [][2]int `json:"exit_locations"`
	ExitOnGround    int      `json:"exitOnGround"`
	// DiamondReachable holds, per diamond in scan order, the heuristic of a game played for
	// that diamond (0: reachable).
	DiamondReachable []int `json:"diamond_reachable"`
	// Heuristic is -1 when the level was not played (not exactly one player, exit and key), 0
	// when the agents won, else the distance left by the BFS agent's best node.
	Heuristic int `json:"heuristic"`
	// Solution is the winning path in content (unpadded) coordinates: the player's position
	// before each move with the move, then the final position with the move {0, 0}.
	Solution []solver.Location `json:"solution"`
	// RepairedContent is the level after unreachable areas were turned solid; everything else
	// is computed on it.
	RepairedContent [][]int `json:"repaired_content"`
	// GameStatus is the final state's status record; nil (and absent from the JSON) when the
	// level was not played.
	*GameStatus
}

// New builds a variant from its registry parameters (width, height, jumps; optional solver,
// diversity).
func New(p problems.Params) (problems.Problem, error) {
	w, h := p.Int("width", 0), p.Int("height", 0)
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("ddave: width and height must be positive (got %d×%d)", w, h)
	}
	// A played level has a player, an exit and a key; every other cell may be a diamond.
	if w*h-3 > MaxDiamonds || (w+2)*(h+2) > maxCells {
		return nil, fmt.Errorf("ddave: a %d×%d level is too large for the solver's state encoding", w, h)
	}
	d := &DDave{
		width:     w,
		height:    h,
		jumps:     p.Int("jumps", 0),
		power:     p.Int("solver", 5000),
		diversity: p.Float("diversity", 0.4),
	}
	d.content = space.Grid(h, w, 7)
	d.control = space.Dict{
		{Key: "sx", Space: space.Int{Min: 0, Max: w}},
		{Key: "sy", Space: space.Int{Min: h/2 + 2, Max: h}},
		{Key: "ex", Space: space.Int{Min: 0, Max: w}},
		{Key: "ey", Space: space.Int{Min: 0, Max: h / 2}},
		{Key: "diamonds", Space: space.Int{Min: 0, Max: min(w, h)}},
	}
	return d, nil
}

func (d *DDave) ContentSpace() space.Space { return d.content }
func (d *DDave) ControlSpace() space.Space { return d.control }

func (d *DDave) Description() string {
	return fmt.Sprintf("Dangerous Dave on a %d×%d level: a side-view platformer where the player "+
		"(who falls, and jumps two cells high) must pick up the key and reach the door, "+
		"collecting diamonds and avoiding spikes. Areas the player cannot reach are walled up "+
		"first. Quality asks for one player, door and key, the player and the door standing on "+
		"the ground, at most %d spikes, at most %d diamonds that can all be reached, and a "+
		"level the built-in agents (A* three ways, then breadth-first, %d steps each) can "+
		"finish with %d to %d jumps. Diversity compares where the two solutions walk (mirrored "+
		"or not). The controls ask for the player's start (sx, sy), the door (ex, ey) and the "+
		"number of diamonds.",
		d.width, d.height, 2*max(d.width, d.height), min(d.width, d.height), d.power, d.jumps,
		max(d.width, d.height))
}

func (d *DDave) grid(c problems.Content) (shape.Grid, error) {
	return shape.GridSized("ddave", c, d.width, d.height)
}

// Repair is the reference's level cleaning: among the players' open regions the largest is
// chosen and every cell outside it becomes solid. The reference picks the region with the
// index of the largest size in the list of *non-empty* fills but looks that index up in the
// list of *players*; when two players share a region the list of fills is shorter and the
// chosen player is not the one of the largest region. That quirk is kept (spec §D.1, §9.7).
// Without a player the level is unchanged.
func Repair(g shape.Grid) shape.Grid {
	out := g.Clone()
	repairInPlace(out)
	return out
}

func repairInPlace(g shape.Grid) {
	players := shape.Find(g, playerTiles)
	if len(players) == 0 {
		return
	}
	sizes := shape.RegionSizes(g, players, open)
	best := 0
	for i, s := range sizes {
		if s > sizes[best] {
			best = i
		}
	}
	loc := players[best]
	dist := shape.BFS(g, loc.X, loc.Y, open)
	for i, v := range dist {
		if v < 0 {
			g.Cells[i] = Solid
		}
	}
}

// tilesOf lists the cells holding tile v, in scan order, as [x, y].
func tilesOf(g shape.Grid, v, count int) [][2]int {
	out := make([][2]int, 0, count)
	for i, c := range g.Cells {
		if c == v {
			out = append(out, [2]int{i % g.W, i / g.W})
		}
	}
	return out
}

// onGround counts the locations standing on the bottom row or on a solid cell.
func onGround(g shape.Grid, locs [][2]int) int {
	n := 0
	for _, p := range locs {
		if p[1] == g.H-1 || g.At(p[0], p[1]+1) == Solid {
			n++
		}
	}
	return n
}

func (d *DDave) Info(c problems.Content) (problems.Info, error) {
	r, err := d.grid(c)
	if err != nil {
		return nil, err
	}
	repairInPlace(r)
	var count [Spike + 1]int
	for _, v := range r.Cells {
		if v >= 0 && v <= Spike {
			count[v]++
		}
	}
	in := &Info{
		Players:          count[Player],
		Exits:            count[Exit],
		Diamonds:         count[Diamond],
		Keys:             count[Key],
		Spikes:           count[Spike],
		PlayerLocations:  tilesOf(r, Player, count[Player]),
		ExitLocations:    tilesOf(r, Exit, count[Exit]),
		DiamondReachable: []int{},
		Heuristic:        -1,
		Solution:         []solver.Location{},
		RepairedContent:  r.Rows(),
	}
	in.PlayerOnGround = onGround(r, in.PlayerLocations)
	in.ExitOnGround = onGround(r, in.ExitLocations)
	if in.Players == 1 && in.Exits == 1 && in.Keys == 1 {
		start, err := NewGame(r)
		if err != nil {
			return nil, err
		}
		h, res := Solve(start, d.power)
		in.Heuristic = h
		status := res.Final().Status()
		in.GameStatus = &status
		if res.Won {
			in.Solution = solver.PlayerLocations(res)
			for i := range in.Solution {
				in.Solution[i].X--
				in.Solution[i].Y--
			}
		}
		in.DiamondReachable = make([]int, 0, in.Diamonds)
		for _, dm := range tilesOf(r, Diamond, in.Diamonds) {
			dh, _ := Solve(start.WithTarget(dm[0]+1, dm[1]+1), d.power)
			in.DiamondReachable = append(in.DiamondReachable, dh)
		}
	}
	return in, nil
}

// Game is the start of a content's game as Info plays it: the repaired level, padded.
func (d *DDave) Game(c problems.Content) (State, error) {
	g, err := d.grid(c)
	if err != nil {
		return State{}, err
	}
	repairInPlace(g)
	return NewGame(g)
}

func (d *DDave) area() float64 { return float64(d.width * d.height) }

func (d *DDave) Quality(info problems.Info) float64 {
	in := info.(*Info)
	a := d.area()
	player := shape.Reward(float64(in.Players), 0, 1, 1, a)
	onGround := shape.Reward4(float64(in.PlayerOnGround+in.ExitOnGround), 0, float64(in.Players+in.Exits), a)
	exit := shape.Reward(float64(in.Exits), 0, 1, 1, a)
	key := shape.Reward(float64(in.Keys), 0, 1, 1, a)
	spikes := shape.Reward(float64(in.Spikes), 0, 0, float64(2*max(d.width, d.height)), a)
	stats := (player + onGround + exit + key + spikes) / 5.0
	play, diamonds := 0.0, 0.0
	if player == 1 && exit == 1 && key == 1 && in.GameStatus != nil {
		play += shape.Reward(float64(in.Heuristic), 0, 0, 0, a)
		play += shape.Reward4(float64(in.NumJumps), 0, float64(d.jumps), float64(max(d.width, d.height)))
		play /= 2.0
		for _, dh := range in.DiamondReachable {
			diamonds += shape.Reward(float64(dh), 0, 0, 0, a)
		}
		if in.Diamonds == 0 {
			diamonds = 1.0
		} else {
			diamonds /= float64(in.Diamonds)
		}
		diamonds += shape.Reward(float64(in.Diamonds), 0, 0, float64(min(d.width, d.height)), a)
		diamonds /= 2.0
	}
	return (stats + play + diamonds) / 3.0
}

// heatMapCells bounds the levels whose two heat maps fit on the stack.
const heatMapCells = 256

// Diversity compares the two solutions' heat maps (visits per cell, both shifted by the
// smallest x and y over the two paths), directly and with the first one mirrored left-right,
// and keeps the smaller summed difference.
func (d *DDave) Diversity(a, b problems.Info) float64 {
	s1, s2 := a.(*Info).Solution, b.(*Info).Solution
	w, n := d.width, d.width*d.height
	var stack [2 * heatMapCells]int32
	var p1, p2 []int32
	if n <= heatMapCells {
		p1, p2 = stack[:n], stack[heatMapCells:heatMapCells+n]
	} else {
		p1, p2 = make([]int32, n), make([]int32, n)
	}
	minX, minY := 0, 0
	if len(s1)+len(s2) > 0 {
		minX, minY = w, d.height
		for _, s := range [2][]solver.Location{s1, s2} {
			for _, l := range s {
				minX, minY = min(minX, l.X), min(minY, l.Y)
			}
		}
	}
	for _, l := range s1 {
		p1[(l.Y-minY)*w+l.X-minX]++
	}
	for _, l := range s2 {
		p2[(l.Y-minY)*w+l.X-minX]++
	}
	direct, mirrored := 0, 0
	for y := 0; y < d.height; y++ {
		row := y * w
		for x := 0; x < w; x++ {
			v := p2[row+x]
			direct += shape.Abs(int(p1[row+x] - v))
			mirrored += shape.Abs(int(p1[row+w-1-x] - v))
		}
	}
	diff := min(direct, mirrored)
	return shape.Reward4(float64(diff), 0, d.diversity*float64(d.width+d.height), d.area())
}

func (d *DDave) Controllability(info problems.Info, control problems.Control) float64 {
	in := info.(*Info)
	sx, sy := problems.ControlInt(control, "sx"), problems.ControlInt(control, "sy")
	ex, ey := problems.ControlInt(control, "ex"), problems.ControlInt(control, "ey")
	nearest := func(locs [][2]int, x, y int) int {
		best := d.width * d.height
		for _, l := range locs {
			best = min(best, shape.Abs(x-l[0])+shape.Abs(y-l[1]))
		}
		return best
	}
	startError := nearest(in.PlayerLocations, sx, sy)
	exitError := nearest(in.ExitLocations, ex, ey)
	diamondError := shape.Abs(problems.ControlInt(control, "diamonds") - in.Diamonds)
	side := float64(d.width + d.height)
	return (shape.Reward(float64(startError), 0, 0, 0, side) +
		shape.Reward(float64(exitError), 0, 0, 0, side) +
		shape.Reward(float64(diamondError), 0, 0, 0, d.area())) / 3.0
}

func (d *DDave) Render(c problems.Content) (image.Image, error) {
	g, err := d.grid(c)
	if err != nil {
		return nil, err
	}
	return renderContent(Repair(g)), nil
}

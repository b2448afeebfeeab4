package mdungeons

import (
	"fmt"
	"image"
	"slices"

	"pcgwb/problems"
	"pcgwb/problems/shape"
	"pcgwb/problems/solver"
	"pcgwb/problems/space"
)

var (
	open        = shape.TileRange(Empty, Ogre)
	layoutTiles = shape.TilesOf(Solid, Empty)
	enemyTiles  = shape.TilesOf(Goblin, Ogre)
)

func init() {
	problems.MustRegister("mdungeons-v0", problems.Params{"width": 8, "height": 12, "enemies": 8}, New)
	problems.MustRegister("mdungeons-enemies-v0", problems.Params{"width": 8, "height": 12, "enemies": 16}, New)
	problems.MustRegister("mdungeons-large-v0", problems.Params{"width": 16, "height": 24, "enemies": 16, "solver": 10000}, New)
}

var (
	_ problems.Problem   = (*MDungeons)(nil)
	_ problems.Describer = (*MDungeons)(nil)
)

// MDungeons is one variant of the problem.
type MDungeons struct {
	width, height int
	// enemies is the number of enemies quality wants close to the solution path.
	enemies int
	// power is the iteration budget of each of the four agents.
	power int
	// diversity is the mixed solution/layout distance at which two levels count as fully
	// diverse.
	diversity float64
	// treasureError and lengthError are the half-widths of the controllability plateaus.
	treasureError, lengthError float64
	content                    space.Space
	control                    space.Space
}

// Info is what quality, diversity and controllability read; its JSON is the reference's info.
type Info struct {
	Regions int `json:"regions"`
	Players int `json:"players"`
	Exits   int `json:"exits"`
	// Layout counts the solid and empty tiles.
	Layout int `json:"layout"`
	// Heuristic is -1 when the level was not played (not one region, player and exit), 0 when
	// the agents won, else the heuristic of the BFS agent's best node.
	Heuristic int `json:"heuristic"`
	// Solution is the winning path in padded coordinates (content coordinates + 1): the
	// player's position before each move with the move, then the final position with the move
	// {0, 0}.
	Solution       []solver.Location `json:"solution"`
	Content        [][]int           `json:"content"`
	Potions        int               `json:"potions"`
	Treasures      int               `json:"treasures"`
	Enemies        int               `json:"enemies"`
	SolutionLength int               `json:"solution_length"`
	// EnemiesLoc are the goblins and ogres in scan order, as content [x, y].
	EnemiesLoc [][2]int `json:"enemies_loc"`
	// GameStatus is the final state's status record; nil (and absent from the JSON) when the
	// level was not played.
	*GameStatus

	// cells is the content, row-major, for the Hamming part of diversity.
	cells []int8
	// events is the solution's event string (see Events), computed once here because
	// diversity needs it for every pair.
	events string
}

// New builds a variant from its registry parameters (width, height, enemies; optional solver,
// diversity).
func New(p problems.Params) (problems.Problem, error) {
	w, h := p.Int("width", 0), p.Int("height", 0)
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("mdungeons: width and height must be positive (got %d×%d)", w, h)
	}
	if w*h > MaxItems || (w+2)*(h+2) > maxCells {
		return nil, fmt.Errorf("mdungeons: a %d×%d level is too large for the solver's state encoding", w, h)
	}
	m := &MDungeons{
		width:     w,
		height:    h,
		enemies:   p.Int("enemies", 0),
		power:     p.Int("solver", 5000),
		diversity: p.Float("diversity", 0.4),
	}
	m.treasureError = max(0.2*float64(w+h), 1)
	m.lengthError = max(0.5*float64(m.enemies), 1)
	m.content = space.Grid(h, w, 8)
	m.control = space.Dict{
		{Key: "col_treasures", Space: space.Int{Min: 0, Max: w + h}},
		{Key: "solution_length", Space: space.Int{Min: 2 * m.enemies, Max: w * h / 2}},
	}
	return m, nil
}

func (m *MDungeons) ContentSpace() space.Space { return m.content }
func (m *MDungeons) ControlSpace() space.Space { return m.control }

func (m *MDungeons) Description() string {
	return fmt.Sprintf("MiniDungeons on a %d×%d map: a top-down roguelike room where the hero "+
		"(5 health) walks to the exit, drinking potions (+2), taking treasure and fighting "+
		"the goblins (1 damage) and ogres (2 damage) in the way. Quality asks for one connected "+
		"area with one hero and one exit, at least %d enemies, at least half the map walls and "+
		"floor, a level the built-in agents (A* three ways, then breadth-first, %d steps each) "+
		"can finish in at least %d moves, and %d enemies on or near that route. Diversity mixes "+
		"how differently the two solutions fight and loot with how many tiles differ. The "+
		"controls ask for the treasures collected (±%g) and the solution length (±%g).",
		m.width, m.height, m.enemies, m.power, m.enemies+1, m.enemies, m.treasureError, m.lengthError)
}

func (m *MDungeons) grid(c problems.Content) (shape.Grid, error) {
	return shape.GridSized("mdungeons", c, m.width, m.height)
}

func (m *MDungeons) Info(c problems.Content) (problems.Info, error) {
	g, err := m.grid(c)
	if err != nil {
		return nil, err
	}
	in := &Info{
		Regions:    shape.Regions(g, open),
		Layout:     shape.Count(g, layoutTiles),
		Heuristic:  -1,
		Solution:   []solver.Location{},
		Content:    g.Rows(),
		EnemiesLoc: make([][2]int, 0, shape.Count(g, enemyTiles)),
		cells:      make([]int8, len(g.Cells)),
	}
	for i, v := range g.Cells {
		in.cells[i] = int8(v)
		switch v {
		case Player:
			in.Players++
		case Exit:
			in.Exits++
		case Potion:
			in.Potions++
		case Treasure:
			in.Treasures++
		case Goblin, Ogre:
			in.EnemiesLoc = append(in.EnemiesLoc, [2]int{i % g.W, i / g.W})
		}
	}
	in.Enemies = len(in.EnemiesLoc)
	if in.Regions == 1 && in.Players == 1 && in.Exits == 1 {
		start, err := NewGame(g)
		if err != nil {
			return nil, err
		}
		h, r := Solve(start, m.power)
		in.Heuristic = h
		status := r.Final().Status()
		in.GameStatus = &status
		if r.Won {
			in.Solution = solver.PlayerLocations(r)
			in.events = Events(start, r.Actions)
		}
	}
	in.SolutionLength = len(in.Solution)
	return in, nil
}

// Game is the start of a content's game as Info plays it (the level padded with solid).
func (m *MDungeons) Game(c problems.Content) (State, error) {
	g, err := m.grid(c)
	if err != nil {
		return State{}, err
	}
	return NewGame(g)
}

func (m *MDungeons) area() float64 { return float64(m.width * m.height) }

func (m *MDungeons) Quality(info problems.Info) float64 {
	in := info.(*Info)
	a := m.area()
	regions := shape.Reward(float64(in.Regions), 0, 1, 1, a/10)
	player := shape.Reward(float64(in.Players), 0, 1, 1, a)
	exit := shape.Reward(float64(in.Exits), 0, 1, 1, a)
	enemies := shape.Reward4(float64(in.Enemies), 0, float64(m.enemies), a)
	layout := shape.Reward4(float64(in.Layout), 0, a/2, a)
	stats := (player + exit + regions + enemies + layout) / 5.0
	solution, near := 0.0, 0.0
	if player == 1 && exit == 1 && regions == 1 {
		solution += shape.Reward(float64(in.Heuristic), 0, 0, 0, a*a)
		solution += shape.Reward4(float64(len(in.Solution)), 0, float64(m.enemies+2), a*a)
		solution /= 2.0
		near = shape.Reward(float64(m.enemyDistance(in)), 0, 0, 0, float64(m.enemies*(m.width+m.height)))
	}
	return (stats + solution + near) / 3.0
}

// enemyDistance sums, over the enemies nearest to the solution path (as many as the variant
// asks for), each one's Manhattan distance to the closest point of the path (width+height when
// there is no path).
func (m *MDungeons) enemyDistance(in *Info) int {
	var stack [64]int
	dist := stack[:0]
	for _, e := range in.EnemiesLoc {
		best := -1
		for _, l := range in.Solution {
			d := shape.Abs(l.X-e[0]-1) + shape.Abs(l.Y-e[1]-1)
			if best < 0 || d < best {
				best = d
			}
		}
		if best < 0 {
			best = m.width + m.height
		}
		dist = append(dist, best)
	}
	slices.Sort(dist)
	sum := 0
	for _, d := range dist[:min(len(dist), m.enemies)] {
		sum += d
	}
	return sum
}

// Diversity mixes the solutions' event strings (difflib's ratio, which is not symmetric, so
// neither is this) with the fraction of differing tiles.
func (m *MDungeons) Diversity(a, b problems.Info) float64 {
	i1, i2 := a.(*Info), b.(*Info)
	differ := 0
	for i, v := range i1.cells {
		if v != i2.cells[i] {
			differ++
		}
	}
	hamming := float64(differ) / m.area()
	seq := 1 - shape.Ratio(i1.events, i2.events)
	return shape.Reward4(seq*0.8+hamming*0.2, 0, m.diversity, 1.0)
}

// DiversityKernel prepares the event strings' difflib indexes once for a set, and reads the
// cells without an interface conversion per pair (problems.DiversityKerneler).
func (m *MDungeons) DiversityKernel(infos []problems.Info) func() func(i, j int) float64 {
	if len(infos) == 0 {
		return nil
	}
	in := make([]*Info, len(infos))
	events := make([]string, len(infos))
	for i, x := range infos {
		in[i] = x.(*Info)
		events[i] = in[i].events
	}
	cells := shape.NewPackedBytes(len(infos), len(in[0].cells))
	for i, x := range in {
		if !shape.PackRow(cells, i, x.cells) {
			return nil
		}
	}
	area := m.area()
	return problems.RatioKernel(events, func(i, j int, ratio float64) float64 {
		hamming := float64(cells.Differ(i, j)) / area
		seq := 1 - ratio
		return shape.Reward4(seq*0.8+hamming*0.2, 0, m.diversity, 1.0)
	})
}

func (m *MDungeons) Controllability(info problems.Info, control problems.Control) float64 {
	in := info.(*Info)
	if in.Heuristic == -1 || in.GameStatus == nil {
		return 0.0
	}
	ct := float64(problems.ControlInt(control, "col_treasures"))
	cs := float64(problems.ControlInt(control, "solution_length"))
	treasures := shape.Reward4(float64(in.ColTreasures), 0, ct-m.treasureError, ct+m.treasureError)
	length := shape.Reward4(float64(in.SolutionLength), 0, cs-m.lengthError, cs+m.lengthError)
	return (treasures + length) / 2.0
}

func (m *MDungeons) Render(c problems.Content) (image.Image, error) {
	g, err := m.grid(c)
	if err != nil {
		return nil, err
	}
	return renderContent(g), nil
}

package arcade

import (
	"fmt"
	"image"
	"math"
	"math/bits"

	"pcgwb/problems"
	"pcgwb/problems/shape"
	"pcgwb/problems/space"
)

func init() {
	problems.MustRegister("arcade-v0", problems.Params{"width": 7, "height": 7}, New)
	problems.MustRegister("arcade-wide-v0", problems.Params{"width": 15, "height": 7}, New)
	problems.MustRegister("arcade-large-v0", problems.Params{"width": 15, "height": 15}, New)
}

var (
	_ problems.Problem        = (*Arcade)(nil)
	_ problems.Describer      = (*Arcade)(nil)
	_ problems.ControlSampler = (*Arcade)(nil)
)

// Arcade is one variant of the problem.
type Arcade struct {
	width, height int
	// diversity is the share of the W×H cells whose visits must differ for full diversity (the
	// reference's bounds make full diversity unreachable, see Diversity).
	diversity float64
	// safety: the do-nothing agent should survive this share of the time limit; minToDeath:
	// the random agent should die before this share; minToWin: the MCTS agent should need at
	// least this share to win.
	safety, minToDeath, minToWin float64
	// grid is the fixed evaluation level (1 = empty), layout its padded form for the engine.
	grid    shape.Grid
	layout  *Layout
	content space.Space
	control space.Space
	// games remembers the recent games by what they depend on (gameKey): a search's mutants
	// often differ from their parent only in content the games never read (the start of a
	// piece beyond its colour's count or on a wall, the behaviour or rules of an absent
	// colour), and the three agents' games are nearly all of an evaluation's cost.
	games gameMemo
}

// Pos is an unpadded position.
type Pos struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Info is what quality, diversity and controllability read; its JSON is the reference's info.
type Info struct {
	Player Pos   `json:"player"`
	Red    []Pos `json:"red"`
	Green  []Pos `json:"green"`
	Yellow []Pos `json:"yellow"`
	// The three agents' games, empty when the player starts on a wall.
	DoNothing Trace `json:"do_nothing"`
	Random    Trace `json:"random"`
	FlatMCTS  Trace `json:"flat_mcts"`
	// MaxTime is the time limit (0 when the games were not played).
	MaxTime int `json:"max_time"`

	// seen[c] marks the cells where a live piece of colour c stood in any state of any game;
	// visits counts the MCTS player's states per cell (unpadded, row-major).
	seen   [Colours]cellSet
	visits []int16
}

// cellSet is a bitset over the at most 15×15 cells.
type cellSet [4]uint64

func (s *cellSet) add(i int) { s[i>>6] |= 1 << (i & 63) }

// New builds a variant from its registry parameters (width, height; optional diversity,
// safety, minToDeath, minToWin).
func New(p problems.Params) (problems.Problem, error) {
	w, h := p.Int("width", 0), p.Int("height", 0)
	if w <= 0 || h <= 0 || w*h > 64*len(cellSet{}) {
		return nil, fmt.Errorf("arcade: width and height must be positive with at most %d cells (got %d×%d)", 64*len(cellSet{}), w, h)
	}
	a := &Arcade{
		width:      w,
		height:     h,
		diversity:  p.Float("diversity", 0.25),
		safety:     p.Float("safety", 0.15),
		minToDeath: p.Float("minToDeath", 0.4),
		minToWin:   p.Float("minToWin", 0.75),
	}
	a.grid = fixedLayout(w, h)
	a.layout = NewLayout(a.grid)
	a.content = contentSpace(w, h)
	a.control = space.Grid(h, w, 2)
	return a, nil
}

// fixedLayout is the level every rule set is tested on: two horizontal walls a quarter from
// the top and bottom, and wall stubs from both sides at mid-height.
func fixedLayout(w, h int) shape.Grid {
	g := shape.NewGrid(w, h)
	for i := range g.Cells {
		g.Cells[i] = 1
	}
	fw, fh := float64(w), float64(h)
	for x := int(math.Ceil(0.25 * fw)); x < int(math.Floor(fw-0.25*fw)); x++ {
		g.Set(x, int(math.Floor(0.25*fh)), 0)
		g.Set(x, int(math.Ceil(fh-0.25*fh-1)), 0)
	}
	for x := 0; x < int(math.Floor(0.3*fw)); x++ {
		g.Set(x, int(0.5*fh), 0)
		g.Set(w-x-1, int(0.5*fh), 0)
	}
	return g
}

func contentSpace(w, h int) space.Space {
	d := space.Dict{
		{Key: "x", Space: space.Int{Min: 0, Max: w}},
		{Key: "y", Space: space.Int{Min: 0, Max: h}},
		{Key: "seed", Space: space.Int{Min: 0, Max: 1000000}},
		{Key: "win", Space: space.Int{Min: 0, Max: WinRules}},
	}
	for _, c := range [...]string{"red", "yellow", "green"} {
		d = append(d,
			space.Field{Key: c, Space: space.Int{Min: 0, Max: Behaviours}},
			space.Field{Key: c + "Start", Space: space.Dict{
				{Key: "num", Space: space.Int{Min: 0, Max: MaxPieces + 1}},
				{Key: "x", Space: space.Array{Dims: []int{MaxPieces}, Leaf: space.Int{Min: 0, Max: w}}},
				{Key: "y", Space: space.Array{Dims: []int{MaxPieces}, Leaf: space.Int{Min: 0, Max: h}}},
			}})
	}
	for _, k := range ruleKeys {
		d = append(d, space.Field{Key: k.name, Space: space.Dict{
			{Key: "action", Space: space.Int{Min: 0, Max: Actions}},
			{Key: "score", Space: space.Int{Min: 0, Max: len(points)}},
		}})
	}
	return d
}

func (a *Arcade) ContentSpace() space.Space { return a.content }
func (a *Arcade) ControlSpace() space.Space { return a.control }

func (a *Arcade) Description() string {
	return fmt.Sprintf("Rules for a tiny arcade game (after Togelius's automatic game design), played on a fixed "+
		"%d×%d level. A content sets the player's start, a random seed, a win rule (survive %d steps or "+
		"reach 5, 10 or 20 points), a behaviour and up to four start positions for each of three colours "+
		"(still, flicker, random walks, wander, chase, flee), and what happens when two things meet "+
		"(who dies, how many points). Three agents play every rule set: one that does nothing, a random "+
		"one and a flat Monte-Carlo search. Quality asks for games that can be won and lost, where "+
		"doing nothing survives a while, random play dies early, and the search agent wins only late. "+
		"Diversity compares where the pieces and the player went. The control is a %d×%d grid of "+
		"allowed cells for the start positions.",
		a.width, a.height, 40, a.width, a.height)
}

// Layout is the fixed evaluation level (unpadded, 1 = empty).
func (a *Arcade) Layout() shape.Grid { return a.grid.Clone() }

// Engine prepares a game of a content's rules on the evaluation level.
func (a *Arcade) Engine(c problems.Content) (*Engine, error) {
	r, err := ParseRules(c)
	if err != nil {
		return nil, err
	}
	if !a.grid.In(r.X, r.Y) {
		return nil, fmt.Errorf("arcade: player start %d,%d is outside the %d×%d level", r.X, r.Y, a.width, a.height)
	}
	for col := range r.Starts {
		for i := 0; i < r.Starts[col].Num; i++ {
			if !a.grid.In(r.Starts[col].X[i], r.Starts[col].Y[i]) {
				return nil, fmt.Errorf("arcade: %s start %d is outside the level", colourNames[col], i)
			}
		}
	}
	return NewEngine(r, a.layout), nil
}

func (a *Arcade) Info(c problems.Content) (problems.Info, error) {
	e, err := a.Engine(c)
	if err != nil {
		return nil, err
	}
	r := e.Rules
	info := &Info{
		Player:    Pos{r.X, r.Y},
		DoNothing: Trace{},
		Random:    Trace{},
		FlatMCTS:  Trace{},
		visits:    make([]int16, a.width*a.height),
	}
	for col, list := range [...]*[]Pos{&info.Red, &info.Green, &info.Yellow} {
		st := r.Starts[col]
		*list = make([]Pos, st.Num)
		for i := range *list {
			(*list)[i] = Pos{st.X[i], st.Y[i]}
		}
	}
	if a.grid.At(r.X, r.Y) == 1 {
		key := a.gameKey(r)
		g, ok := a.games.get(key)
		if !ok {
			g = games{RunGame(e, DoNothing{}), RunGame(e, NewRandomAgent(r.Seed)), RunGame(e, NewFlatMCTS(r.Seed))}
			a.games.put(key, g)
		}
		// The traces are shared with other infos of the same games: they are never changed.
		info.DoNothing, info.Random, info.FlatMCTS = g[0], g[1], g[2]
		info.MaxTime = e.MaxTime
	}
	for _, t := range [...]Trace{info.DoNothing, info.Random, info.FlatMCTS} {
		for _, s := range t {
			for col := 0; col < Colours; col++ {
				for i := 0; i < int(s.State.Count[col]); i++ {
					if o := s.State.Pieces[col][i]; o.Alive {
						info.seen[col].add((int(o.Y)-1)*a.width + int(o.X) - 1)
					}
				}
			}
		}
	}
	for _, s := range info.FlatMCTS {
		info.visits[(int(s.State.Player.Y)-1)*a.width+int(s.State.Player.X)-1]++
	}
	return info, nil
}

func (a *Arcade) Quality(info problems.Info) float64 {
	in := info.(*Info)
	stats := 0.0
	maxTime := float64(in.MaxTime)
	if a.grid.At(in.Player.X, in.Player.Y) == 1 && len(in.DoNothing) > 0 {
		last := func(t Trace) Step { return t[len(t)-1] }
		n, r, m := last(in.DoNothing), last(in.Random), last(in.FlatMCTS)
		canLose := shape.B2F(n.Lose || r.Lose || m.Lose)
		canWin := shape.B2F(n.Win || r.Win || m.Win)
		survival := canWin
		if survival == 0 {
			survival = shape.Reward3(float64(len(in.FlatMCTS)), 0, maxTime+2)
		}
		safety := shape.Reward4(float64(len(in.DoNothing)), 0, a.safety*maxTime, maxTime+1)
		stats = (1 + canLose + canWin + survival + safety) / 5.0
	}
	death := 0.0
	if stats >= 1 {
		doNothing := shape.Reward4(float64(len(in.DoNothing)), 0, a.safety*maxTime, maxTime+1)
		random := shape.Reward(float64(len(in.Random)), 0, 0, a.minToDeath*maxTime, maxTime+1)
		death = (doNothing + random) / 2.0
	}
	winValue, challenge := 0.0, 0.0
	if death >= 1 {
		win := func(t Trace) float64 { return shape.B2F(t[len(t)-1].Win) }
		winValue = shape.Reward3(2*win(in.FlatMCTS)-win(in.Random)-win(in.DoNothing), -2, 2)
		challenge = shape.Reward4(float64(len(in.FlatMCTS)), 0, a.minToWin*maxTime, maxTime+1)
	}
	return (stats + winValue + challenge + death) / 4.0
}

// Diversity counts the cells where only one of the two rule sets ever had a live piece of a
// colour, and the cells the MCTS player visited a different number of times, and rewards half
// their sum v. The reference passes width and height as the plateau's end and the upper bound
// of its range reward, after a plateau start of 0.25·W·H: the plateau is never reached, so
// the value is v/(0.25·W·H) for 0 < v < H and 0 otherwise (for 7×7 at most 6.5/12.25), and two
// very different games score 0. Only the greedy set procedure ever gives an item 1.
func (a *Arcade) Diversity(x, y problems.Info) float64 {
	i1, i2 := x.(*Info), y.(*Info)
	obj := 0
	for c := 0; c < Colours; c++ {
		for k := range i1.seen[c] {
			obj += bits.OnesCount64(i1.seen[c][k] ^ i2.seen[c][k])
		}
	}
	play := 0
	for k := range i1.visits {
		if i1.visits[k] != i2.visits[k] {
			play++
		}
	}
	return shape.Reward(float64(obj+play)/2.0, 0, a.diversity*float64(a.width)*float64(a.height),
		float64(a.width), float64(a.height))
}

func (a *Arcade) Controllability(info problems.Info, control problems.Control) float64 {
	in := info.(*Info)
	allowed := func(p Pos) bool {
		rows, _ := control.([]any)
		if p.Y < 0 || p.Y >= len(rows) {
			return false
		}
		row, _ := rows[p.Y].([]any)
		if p.X < 0 || p.X >= len(row) {
			return false
		}
		switch v := row[p.X].(type) {
		case int:
			return v == 1
		case float64:
			return v == 1
		}
		return false
	}
	player := shape.B2F(allowed(in.Player))
	value, total := 0.0, 0.0
	for _, list := range [...][]Pos{in.Red, in.Yellow, in.Green} {
		for _, p := range list {
			if allowed(p) {
				value++
			}
			total++
		}
	}
	if total == 0 {
		return 1.0
	}
	return (value/total + player) / 2.0
}

// SampleControl draws a grid whose allowed cells form one connected region, like the
// reference's sampler (which redraws random grids and stamps symmetric wall strokes until the
// open cells connect; its stream is not reproducible, so any connected grid will do).
func (a *Arcade) SampleControl(r space.Rand) problems.Control {
	for {
		g := shape.NewGrid(a.width, a.height)
		for i := range g.Cells {
			g.Cells[i] = 1
		}
		strokes := 2 + r.IntN(max(1, min(a.width, a.height)/2))
		for s := 0; s < strokes; s++ {
			horizontal := r.IntN(2) == 1
			length := 1 + r.IntN(max(2, max(a.width, a.height)/2))
			x, y := r.IntN(max(1, a.width/2)), r.IntN(max(1, a.height/2))
			for i := 0; i < length; i++ {
				px, py := x, y+i
				if horizontal {
					px, py = x+i, y
				}
				if px >= (a.width+1)/2 || py >= (a.height+1)/2 {
					break
				}
				// Four-fold mirror symmetry, as in the reference's quadrant stamping.
				g.Set(px, py, 0)
				g.Set(a.width-1-px, py, 0)
				g.Set(px, a.height-1-py, 0)
				g.Set(a.width-1-px, a.height-1-py, 0)
			}
		}
		if shape.Regions(g, shape.TilesOf(1)) == 1 {
			return shape.GridContent(g)
		}
	}
}

func (a *Arcade) Render(c problems.Content) (image.Image, error) {
	r, err := ParseRules(c)
	if err != nil {
		return nil, err
	}
	return renderRules(r), nil
}

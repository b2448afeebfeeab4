package smb

import (
	"fmt"
	"image"
	"math"

	"pcgwb/problems"
	"pcgwb/problems/data"
	"pcgwb/problems/shape"
	"pcgwb/problems/smb/engine"
	"pcgwb/problems/space"
)

func init() {
	for _, v := range []struct {
		name  string
		width int
	}{
		{"smb-v0", 150},
		{"smb-medium-v0", 100},
		{"smb-small-v0", 50},
		{"smb-scene-v0", 16},
	} {
		if err := problems.RegisterEntry(problems.Entry{
			Name:      v.name,
			Params:    problems.Params{"width": v.width},
			New:       New,
			Available: data.Need(data.SMBSlices),
		}); err != nil {
			panic(err)
		}
	}
}

// New builds a slice-based variant from its registry parameters (width; optional empty 0.5,
// fenemies 0.1, solver, timer, diversity 0.4). It loads the slice library on first use.
func New(p problems.Params) (problems.Problem, error) {
	lib, err := Slices()
	if err != nil {
		return nil, err
	}
	w := p.Int("width", 150)
	if w < 1 {
		return nil, fmt.Errorf("smb: width must be positive, got %d", w)
	}
	return NewProblem(Variant{
		Params:  p,
		Content: space.Array{Dims: []int{w}, Leaf: space.Int{Min: 0, Max: len(lib)}},
		Level: func(c problems.Content) ([]string, float64, error) {
			ids, err := sliceIDs(c, w, len(lib))
			if err != nil {
				return nil, 0, err
			}
			zeros := 0
			for _, id := range ids {
				if id == 0 {
					zeros++
				}
			}
			return SliceRows(ids, lib), float64(zeros) / float64(len(ids)), nil
		},
		Description: fmt.Sprintf("Super Mario Bros (slices): a level of %d vertical slices cut from the original "+
			"game, between a start and a flag. Good levels have whole two-tile pipes, rows no noisier than "+
			"the original's, at least half flat empty slices, enemies standing on solid ground, and can be "+
			"finished by a scripted runner or, failing that, an A* agent. Controls: the enemies killed, "+
			"jumps made and coins collected on the way.", w),
	})
}

func sliceIDs(c problems.Content, w, n int) ([]int, error) {
	l, ok := c.([]any)
	if !ok || len(l) != w {
		return nil, fmt.Errorf("smb: content is not a list of %d slice ids", w)
	}
	ids := make([]int, w)
	for i, v := range l {
		id, ok := v.(int)
		if !ok || id < 0 || id >= n {
			return nil, fmt.Errorf("smb: content[%d] = %v is not a slice id in [0, %d)", i, v, n)
		}
		ids[i] = id
	}
	return ids, nil
}

// SliceRows builds the level rows of a slice level: three empty slices (slice 0) on each side,
// Mario in the second column and the flag in the second to last, on row 13.
func SliceRows(ids []int, lib []string) []string {
	w := len(ids) + 2*Padding
	rows := make([]string, Rows)
	buf := make([]byte, w)
	for y := range rows {
		for x := 0; x < w; x++ {
			switch {
			case x == 1 && y == Rows-3:
				buf[x] = 'M'
			case x == w-2 && y == Rows-3:
				buf[x] = 'F'
			default:
				id := 0
				if x >= Padding && x < w-Padding {
					id = ids[x-Padding]
				}
				buf[x] = lib[id][y]
			}
		}
		rows[y] = string(buf)
	}
	return rows
}

// Variant is one Mario problem on the shared engine and measures: the slice version (this
// package) and the tile version (package smbtile) differ only in their content, how it becomes
// level rows, what counts as empty, and whether an enemy on the bottom row floats.
type Variant struct {
	// Params are the registry parameters: width, optionally height (tile version), empty,
	// fenemies, solver, timer and diversity.
	Params  problems.Params
	Content space.Space
	// Level turns a normalized content into the 16 level rows and the fraction of its values
	// that are empty (slice 0, or sky).
	Level func(problems.Content) (rows []string, empty float64, err error)
	// Tiles marks the tile version: its info has a height and an enemy on the bottom row
	// floats.
	Tiles       bool
	Description string
}

// Problem is a Mario variant.
type Problem struct {
	v               Variant
	width, height   int
	empty, fenemies float64
	solver          float64
	timer           int
	diversity       float64
	// Allowed errors of the controls: a tenth of each control's upper bound.
	errEnemies, errJumps, errCoins int
	control                        space.Dict
}

// NewProblem builds a variant.
func NewProblem(v Variant) (*Problem, error) {
	p := v.Params
	w := p.Int("width", 150)
	pr := &Problem{
		v:         v,
		width:     w,
		height:    Rows,
		empty:     p.Float("empty", 0.5),
		fenemies:  p.Float("fenemies", 0.1),
		solver:    p.Float("solver", 100/float64(b2i(w < 30)+1)),
		timer:     p.Int("timer", int(math.Ceil(float64(w)/10))),
		diversity: p.Float("diversity", 0.4),
	}
	if v.Tiles {
		pr.height = p.Int("height", Rows)
		if pr.height != Rows {
			return nil, fmt.Errorf("smbtile: height must be %d (one noise allowance per row), got %d", Rows, pr.height)
		}
	}
	enemies, jumps, coins := max(2, w/7), max(2, w/5), max(2, w/10)
	pr.control = space.Dict{
		{Key: "enemies", Space: space.Int{Min: 0, Max: enemies}},
		{Key: "jumps", Space: space.Int{Min: 0, Max: jumps}},
		{Key: "coins", Space: space.Int{Min: 0, Max: coins}},
	}
	pr.errEnemies = int(0.1 * float64(enemies))
	pr.errJumps = int(0.1 * float64(jumps))
	pr.errCoins = int(0.1 * float64(coins))
	return pr, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (p *Problem) ContentSpace() space.Space { return p.v.Content }
func (p *Problem) ControlSpace() space.Space { return p.control }
func (p *Problem) Description() string       { return p.v.Description }

// Rows are the 16 level rows of a content, with the start and the flag.
func (p *Problem) Rows(c problems.Content) ([]string, error) {
	rows, _, err := p.v.Level(c)
	return rows, err
}

// Level is the playable level of a content, for playing it by hand or replaying a trace
// (engine.NewGame, engine.Replay with Timer()).
func (p *Problem) Level(c problems.Content) (*engine.Level, error) {
	rows, err := p.Rows(c)
	if err != nil {
		return nil, err
	}
	return engine.ParseLevel(Text(rows))
}

// Timer is the game time in seconds (ceil(width/10) unless given).
func (p *Problem) Timer() int { return p.timer }

// Solver is the A* agent's expansion budget per search.
func (p *Problem) Solver() float64 { return p.solver }

// Info is the reference's info. Height is written only by the tile version.
type Info struct {
	Width     int           `json:"width"`
	Height    int           `json:"height,omitempty"`
	Tube      int           `json:"tube"`
	Empty     float64       `json:"empty"`
	Noise     [Rows]float64 `json:"noise"`
	FEnemies  float64       `json:"fenemies"`
	Complete  float64       `json:"complete"`
	Enemies   int           `json:"enemies"`
	Coins     int           `json:"coins"`
	Jumps     int           `json:"jumps"`
	Actions   []int         `json:"actions"`
	Locations [][2]float64  `json:"locations"`
	// Agent is which agent's run was kept ("" when the level was not played).
	Agent string `json:"-"`
}

// Agent names of Info.Agent.
const (
	AgentScripted = "scripted"
	AgentAStar    = "astar"
)

func (p *Problem) Info(c problems.Content) (problems.Info, error) {
	rows, empty, err := p.v.Level(c)
	if err != nil {
		return nil, err
	}
	in := &Info{
		Width:     p.width,
		Tube:      tubeIssues(rows),
		Empty:     empty,
		Noise:     noise(rows),
		Actions:   []int{},
		Locations: [][2]float64{},
	}
	if p.v.Tiles {
		in.Height = p.height
	}
	if in.FEnemies, err = floatingEnemies(rows, p.v.Tiles); err != nil {
		return nil, fmt.Errorf("%s: %w", p.name(), err)
	}
	quiet := true
	for _, n := range in.Noise {
		quiet = quiet && n == 0
	}
	if !(in.Empty > p.empty && in.Tube == 0 && quiet && in.FEnemies < p.fenemies) {
		return in, nil
	}
	level, err := engine.ParseLevel(Text(rows))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name(), err)
	}
	res := engine.Run(level, p.timer, engine.Scripted{})
	in.Agent = AgentScripted
	if res.Completion < 1 {
		// The A* run replaces the scripted one even when it gets less far.
		res = engine.Run(level, p.timer, engine.NewAStar(p.solver, 8))
		in.Agent = AgentAStar
	}
	in.Complete = res.Completion
	in.Enemies = max(0, res.Kills-res.FallKills)
	in.Coins = res.Coins
	in.Jumps = res.Jumps
	in.Actions = make([]int, len(res.Steps))
	in.Locations = make([][2]float64, len(res.Steps))
	for i, s := range res.Steps {
		in.Actions[i] = int(s.Actions)
		in.Locations[i] = [2]float64{s.X, s.Y}
	}
	if in.Agent == AgentScripted && len(res.Steps) > 0 {
		// The reference's scripted agent hands out one mutable action list, so every recorded
		// step shows the last action.
		last := in.Actions[len(in.Actions)-1]
		for i := range in.Actions {
			in.Actions[i] = last
		}
	}
	return in, nil
}

func (p *Problem) name() string {
	if p.v.Tiles {
		return "smbtile"
	}
	return "smb"
}

func (p *Problem) Quality(info problems.Info) float64 {
	in := info.(*Info)
	tube := shape.Reward(float64(in.Tube), 0, 0, 0, 10)
	empty := shape.Reward4(in.Empty, 0, p.empty, 1)
	fen := shape.Reward(in.FEnemies, 0, 0, p.fenemies, 1)
	noise := 0.0
	if empty >= 1 && tube >= 1 {
		for _, n := range in.Noise {
			noise += shape.Reward(n, 0, 0, 0, 1)
		}
	}
	noise /= 16
	return (tube + empty + noise + fen + float64(4*in.Complete)) / 8.0
}

// Diversity compares where Mario went: each location counts in a 16×16 grid of tiles (x is
// clamped to column 15 like y, as in the reference, so everything right of the first screen
// shares one column), and the summed difference per location is rewarded up to the diversity
// threshold.
func (p *Problem) Diversity(a, b problems.Info) float64 {
	ia, ib := a.(*Info), b.(*Info)
	total := len(ia.Locations) + len(ib.Locations)
	if total == 0 {
		return 0
	}
	var grid [Rows][Rows]int
	cell := func(l [2]float64) (int, int) {
		return max(0, min(15, int(l[0]/16))), max(0, min(15, int(l[1]/16)))
	}
	for _, l := range ia.Locations {
		x, y := cell(l)
		grid[y][x]++
	}
	for _, l := range ib.Locations {
		x, y := cell(l)
		grid[y][x]--
	}
	sum := 0
	for y := range grid {
		for _, v := range grid[y] {
			sum += max(v, -v)
		}
	}
	return shape.Reward4(float64(sum)/float64(total), 0, p.diversity, 1.0)
}

func (p *Problem) Controllability(info problems.Info, control problems.Control) float64 {
	in := info.(*Info)
	ctl, _ := control.(map[string]any)
	reward := func(v int, key string, e int) float64 {
		c := controlInt(ctl[key])
		return shape.Reward(float64(v), 0, float64(max(0, c-e)), float64(c+e), 100)
	}
	return (reward(in.Enemies, "enemies", p.errEnemies) + reward(in.Jumps, "jumps", p.errJumps) +
		reward(in.Coins, "coins", p.errCoins)) / 3.0
}

func controlInt(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case float64:
		return int(x)
	}
	return 0
}

func (p *Problem) Render(c problems.Content) (image.Image, error) {
	rows, err := p.Rows(c)
	if err != nil {
		return nil, err
	}
	return RenderRows(rows), nil
}

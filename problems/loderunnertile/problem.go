package loderunnertile

import (
	"fmt"
	"image"
	"math/bits"

	"pcgwb/problems"
	"pcgwb/problems/data"
	"pcgwb/problems/shape"
	"pcgwb/problems/space"
)

func init() {
	RegisterVariants("loderunnertile", 32, 21, New, data.Need(data.LodeRunnerLevels))
}

// RegisterVariants registers a Lode Runner problem's three variants, as the reference names
// them: prefix-v0 (6 gold, 3 enemies), prefix-gold-v0 (18 gold) and prefix-enemies-v0 (12
// enemies), all width×height and available when available says so.
func RegisterVariants(prefix string, width, height int, ctor problems.Constructor, available func() error) {
	for _, v := range []struct {
		suffix        string
		gold, enemies int
	}{
		{"-v0", 6, 3},
		{"-gold-v0", 18, 3},
		{"-enemies-v0", 6, 12},
	} {
		if err := problems.RegisterEntry(problems.Entry{
			Name:      prefix + v.suffix,
			Params:    problems.Params{"width": width, "height": height, "gold": v.gold, "enemies": v.enemies},
			New:       ctor,
			Available: available,
		}); err != nil {
			panic(err)
		}
	}
}

// ContentGrid reads a content that must be rows × cols tiles; a content of another size is an
// error that names the problem ("loderunner: content is 10×16, want 11×16", rows × columns).
func ContentGrid(problem string, c problems.Content, rows, cols int) (shape.Grid, error) {
	g, err := shape.GridFromContent(c)
	if err != nil {
		return shape.Grid{}, err
	}
	if g.W != cols || g.H != rows {
		return shape.Grid{}, fmt.Errorf("%s: content is %d×%d, want %d×%d", problem, g.H, g.W, rows, cols)
	}
	return g, nil
}

// New builds a Lode Runner Tile variant: the content is the level without its bottom row,
// which is always brick.
func New(p problems.Params) (problems.Problem, error) {
	w, h := p.Int("width", 32), p.Int("height", 21)
	return NewProblem(Variant{
		Params:  p,
		Content: space.Grid(h, w, NumTiles),
		Level: func(c problems.Content) (shape.Grid, error) {
			g, err := ContentGrid("loderunnertile", c, h, w)
			if err != nil {
				return shape.Grid{}, err
			}
			for _, t := range g.Cells {
				if t < 0 || t >= NumTiles {
					return shape.Grid{}, fmt.Errorf("loderunnertile: tile %d is not in [0, %d)", t, NumTiles)
				}
			}
			// One more row of brick below the content.
			g.Cells = append(g.Cells, make([]int, w)...)
			g.H++
			return g, nil
		},
		Description: "Lode Runner (tiles): a 21×32 map of brick, empty, player, gold, enemy, ladder and rope " +
			"over a floor of brick. Good levels have one player, the target gold and enemies, let the " +
			"player reach a fifth of the map and all the gold, use their ladders, ropes and floors, and " +
			"move like the original levels. Controls: the number of ladder and rope tiles.",
	})
}

// Variant is one Lode Runner problem on the shared engine: the pattern version (package
// loderunner) and the tile version differ only in their content and how it becomes a level.
type Variant struct {
	// Params are the registry parameters: width, height, gold, enemies, and optionally
	// exploration (0.2), islands (0.1), decorations (0.75), used_tiles (0.75), diversity (0.4).
	Params  problems.Params
	Content space.Array
	// Level turns a normalized content into the playable level (the bottom row is brick).
	Level       func(problems.Content) (shape.Grid, error)
	Description string
}

// Problem is a Lode Runner variant.
type Problem struct {
	v   Variant
	ref *Distributions
	// Registry width and height: the quality, diversity and controllability scale with W*H,
	// and the floor-use scan covers rows 0..H-1 (all but the added brick row in the tile version).
	w, h                  int
	gold, enemies         int
	target, islands       float64
	decorations, usedGoal float64
	diversity             float64
	cerror                int
	control               space.Dict
}

// NewProblem builds a variant; it loads the reference distributions on first use.
func NewProblem(v Variant) (*Problem, error) {
	ref, err := ReferenceDistributions()
	if err != nil {
		return nil, err
	}
	p := v.Params
	pr := &Problem{
		v:           v,
		ref:         ref,
		w:           p.Int("width", 32),
		h:           p.Int("height", 22),
		gold:        p.Int("gold", 6),
		enemies:     p.Int("enemies", 3),
		target:      p.Float("exploration", 0.2),
		islands:     p.Float("islands", 0.1),
		decorations: p.Float("decorations", 0.75),
		usedGoal:    p.Float("used_tiles", 0.75),
		diversity:   p.Float("diversity", 0.4),
	}
	// Python evaluates these products left to right: (0.02 * width) * height.
	pr.cerror = max(int(0.02*float64(pr.w)*float64(pr.h)), 1)
	limit := int(0.2 * float64(pr.w) * float64(pr.h))
	pr.control = space.Dict{
		{Key: "ladder", Space: space.Int{Min: 0, Max: limit}},
		{Key: "rope", Space: space.Int{Min: 0, Max: limit}},
	}
	// The content's histograms are compared entry by entry with the reference ones, so the
	// level must have the shipped levels' size (the reference would fail to broadcast).
	if lv, err := v.Level(v.Content.Sample(zeroRand{})); err != nil {
		return nil, err
	} else if lv.W != len(ref.Walking) || lv.H != len(ref.Climbing) {
		return nil, fmt.Errorf("lode runner: levels are %d×%d, the reference levels %d×%d",
			lv.H, lv.W, len(ref.Climbing), len(ref.Walking))
	}
	return pr, nil
}

// zeroRand samples the smallest value of every leaf (used to probe the level size).
type zeroRand struct{}

func (zeroRand) IntN(int) int     { return 0 }
func (zeroRand) Float64() float64 { return 0 }

func (p *Problem) ContentSpace() space.Space { return p.v.Content }
func (p *Problem) ControlSpace() space.Space { return p.control }
func (p *Problem) Description() string       { return p.v.Description }

// Level is the playable level of a content.
func (p *Problem) Level(c problems.Content) (shape.Grid, error) { return p.v.Level(c) }

// Info is the reference's info, keys in its order.
type Info struct {
	Empty         int     `json:"empty"`
	Player        int     `json:"player"`
	Gold          int     `json:"gold"`
	Enemy         int     `json:"enemy"`
	Ladder        int     `json:"ladder"`
	Rope          int     `json:"rope"`
	Islands       int     `json:"islands"`
	Exploration   Map     `json:"exploration"`
	CollectedGold int     `json:"collected_gold"`
	UsedTiles     int     `json:"used_tiles"`
	Tiles         int     `json:"tiles"`
	Walking       float64 `json:"walking"`
	Hanging       float64 `json:"hanging"`
	Climbing      float64 `json:"climbing"`
	Falling       float64 `json:"falling"`

	explored int // cells with exploration > 0
}

func (p *Problem) Info(c problems.Content) (problems.Info, error) {
	lv, err := p.v.Level(c)
	if err != nil {
		return nil, err
	}
	return p.analyse(lv), nil
}

func (p *Problem) analyse(lv shape.Grid) *Info {
	var counts [NumTiles]int
	for _, t := range lv.Cells {
		counts[t]++
	}
	in := &Info{
		Empty: counts[Empty], Player: counts[Player], Gold: counts[Gold], Enemy: counts[Enemy],
		Ladder: counts[Ladder], Rope: counts[Rope],
		Islands: islands(lv),
	}
	if in.Player == 1 {
		in.Exploration = Explore(lv)
		e := in.Exploration
		for y := 0; y < p.h && y < lv.H; y++ {
			for x := 0; x < p.w && x < lv.W; x++ {
				switch t := lv.At(x, y); {
				case t == Brick && y > 0 && lv.At(x, y-1) != Brick:
					// A floor: used if the player stands on it.
					in.Tiles++
					if e.At(x, y-1) > 0 {
						in.UsedTiles++
					}
				case t == Ladder || t == Rope:
					in.Tiles++
					if e.At(x, y) > 0 {
						in.UsedTiles++
					}
				}
			}
		}
		for i, t := range lv.Cells {
			if t == Gold && e.Cells[i] > 0 {
				in.CollectedGold++
			}
		}
	} else {
		in.Exploration = Map{W: lv.W, H: lv.H, Cells: make([]uint8, len(lv.Cells))}
	}
	for _, v := range in.Exploration.Cells {
		if v > 0 {
			in.explored++
		}
	}
	d := histograms(in.Exploration.Grid())
	d.each(func(v *[]float64) { scale(*v, max(1, sum(*v))) })
	in.Walking = JSDistance(d.Walking, p.ref.Walking)
	in.Hanging = JSDistance(d.Hanging, p.ref.Hanging)
	in.Climbing = JSDistance(d.Climbing, p.ref.Climbing)
	in.Falling = JSDistance(d.Falling, p.ref.Falling)
	return in
}

// islands counts 1-D runs: brick and rope along rows, ladders down columns.
func islands(lv shape.Grid) int {
	n := 0
	for y := 0; y < lv.H; y++ {
		prev := -1
		for x := 0; x < lv.W; x++ {
			t := lv.At(x, y)
			if t != prev && (t == Brick || t == Rope) {
				n++
			}
			prev = t
		}
	}
	for x := 0; x < lv.W; x++ {
		prev := -1
		for y := 0; y < lv.H; y++ {
			t := lv.At(x, y)
			if t == Ladder && prev != Ladder {
				n++
			}
			prev = t
		}
	}
	return n
}

func (p *Problem) area() float64 { return float64(p.w * p.h) }

func (p *Problem) Quality(info problems.Info) float64 {
	in := info.(*Info)
	a := p.area()
	w, h := float64(p.w), float64(p.h)
	stats := shape.Reward(float64(in.Player), 0, 1, 1, a)
	stats += shape.Reward(float64(in.Gold), 0, float64(p.gold), float64(2*p.gold), a)
	stats += shape.Reward(float64(in.Enemy), 0, float64(p.enemies), float64(2*p.enemies), a)
	stats /= 3.0

	exploration := 0.0
	if stats >= 1 {
		exploration = shape.Reward4(float64(in.explored), 0, float64(int(p.target*w*h)), a)
	}
	play := 0.0
	if exploration >= 1 {
		play = float64(in.CollectedGold) / float64(in.Gold)
		if in.Tiles > 0 {
			play += shape.Reward4(float64(in.UsedTiles)/float64(in.Tiles), 0, p.usedGoal, 1.0)
		}
		play /= 2.0
	}
	decoration := 0.0
	if play >= 1 {
		decoration = 0.9*(in.Walking+in.Hanging+in.Climbing) + 0.1*in.Falling
		decoration = shape.Reward4(decoration, 0, p.decorations, 1)
		decoration += shape.Reward(float64(in.Islands), 0, 0, p.islands*w*h, a/2)
		decoration /= 2
	}
	return (stats + exploration + play + decoration) / 4
}

// Diversity counts, per exploration value, the cells where exactly one of the two maps has it.
func (p *Problem) Diversity(a, b problems.Info) float64 {
	ea, eb := a.(*Info).Exploration.Cells, b.(*Info).Exploration.Cells
	var n [Falling + 1]int
	for i := range ea {
		if x, y := ea[i], eb[i]; x != y {
			n[x]++
			n[y]++
		}
	}
	v := 0.3*float64(n[Walking]+n[Climbing]+n[Hanging]) + 0.1*float64(n[Falling])
	w, h := float64(p.w), float64(p.h)
	return shape.Reward4(v, 0, p.diversity*w*h, p.area())
}

// DiversityKernel keeps a set's exploration maps as one bitset per exploration value
// (problems.DiversityKerneler): the counts of each value where two maps differ are then word
// operations.
func (p *Problem) DiversityKernel(infos []problems.Info) func() func(i, j int) float64 {
	if len(infos) == 0 {
		return nil
	}
	length := len(infos[0].(*Info).Exploration.Cells)
	planes := shape.NewValuePlanes(len(infos), length, Falling+1)
	for i, in := range infos {
		if c := in.(*Info).Exploration.Cells; len(c) != length || !shape.PlaneRow(planes, i, c) {
			return nil
		}
	}
	w, h := float64(p.w), float64(p.h)
	return func() func(i, j int) float64 {
		return func(i, j int) float64 {
			var n [Falling + 1]int
			a, b := planes.Row(i), planes.Row(j)
			for k := 0; k+Falling < len(a) && k+Falling < len(b); k += Falling + 1 {
				x, y := a[k:k+Falling+1], b[k:k+Falling+1]
				differ := (x[Walking] ^ y[Walking]) | (x[Climbing] ^ y[Climbing]) | (x[Hanging] ^ y[Hanging]) | (x[Falling] ^ y[Falling])
				for v := Walking; v <= Falling; v++ {
					n[v] += bits.OnesCount64(differ&x[v]) + bits.OnesCount64(differ&y[v])
				}
			}
			v := 0.3*float64(n[Walking]+n[Climbing]+n[Hanging]) + 0.1*float64(n[Falling])
			return shape.Reward4(v, 0, p.diversity*w*h, p.area())
		}
	}
}

func (p *Problem) Controllability(info problems.Info, control problems.Control) float64 {
	in := info.(*Info)
	a, e := p.area(), p.cerror
	l, r := problems.ControlInt(control, "ladder"), problems.ControlInt(control, "rope")
	ladder := shape.Reward(float64(in.Ladder), 0, float64(l-e), float64(l+e), a)
	rope := shape.Reward(float64(in.Rope), 0, float64(r-e), float64(r+e), a)
	return (ladder + rope) / 2
}

func (p *Problem) Render(c problems.Content) (image.Image, error) {
	lv, err := p.v.Level(c)
	if err != nil {
		return nil, err
	}
	return RenderLevel(lv), nil
}

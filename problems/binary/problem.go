package binary

import (
	"fmt"
	"image"

	"pcgwb/problems"
	"pcgwb/problems/shape"
	"pcgwb/problems/space"
)

// Tile values of the content.
const (
	Solid = 0
	Empty = 1
)

var emptyTiles = shape.TilesOf(Empty)

func init() {
	problems.MustRegister("binary-v0", problems.Params{"width": 14, "height": 14}, New)
	problems.MustRegister("binary-wide-v0", problems.Params{"width": 28, "height": 14}, New)
	problems.MustRegister("binary-large-v0", problems.Params{"width": 28, "height": 28}, New)
}

var (
	_ problems.Problem   = (*Binary)(nil)
	_ problems.Describer = (*Binary)(nil)
)

// Binary is one variant of the problem.
type Binary struct {
	width, height int
	// target is the path length quality asks for (default width + height).
	target int
	// cerror is the half-width of the controllability plateau.
	cerror int
	// diversity is the fraction of differing tiles at which two levels count as fully diverse.
	diversity float64
	content   space.Space
	control   space.Space
}

// Info is what quality, diversity and controllability read; its JSON is the reference's info.
type Info struct {
	// Path is the longest shortest path over empty tiles (double-sweep estimate).
	Path int `json:"path"`
	// Regions is the number of 4-connected empty regions.
	Regions int `json:"regions"`
	// Flat is the content in row-major order.
	Flat []int `json:"flat"`
}

// New builds a variant from its registry parameters (width, height; optional path, diversity).
func New(p problems.Params) (problems.Problem, error) {
	w, h := p.Int("width", 0), p.Int("height", 0)
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("binary: width and height must be positive (got %d×%d)", w, h)
	}
	b := &Binary{
		width:     w,
		height:    h,
		target:    p.Int("path", w+h),
		diversity: p.Float("diversity", 0.4),
	}
	b.cerror = max(int(float64(b.target)*0.25), 1)
	b.content = space.Grid(h, w, 2)
	b.control = space.Dict{{Key: "path", Space: space.Int{Min: b.target + b.cerror, Max: w * h / 2}}}
	return b, nil
}

func (b *Binary) ContentSpace() space.Space { return b.content }
func (b *Binary) ControlSpace() space.Space { return b.control }

func (b *Binary) Description() string {
	return fmt.Sprintf("A %d×%d maze of solid and empty tiles. Quality rewards a single connected "+
		"empty region whose longest shortest path reaches %d tiles. Diversity is the fraction of "+
		"tiles that differ (%.0f%% counts as fully different). The control \"path\" asks for a "+
		"longest path of that length (±%d).",
		b.width, b.height, b.target, b.diversity*100, b.cerror)
}

func (b *Binary) grid(c problems.Content) (shape.Grid, error) {
	return shape.GridSized("binary", c, b.width, b.height)
}

func (b *Binary) Info(c problems.Content) (problems.Info, error) {
	g, err := b.grid(c)
	if err != nil {
		return nil, err
	}
	return &Info{
		Path:    shape.LongestPath(g, emptyTiles),
		Regions: shape.Regions(g, emptyTiles),
		Flat:    g.Cells,
	}, nil
}

func (b *Binary) area() float64 { return float64(b.width * b.height) }

func (b *Binary) Quality(info problems.Info) float64 {
	in := info.(*Info)
	regions := shape.Reward(float64(in.Regions), 0, 1, 1, b.area()/10)
	path := shape.Reward4(float64(in.Path), 0, float64(b.target), b.area())
	return (regions + path) / 2
}

func (b *Binary) Diversity(x, y problems.Info) float64 {
	a, c := x.(*Info).Flat, y.(*Info).Flat
	hamming := 0
	for i := range a {
		if a[i] != c[i] {
			hamming++
		}
	}
	// Same operand order as the reference: (diversity * width) * height.
	return shape.Reward4(float64(hamming), 0, b.diversity*float64(b.width)*float64(b.height), b.area())
}

// DiversityKernel packs the tiles of a set eight to a word once (problems.DiversityKerneler):
// the Hamming distance of two levels is then a few word operations.
func (b *Binary) DiversityKernel(infos []problems.Info) func() func(i, j int) float64 {
	if len(infos) == 0 {
		return nil
	}
	cells := shape.NewPackedBytes(len(infos), len(infos[0].(*Info).Flat))
	for i, in := range infos {
		if !shape.PackRow(cells, i, in.(*Info).Flat) {
			return nil
		}
	}
	return func() func(i, j int) float64 {
		return func(i, j int) float64 {
			return shape.Reward4(float64(cells.Differ(i, j)), 0, b.diversity*float64(b.width)*float64(b.height), b.area())
		}
	}
}

func (b *Binary) Controllability(info problems.Info, control problems.Control) float64 {
	target := problems.ControlInt(control, "path")
	return shape.Reward(float64(info.(*Info).Path), 0,
		float64(target-b.cerror), float64(target+b.cerror), b.area())
}

func (b *Binary) Render(c problems.Content) (image.Image, error) {
	g, err := b.grid(c)
	if err != nil {
		return nil, err
	}
	return render(g), nil
}

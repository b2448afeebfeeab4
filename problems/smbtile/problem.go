package smbtile

import (
	"fmt"

	"pcgwb/problems"
	"pcgwb/problems/smb"
	"pcgwb/problems/space"
)

// Symbols are the level characters of the content values 0..9: sky, ground, solid block,
// brick, coin block, pipe, coin, goomba, koopa, spiky.
const Symbols = "-X#SQtogky"

func init() {
	for _, v := range []struct {
		name  string
		width int
	}{
		{"smbtile-v0", 150},
		{"smbtile-medium-v0", 100},
		{"smbtile-small-v0", 50},
		{"smbtile-scene-v0", 16},
	} {
		problems.MustRegister(v.name, problems.Params{"width": v.width}, New)
	}
}

// New builds a tile variant from its registry parameters (width; optional height 16, empty
// 0.5, fenemies 0.1, solver, timer, diversity 0.4).
func New(p problems.Params) (problems.Problem, error) {
	w, h := p.Int("width", 150), p.Int("height", smb.Rows)
	if w < 1 || h < 1 {
		return nil, fmt.Errorf("smbtile: width and height must be positive, got %d×%d", w, h)
	}
	return smb.NewProblem(smb.Variant{
		Params:  p,
		Content: space.Grid(h, w, len(Symbols)),
		Level: func(c problems.Content) ([]string, float64, error) {
			g, err := grid(c, w, h)
			if err != nil {
				return nil, 0, err
			}
			zeros := 0
			for _, row := range g {
				for _, v := range row {
					if v == 0 {
						zeros++
					}
				}
			}
			return Rows(g), float64(zeros) / float64(w*h), nil
		},
		Tiles: true,
		Description: fmt.Sprintf("Super Mario Bros (tiles): a %d×%d map of sky, ground, solid and brick blocks, "+
			"coin blocks, pipes, coins, goombas, koopas and spikies between a start and a flag. Good levels "+
			"have whole two-tile pipes, rows no noisier than the original game's, at least half sky, enemies "+
			"standing on solid tiles, and can be finished by a scripted runner or, failing that, an A* agent. "+
			"Controls: the enemies killed, jumps made and coins collected on the way.", h, w),
	})
}

func grid(c problems.Content, w, h int) ([][]int, error) {
	rows, ok := c.([]any)
	if !ok || len(rows) != h {
		return nil, fmt.Errorf("smbtile: content is not %d rows", h)
	}
	g := make([][]int, h)
	for y, r := range rows {
		cells, ok := r.([]any)
		if !ok || len(cells) != w {
			return nil, fmt.Errorf("smbtile: content row %d is not %d tiles", y, w)
		}
		g[y] = make([]int, w)
		for x, v := range cells {
			t, ok := v.(int)
			if !ok || t < 0 || t >= len(Symbols) {
				return nil, fmt.Errorf("smbtile: content[%d][%d] = %v is not a tile in [0, %d)", y, x, v, len(Symbols))
			}
			g[y][x] = t
		}
	}
	return g, nil
}

// Rows builds the level rows of a tile map: three columns of sky on each side with ground
// under them (the last two rows), Mario in the second column and the flag in the second to
// last, on the third row from the bottom.
func Rows(g [][]int) []string {
	h := len(g)
	w := 0
	if h > 0 {
		w = len(g[0]) + 2*smb.Padding
	}
	rows := make([]string, h)
	buf := make([]byte, w)
	for y := range rows {
		for x := 0; x < w; x++ {
			pad := x < smb.Padding || x >= w-smb.Padding
			switch {
			case pad && y > h-3:
				buf[x] = 'X'
			case x == 1 && y == h-3:
				buf[x] = 'M'
			case x == w-2 && y == h-3:
				buf[x] = 'F'
			case pad:
				buf[x] = Symbols[0]
			default:
				buf[x] = Symbols[g[y][x-smb.Padding]]
			}
		}
		rows[y] = string(buf)
	}
	return rows
}

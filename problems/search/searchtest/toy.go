// Package searchtest provides a tiny, fast problem for testing generators, runs and the CLI
// without depending on a real problem's cost: importing it registers ToyName.
package searchtest

import (
	"errors"
	"image"
	"image/color"
	"math"
	"sync/atomic"

	"pcgwb/problems"
	"pcgwb/problems/space"
)

// ToyName is the registered name of the toy problem.
const ToyName = "searchtoy-v0"

// Toy is a 4×4 grid of bits: quality grows with the number of ones (1 from 12 on), the control
// asks for a number of ones, diversity is the Hamming distance (1 from 4 differing bits on).
type Toy struct {
	// Infos counts Info calls.
	Infos atomic.Int64
	// OnInfo, if set, is called with the running count at every Info call.
	OnInfo func(n int64)
}

// ToyInfo is the toy's info.
type ToyInfo struct {
	Ones int   `json:"ones"`
	Rows int   `json:"full_rows"`
	Flat []int `json:"flat"`
}

// ToySide is the grid's side.
const ToySide = 4

func (p *Toy) ContentSpace() space.Space { return space.Grid(ToySide, ToySide, 2) }

func (p *Toy) ControlSpace() space.Space {
	return space.Dict{{Key: "ones", Space: space.Int{Min: 4, Max: 13}}}
}

func (p *Toy) Info(c problems.Content) (problems.Info, error) {
	n := p.Infos.Add(1)
	if p.OnInfo != nil {
		p.OnInfo(n)
	}
	rows, ok := c.([]any)
	if !ok {
		return nil, errors.New("not a grid")
	}
	info := &ToyInfo{}
	for _, r := range rows {
		full := true
		for _, v := range r.([]any) {
			b := v.(int)
			info.Ones += b
			info.Flat = append(info.Flat, b)
			full = full && b == 1
		}
		if full {
			info.Rows++
		}
	}
	return info, nil
}

func (p *Toy) Quality(info problems.Info) float64 {
	return math.Min(1, float64(info.(*ToyInfo).Ones)/12)
}

func (p *Toy) Diversity(a, b problems.Info) float64 {
	x, y := a.(*ToyInfo), b.(*ToyInfo)
	d := 0
	for i := range x.Flat {
		if x.Flat[i] != y.Flat[i] {
			d++
		}
	}
	return math.Min(1, float64(d)/4)
}

func (p *Toy) Controllability(info problems.Info, control problems.Control) float64 {
	m, _ := control.(map[string]any)
	want, _ := m["ones"].(int)
	return math.Max(0, 1-math.Abs(float64(info.(*ToyInfo).Ones-want))/8)
}

func (p *Toy) Render(c problems.Content) (image.Image, error) {
	img := image.NewGray(image.Rect(0, 0, ToySide, ToySide))
	rows, _ := c.([]any)
	for y, r := range rows {
		for x, v := range r.([]any) {
			img.SetGray(x, y, color.Gray{Y: uint8(255 * v.(int))})
		}
	}
	return img, nil
}

func init() {
	problems.MustRegister(ToyName, nil, func(problems.Params) (problems.Problem, error) { return &Toy{}, nil })
}

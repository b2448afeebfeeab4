package building

import (
	"fmt"
	"image"
	"math/bits"
	"sync"

	"pcgwb/problems"
	"pcgwb/problems/shape"
	"pcgwb/problems/space"
)

func init() {
	for _, v := range []struct {
		name             string
		w, l, h, nBlocks int
	}{
		{"building-v0", 7, 7, 12, 40},
		{"building-large-v0", 11, 11, 12, 180},
		{"building-tall-v0", 7, 7, 24, 80},
		{"building-huge-v0", 11, 11, 24, 360},
	} {
		problems.MustRegister(v.name, problems.Params{"width": v.w, "length": v.l, "height": v.h, "blocks": v.nBlocks}, New)
	}
}

// typeKeys are the control keys and info counters, one per block type, in the reference's order.
var typeKeys = [numTypes]string{"1x1", "1x3", "3x1", "3x3"}

// Problem is one Building variant.
type Problem struct {
	w, l, h int
	// nBlocks is the content length: the number of blocks dropped.
	nBlocks   int
	minHeight float64
	diversity float64
	cerror    int

	content space.Array
	control space.Dict
	towers  sync.Pool
}

// New builds a variant from the registry parameters width, length, height, blocks and the
// optional minHeight (0.4) and diversity (0.4).
func New(p problems.Params) (problems.Problem, error) {
	w, l, h := p.Int("width", 0), p.Int("length", 0), p.Int("height", 0)
	b := &Problem{
		w: w, l: l, h: h,
		nBlocks:   p.Int("blocks", w*l*h/9),
		minHeight: p.Float("minHeight", 0.4),
		diversity: p.Float("diversity", 0.4),
	}
	if _, err := NewTower(w, l, h); err != nil {
		return nil, err
	}
	// A non-square grid would make the reference's axis swap produce masks of another shape
	// (or index out of range); every registered variant is square.
	if w != l {
		return nil, fmt.Errorf("building: width %d and length %d must be equal", w, l)
	}
	if b.nBlocks < 1 {
		return nil, fmt.Errorf("building: blocks must be at least 1, got %d", b.nBlocks)
	}
	// The reference divides by this in quality (ZeroDivisionError when it is 0).
	if b.minHeightRows() < 1 {
		return nil, fmt.Errorf("building: minHeight %v × height %d covers no level", b.minHeight, h)
	}
	b.cerror = max(1, int(0.05*float64(b.nBlocks)))
	b.content = space.Array{Dims: []int{b.nBlocks}, Leaf: space.Dict{
		{Key: "x", Space: space.Int{Min: 0, Max: w}},
		{Key: "y", Space: space.Int{Min: 0, Max: l}},
		{Key: "type", Space: space.Int{Min: 0, Max: numTypes}},
	}}
	for _, k := range typeKeys {
		b.control = append(b.control, space.Field{Key: k, Space: space.Int{Min: 0, Max: b.nBlocks}})
	}
	b.towers.New = func() any {
		t, _ := NewTower(w, l, h)
		return t
	}
	return b, nil
}

func (b *Problem) minHeightRows() int { return int(b.minHeight * float64(b.h)) }

func (b *Problem) ContentSpace() space.Space { return b.content }
func (b *Problem) ControlSpace() space.Space { return b.control }

func (b *Problem) Description() string {
	return fmt.Sprintf("Stack %d falling blocks (1×1, 1×3, 3×1 and 3×3) on a %d×%d lot at most %d levels high. "+
		"Every block must fit under the ceiling, and the building should rise: good designs leave no "+
		"low stubs among their lowest %d levels. Controls ask for a number of blocks of each shape.",
		b.nBlocks, b.w, b.l, b.h, b.minHeightRows())
}

// Mask is one block type's oriented 0/1 volume, H×L×W, as a bitset; it marshals as the
// reference's nested lists.
type Mask struct {
	w, l, h int
	bits    []uint64
}

// At reports whether cell (x, y, z) is set.
func (m Mask) At(x, y, z int) bool {
	i := (z*m.l+y)*m.w + x
	return m.bits[i>>6]>>uint(i&63)&1 != 0
}

func (m Mask) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, 2*m.w*m.l*m.h+4*m.l*m.h+8)
	out = append(out, '[')
	for z := range m.h {
		if z > 0 {
			out = append(out, ',')
		}
		out = append(out, '[')
		for y := range m.l {
			if y > 0 {
				out = append(out, ',')
			}
			out = append(out, '[')
			for x := range m.w {
				if x > 0 {
					out = append(out, ',')
				}
				out = append(out, '0')
				if m.At(x, y, z) {
					out[len(out)-1] = '1'
				}
			}
			out = append(out, ']')
		}
		out = append(out, ']')
	}
	return append(out, ']'), nil
}

// Info is the reference's info dictionary.
type Info struct {
	// Blocks is the number of blocks that landed (content length minus failures).
	Blocks int `json:"blocks"`
	// Heights is the top level of every vertical run of blocks, column by column.
	Heights []int `json:"heights"`
	Lvl1x1  Mask  `json:"lvl_1x1"`
	Lvl1x3  Mask  `json:"lvl_1x3"`
	Lvl3x1  Mask  `json:"lvl_3x1"`
	Lvl3x3  Mask  `json:"lvl_3x3"`
	// Count1x1 … Count3x3 count each type in the content, landed or not.
	Count1x1 int `json:"1x1"`
	Count1x3 int `json:"1x3"`
	Count3x1 int `json:"3x1"`
	Count3x3 int `json:"3x3"`

	// masks holds the four masks back to back, so diversity is one XOR-popcount pass.
	masks []uint64
}

// Counts returns the per-type counts in type order.
func (in *Info) Counts() [numTypes]int {
	return [numTypes]int{in.Count1x1, in.Count1x3, in.Count3x1, in.Count3x3}
}

// Blocks decodes a normalized content.
func (b *Problem) Blocks(c problems.Content) ([]Block, error) {
	list, ok := c.([]any)
	if !ok {
		return nil, fmt.Errorf("building: content is not a list of blocks")
	}
	out := make([]Block, len(list))
	for i, e := range list {
		blk, err := b.block(e)
		if err != nil {
			return nil, fmt.Errorf("building: block %d: %w", i, err)
		}
		out[i] = blk
	}
	return out, nil
}

func (b *Problem) block(e any) (Block, error) {
	m, ok := e.(map[string]any)
	if !ok {
		return Block{}, fmt.Errorf("not an object")
	}
	x, okX := asInt(m["x"])
	y, okY := asInt(m["y"])
	t, okT := asInt(m["type"])
	if !okX || !okY || !okT || x < 0 || x >= b.w || y < 0 || y >= b.l || t < 0 || t >= numTypes {
		return Block{}, fmt.Errorf("x, y, type = %v, %v, %v is outside the %d×%d lot or the 4 types", m["x"], m["y"], m["type"], b.w, b.l)
	}
	return Block{X: x, Y: y, Type: t}, nil
}

func asInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case float64:
		return int(n), n == float64(int(n))
	}
	return 0, false
}

func (b *Problem) Info(c problems.Content) (problems.Info, error) {
	list, ok := c.([]any)
	if !ok {
		return nil, fmt.Errorf("building: content is not a list of blocks")
	}
	t := b.towers.Get().(*Tower)
	defer b.towers.Put(t)
	t.Reset()
	var counts [numTypes]int
	for i, e := range list {
		blk, err := b.block(e)
		if err != nil {
			return nil, fmt.Errorf("building: block %d: %w", i, err)
		}
		counts[blk.Type]++
		t.Drop(blk)
	}
	info := &Info{
		Blocks:   b.nBlocks - t.Failed,
		Heights:  t.Heights(make([]int, 0, t.numRuns())),
		Count1x1: counts[0], Count1x3: counts[1], Count3x1: counts[2], Count3x3: counts[3],
	}
	cells := b.w * b.l * b.h
	words := (cells + 63) / 64
	info.masks = make([]uint64, numTypes*words)
	var boundsArr [4 * maxHeight]int
	masks := [numTypes]*Mask{&info.Lvl1x1, &info.Lvl1x3, &info.Lvl3x1, &info.Lvl3x3}
	for bt := range numTypes {
		dst := info.masks[bt*words : (bt+1)*words]
		t.orientedMask(bt, t.orient(bt, boundsArr[:4*b.h]), dst)
		*masks[bt] = Mask{w: b.w, l: b.l, h: b.h, bits: dst}
	}
	return info, nil
}

func (b *Problem) Quality(i problems.Info) float64 {
	info := i.(*Info)
	target := shape.Reward3(float64(info.Blocks), 0, float64(b.nBlocks))
	minHeight := 0.0
	if target >= 1 {
		// Reward the first low level that has column tops on it by how few tops it holds;
		// every level below it without tops counts fully.
		rows := b.minHeightRows()
		for level := 1; level <= rows; level++ {
			k := 0
			for _, h := range info.Heights {
				if h == level {
					k++
				}
			}
			if k > 0 {
				minHeight += shape.Reward(float64(k), 0, 0, 0, float64(b.w*b.l))
				break
			}
			minHeight++
		}
		minHeight /= float64(rows)
	}
	return (target + minHeight) / 2
}

func (b *Problem) Diversity(a, c problems.Info) float64 {
	x, y := a.(*Info).masks, c.(*Info).masks
	d := 0
	for i := range x {
		d += bits.OnesCount64(x[i] ^ y[i])
	}
	cells := float64(b.w) * float64(b.l) * float64(b.h)
	return shape.Reward4(float64(d), 0, b.diversity*float64(b.w)*float64(b.l)*float64(b.h), cells)
}

func (b *Problem) Controllability(i problems.Info, control problems.Control) float64 {
	info := i.(*Info)
	m, _ := control.(map[string]any)
	counts := info.Counts()
	sum := 0.0
	for t, k := range typeKeys {
		want, _ := asInt(m[k])
		sum += shape.Reward(float64(counts[t]), 0, float64(want-b.cerror), float64(want+b.cerror), float64(b.nBlocks))
	}
	return sum / numTypes
}

// SampleControl draws four counts and rescales them to sum to the number of blocks, giving the
// truncation remainder to one random key, as the reference does. The reference draws that key
// with the control space's own generator, which env.seed never seeds, so its control samples
// are not reproducible; here everything comes from r. Two corner cases differ on purpose: the
// reference divides by zero when all four draws are 0, and can hand the remainder to a key
// that then equals the block count (outside its own control space); both are redrawn here.
func (b *Problem) SampleControl(r space.Rand) problems.Control {
	for {
		var draws [numTypes]int
		sum := 0
		for t := range draws {
			draws[t] = r.IntN(b.nBlocks)
			sum += draws[t]
		}
		if sum == 0 {
			continue
		}
		remaining := b.nBlocks
		for t, v := range draws {
			draws[t] = int(float64(v) / float64(sum) * float64(b.nBlocks))
			remaining -= draws[t]
		}
		draws[r.IntN(numTypes)] += remaining
		out := make(map[string]any, numTypes)
		valid := true
		for t, k := range typeKeys {
			out[k] = draws[t]
			valid = valid && draws[t] < b.nBlocks
		}
		if valid {
			return out
		}
	}
}

func (b *Problem) Render(c problems.Content) (image.Image, error) {
	blocks, err := b.Blocks(c)
	if err != nil {
		return nil, err
	}
	t, _ := NewTower(b.w, b.l, b.h)
	for _, blk := range blocks {
		t.Drop(blk)
	}
	return renderTower(t), nil
}

package classifier

import (
	"context"
	"image"
	"math"
	"math/rand/v2"

	"golang.org/x/image/vector"

	"pcgwb/games/birds"
)

// Training images are made to look like what the network sees at inference: a black shape on
// white, framed the way the evaluator frames a structure (the larger side of its bounding box
// fills the central 824 of 1024 pixels, centred), reduced to 32×32.

// bitmap is a binary picture, row 0 at the top; true is black.
type bitmap struct {
	w, h int
	pix  []bool
}

func newBitmap(w, h int) bitmap { return bitmap{w, h, make([]bool, w*h)} }

func (b bitmap) at(x, y int) bool { return x >= 0 && y >= 0 && x < b.w && y < b.h && b.pix[y*b.w+x] }

func (b bitmap) bounds() (x0, y0, x1, y1 int, ok bool) {
	x0, y0, x1, y1 = b.w, b.h, -1, -1
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			if b.pix[y*b.w+x] {
				x0, y0 = min(x0, x), min(y0, y)
				x1, y1 = max(x1, x), max(y1, y)
			}
		}
	}
	return x0, y0, x1 + 1, y1 + 1, x1 >= 0
}

// Framing geometry at twice the ViT's resolution: the evaluator's 824/1024 inner square.
const (
	superSize  = 2 * ViTSize // 448, 14 × 14 samples per network input pixel
	superInner = superSize * 824.0 / 1024
	superStep  = superSize / InputSize
)

// frameInput frames the bitmap like the evaluator (with optional jitter of the frame's size
// and centre, as fractions of the frame) and writes the network input.
func frameInput(b bitmap, scaleJitter, shiftX, shiftY float64, dst []float32) bool {
	x0, y0, x1, y1, ok := b.bounds()
	if !ok {
		return false
	}
	side := float64(max(x1-x0, y1-y0)) * (1 + scaleJitter)
	cx := float64(x0+x1)/2 + shiftX*side
	cy := float64(y0+y1)/2 + shiftY*side
	var xs, ys [superSize]int
	for i := 0; i < superSize; i++ {
		u := (float64(i) + 0.5 - superSize/2) * side / superInner
		xs[i] = int(math.Floor(cx + u))
		ys[i] = int(math.Floor(cy + u))
	}
	for Y := 0; Y < InputSize; Y++ {
		for X := 0; X < InputSize; X++ {
			black := 0
			for v := 0; v < superStep; v++ {
				sy := ys[Y*superStep+v]
				if sy < 0 || sy >= b.h {
					continue
				}
				row := b.pix[sy*b.w:]
				for u := 0; u < superStep; u++ {
					sx := xs[X*superStep+u]
					if sx >= 0 && sx < b.w && row[sx] {
						black++
					}
				}
			}
			dst[Y*InputSize+X] = 1 - 2*float32(black)/(superStep*superStep)
		}
	}
	return true
}

// morph dilates (r > 0) or erodes (r < 0) with a (2|r|+1)² square.
func morph(b bitmap, r int) bitmap {
	if r == 0 {
		return b
	}
	grow := r > 0
	if r < 0 {
		r = -r
	}
	tmp := newBitmap(b.w, b.h)
	out := newBitmap(b.w, b.h)
	// A pixel outside the bitmap counts as white: erosion eats borders, dilation does not care.
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			v := !grow
			for k := -r; k <= r; k++ {
				if b.at(x+k, y) == grow {
					v = grow
					break
				}
			}
			tmp.pix[y*b.w+x] = v
		}
	}
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			v := !grow
			for k := -r; k <= r; k++ {
				if tmp.at(x, y+k) == grow {
					v = grow
					break
				}
			}
			out.pix[y*b.w+x] = v
		}
	}
	return out
}

// glyphRenderer rasterises glyphs; one per goroutine.
type glyphRenderer struct {
	z   vector.Rasterizer
	buf []uint8
}

// render draws a glyph of the face whose transformed height is hpx pixels, with a margin, and
// thresholds the coverage at tau.
func (gr *glyphRenderer) render(g []seg, m affine, hpx float64, margin int, tau float64) bitmap {
	x0, y0, x1, y1 := glyphBounds(g, m)
	s := hpx / math.Max(y1-y0, 1e-9)
	t := affine{m.a * s, m.b * s, (m.c-x0)*s + float64(margin), m.d * s, m.e * s, (m.f-y0)*s + float64(margin)}
	w := int(math.Ceil((x1-x0)*s)) + 2*margin
	h := int(math.Ceil((y1-y0)*s)) + 2*margin
	w, h = min(max(w, 1), 2048), min(max(h, 1), 2048)
	// The rasterizer's fast path assumes the stride equals the width.
	if cap(gr.buf) < w*h {
		gr.buf = make([]uint8, w*h)
	}
	dst := &image.Alpha{Pix: gr.buf[:w*h], Stride: w, Rect: image.Rect(0, 0, w, h)}
	rasterGlyph(g, t, w, h, &gr.z, dst)
	b := newBitmap(w, h)
	level := uint8(math.Round(tau * 255))
	for y := 0; y < h; y++ {
		row := dst.Pix[y*dst.Stride:]
		for x := 0; x < w; x++ {
			b.pix[y*w+x] = row[x] > level
		}
	}
	return b
}

// glyphTransform is a random distortion in em units: stretch, shear, rotation (degrees).
func glyphTransform(stretch, shear, rotDeg float64) affine {
	r := rotDeg * math.Pi / 180
	c, s := math.Cos(r), math.Sin(r)
	// rotation · shear · stretch
	return affine{
		a: c * stretch, b: c*shear - s,
		d: s * stretch, e: s*shear + c,
	}
}

// FontSampleKind selects how a font glyph is turned into a training image.
type FontSampleKind int

const (
	// Smooth: a glyph at a random size, distorted, thresholded, thinned or thickened.
	Smooth FontSampleKind = iota
	// Blocky: a glyph rasterised on a coarse grid of 5–16 rows, the way blocks draw it.
	Blocky
	// Clean: the glyph undistorted at a large size (held-out evaluation).
	Clean
	// Handwritten: what the competition's classifiers learned from, handwritten capitals at
	// 28×28 (EMNIST-like): the outline bent by a smooth random field (stroke jitter), slanted
	// and rotated, rasterised about 20 pixels high in a 28-pixel box, often thickened.
	Handwritten
)

// jitterGlyph returns the glyph with every outline point moved by a smooth random field of
// two sine waves per axis (amplitude amp in em units, wavelengths of 0.5–2 em): nearby points
// move together, so strokes bend and wobble like a pen's rather than fray.
func jitterGlyph(g []seg, rng *rand.Rand, amp float64) []seg {
	type wave struct{ fx, fy, phase, a float64 }
	var waves [4]wave
	for i := range waves {
		theta := 2 * math.Pi * rng.Float64()
		f := 0.5 + 1.5*rng.Float64()
		waves[i] = wave{f * math.Cos(theta), f * math.Sin(theta), 2 * math.Pi * rng.Float64(), amp * (0.5 + 0.5*rng.Float64()) / math.Sqrt2}
	}
	field := func(p pt) pt {
		var d pt
		for i, w := range waves {
			v := w.a * math.Sin(2*math.Pi*(w.fx*p.x+w.fy*p.y)+w.phase)
			if i%2 == 0 {
				d.x += v
			} else {
				d.y += v
			}
		}
		return pt{p.x + d.x, p.y + d.y}
	}
	out := make([]seg, len(g))
	for i, sg := range g {
		out[i] = sg
		for j := range sg.pts {
			out[i].pts[j] = field(sg.pts[j])
		}
	}
	return out
}

// fontSample renders one training image of a face's letter into dst.
func (gr *glyphRenderer) fontSample(face *Face, letter int, kind FontSampleKind, rng *rand.Rand, dst []float32) bool {
	g := face.Glyphs[letter]
	switch kind {
	case Clean:
		b := gr.render(g, glyphTransform(1, 0, 0), 160, 2, 0.5)
		return frameInput(b, 0, 0, 0, dst)
	case Handwritten:
		gj := jitterGlyph(g, rng, 0.015+0.035*rng.Float64())
		shear := 0.35*rng.Float64() - 0.1 // handwriting leans right more often than left
		m := glyphTransform(math.Exp(rng.Float64()*0.6-0.3), shear, math.Max(-15, math.Min(15, rng.NormFloat64()*6)))
		b := gr.render(gj, m, 20, 4, 0.3+0.3*rng.Float64())
		if rng.Float64() < 0.5 {
			if t := morph(b, 1); hasInk(t) {
				b = t
			}
		}
		if !hasInk(b) {
			return gr.fontSample(face, letter, Smooth, rng, dst)
		}
		return frameInput(b, 0.03*rng.Float64(), 0, 0, dst)
	case Blocky:
		// Coarse grids lose thin strokes or fill counters; such a grid no longer shows the
		// letter, so draw again (finer) rather than teach a blob.
		for try := 0; try < 4; try++ {
			rows := 6 + rng.IntN(11) + 2*try
			m := glyphTransform(math.Exp(rng.Float64()*0.9-0.4), 0, rng.NormFloat64()*2)
			b := gr.render(g, m, float64(rows), 0, 0.35+0.25*rng.Float64())
			if rng.Float64() < 0.1 {
				b = morph(b, 1)
			}
			if fill := inkFill(b); fill > 0 && (fill < 0.72 || letter == 'I'-'A') {
				return frameInput(b, 0.03*rng.Float64(), 0, 0, dst)
			}
		}
		return gr.fontSample(face, letter, Smooth, rng, dst)
	}
	hpx := 24 + 176*rng.Float64()
	shear := 0.0
	if rng.Float64() < 0.4 {
		shear = 0.4*rng.Float64() - 0.2
	}
	rot := math.Max(-12, math.Min(12, rng.NormFloat64()*5))
	m := glyphTransform(math.Exp(rng.Float64()*1.0-0.45), shear, rot)
	radius := int(math.Round((rng.Float64()*0.1 - 0.03) * hpx))
	margin := max(radius, 0) + 2
	b := gr.render(g, m, hpx, margin, 0.35+0.3*rng.Float64())
	if radius != 0 {
		if t := morph(b, radius); hasInk(t) {
			b = t
		}
	}
	return frameInput(b, 0.05*rng.Float64()-0.01, 0.02*rng.NormFloat64(), 0.02*rng.NormFloat64(), dst)
}

// inkFill is the black fraction of the bitmap's bounding box (0 when empty).
func inkFill(b bitmap) float64 {
	x0, y0, x1, y1, ok := b.bounds()
	if !ok {
		return 0
	}
	n := 0
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			if b.pix[y*b.w+x] {
				n++
			}
		}
	}
	return float64(n) / float64((x1-x0)*(y1-y0))
}

// meanInk is the mean darkness of a network input (0 white, 1 black).
func meanInk(in []float32) float64 {
	s := 0.0
	for _, v := range in {
		s += float64(1-v) / 2
	}
	return s / float64(len(in))
}

func hasInk(b bitmap) bool {
	for _, p := range b.pix {
		if p {
			return true
		}
	}
	return false
}

// BlockSample is a block letter built on the grid and rendered by the evaluator's renderer.
type BlockSample struct {
	Letter  int
	Program string
	// Static is the image of the structure as placed (one physics step); Settled the image
	// after the evaluator's 10 s of physics, nil when the structure fell apart.
	Static, Settled []float32
}

// blockSample tries once to build a letter from blocks: a skeleton variant or a coarse font
// glyph as the pattern, the builder's program, the converter, the physics and the renderer.
func (gr *glyphRenderer) blockSample(letter int, faces []*Face, rng *rand.Rand) (*BlockSample, bool) {
	var target [][]bool
	var strokes [][]cell
	if len(faces) > 0 && rng.Float64() < 0.4 {
		face := faces[rng.IntN(len(faces))]
		rows := 7 + rng.IntN(8)
		b := gr.render(face.Glyphs[letter], glyphTransform(math.Exp(rng.Float64()*0.5-0.25), 0, 0), float64(rows), 0, 0.4+0.2*rng.Float64())
		if b.w > birds.GridWidth-1 || b.h > birds.GridHeight {
			return nil, false
		}
		target = make([][]bool, b.h)
		for r := range target {
			target[r] = make([]bool, b.w)
			for c := range target[r] {
				target[r][c] = b.pix[(b.h-1-r)*b.w+c] // bitmap rows go down, grid rows up
			}
		}
	} else {
		vs := skeletons[letter]
		v := vs[rng.IntN(len(vs))]
		w, h := gridDims(letter, rng)
		// Strokes one cell thick, sometimes two or three (a b31 base, doubled columns).
		thick := make([]int, len(v))
		for i := range thick {
			thick[i] = 1
			switch u := rng.Float64(); {
			case u < 0.06 && w >= 8 && h >= 9:
				thick[i] = 3
			case u < 0.3 && w >= 5 && h >= 6:
				thick[i] = 2
			}
		}
		target, strokes = rasterSkeleton(v, w, h, thick, 0.12, rng)
	}
	// Thick strokes on a small grid fill the letter's counters; a block of ink is no letter.
	filled, cells := 0, 0
	for r := range target {
		for _, on := range target[r] {
			cells++
			if on {
				filled++
			}
		}
	}
	if letter != 'I'-'A' && float64(filled) > 0.65*float64(cells) {
		return nil, false
	}
	w := len(target[0])
	x0 := rng.IntN(birds.GridWidth - w + 1)
	prog := buildProgram(target, x0, rng)
	s, err := birds.Convert(prog)
	// The build must be close to the pattern, and keep most of every stroke: an H without its
	// bar is no H. Patterns from glyphs have no strokes; they must be built almost exactly.
	if err != nil || len(s.Placed) < 2 {
		return nil, false
	}
	if iou := cellIoU(s, target); iou < 0.8 || strokes == nil && iou < 0.95 || !strokesKept(s, target, strokes, 0.9) {
		return nil, false
	}
	lv := s.Level()
	static, err := birds.SimulateContext(context.Background(), lv, birds.SimConfig{StabilitySteps: 1, ImageSteps: 1})
	if err != nil {
		return nil, false
	}
	staticMask := birds.Render(static)
	out := &BlockSample{Letter: letter, Program: prog, Static: make([]float32, InputSize*InputSize)}
	PrepareGray(staticMask.Pix, birds.ImageSize, birds.ImageSize, out.Static)
	if letter != 'I'-'A' && meanInk(out.Static) > 0.55 {
		return nil, false // the framed picture is mostly ink
	}
	settled, err := birds.SimulateContext(context.Background(), lv, birds.DefaultSimConfig())
	if err == nil {
		m := birds.Render(settled)
		// Kept only if the letter survived: a settled F that lost its arms is an I.
		if birds.IoU(m, staticMask) >= 0.9 {
			out.Settled = make([]float32, InputSize*InputSize)
			PrepareGray(m.Pix, birds.ImageSize, birds.ImageSize, out.Settled)
		}
	}
	return out, true
}

// RenderFontSample renders one image of a face's letter as the network's input (rng may be nil
// for Clean).
func RenderFontSample(face *Face, letter int, kind FontSampleKind, rng *rand.Rand) ([]float32, bool) {
	if rng == nil {
		rng = rand.New(rand.NewPCG(0, 0))
	}
	var gr glyphRenderer
	dst := make([]float32, InputSize*InputSize)
	return dst, gr.fontSample(face, letter, kind, rng, dst)
}

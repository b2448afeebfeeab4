package classifier

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Stroke jitter moves every outline point by a smooth field bounded by its amplitude: nothing
// at amplitude 0, at most 2·amp (two waves of amp/√2 per axis) otherwise, and the same way for
// the same generator state.
func TestJitterGlyph(t *testing.T) {
	face := goFaces(t)[0]
	for _, tc := range []struct {
		name string
		amp  float64
	}{{"none", 0}, {"light", 0.015}, {"strong", 0.05}} {
		t.Run(tc.name, func(t *testing.T) {
			for l := 0; l < Classes; l++ {
				g := face.Glyphs[l]
				a := jitterGlyph(g, rand.New(rand.NewPCG(1, uint64(l))), tc.amp)
				b := jitterGlyph(g, rand.New(rand.NewPCG(1, uint64(l))), tc.amp)
				if !slices.Equal(a, b) {
					t.Fatalf("%c: not deterministic", 'A'+l)
				}
				moved := 0.0
				for i := range g {
					if a[i].op != g[i].op {
						t.Fatalf("%c: segment %d changed its kind", 'A'+l, i)
					}
					for j := range g[i].pts {
						d := math.Hypot(a[i].pts[j].x-g[i].pts[j].x, a[i].pts[j].y-g[i].pts[j].y)
						moved = math.Max(moved, d)
					}
				}
				if moved > 2*tc.amp+1e-12 {
					t.Errorf("%c: a point moved %.4f em, more than 2×%.3f", 'A'+l, moved, tc.amp)
				}
				if (tc.amp > 0) != (moved > 0) {
					t.Errorf("%c: amplitude %.3f moved points by up to %.4f", 'A'+l, tc.amp, moved)
				}
			}
		})
	}
}

// A zero handwriting share draws exactly the samples it drew before the kind existed (the
// shipped weights stay reproducible from weights.json); a positive share changes the stream.
func TestHandwrittenShare(t *testing.T) {
	faces := goFaces(t)
	draw := func(frac float64, hand []*Face) [][]float32 {
		cfg := DefaultTrainConfig()
		cfg.Faces, cfg.HandFaces, cfg.HandwrittenFrac = faces, hand, frac
		byLetter := make([][]*BlockSample, Classes)
		var gr glyphRenderer
		var out [][]float32
		for i := uint64(0); i < 40; i++ {
			dst := make([]float32, InputSize*InputSize)
			if got := cfg.drawSample(i, byLetter, &gr, dst); got != int(i%Classes) {
				t.Fatalf("sample %d: label %d", i, got)
			}
			out = append(out, dst)
		}
		return out
	}
	base := draw(0, nil)
	for _, tc := range []struct {
		name    string
		frac    float64
		hand    []*Face
		changes bool
	}{
		{"zero share, no handwriting faces", 0, nil, false},
		{"zero share, handwriting faces given", 0, faces[1:], false},
		{"half share", 0.5, faces[1:], true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := draw(tc.frac, tc.hand)
			same := true
			for i := range got {
				same = same && slices.Equal(got[i], base[i])
			}
			if same == tc.changes {
				t.Errorf("samples changed: %v, want %v", !same, tc.changes)
			}
		})
	}
}

package app

import (
	"math"
	"reflect"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/search"
)

func TestFitAxis(t *testing.T) {
	tests := []struct {
		name string
		vals []float64
		bins int
		want heatAxis
	}{
		{"whole numbers get a bin each", []float64{2, 3, 5}, 10, heatAxis{Field: "f", Min: 1.5, Max: 5.5, Bins: 4}},
		{"too many whole numbers", []float64{0, 40}, 10, heatAxis{Field: "f", Min: 0, Max: 40, Bins: 10}},
		{"fractions", []float64{0.25, 0.75}, 5, heatAxis{Field: "f", Min: 0.25, Max: 0.75, Bins: 5}},
		{"one fractional value", []float64{0.5, 0.5}, 5, heatAxis{Field: "f", Min: 0, Max: 1, Bins: 1}},
		{"nothing", nil, 5, heatAxis{Field: "f", Min: 0, Max: 1, Bins: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fitAxis("f", tt.vals, tt.bins); got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
	a := heatAxis{Min: 0, Max: 10, Bins: 5}
	for v, want := range map[float64]int{-3: 0, 0: 0, 1.99: 0, 2: 1, 9.99: 4, 10: 4, 99: 4} {
		if got := a.bin(v); got != want {
			t.Errorf("Bin(%v) = %d, want %d", v, got, want)
		}
	}
	if lo, hi := a.binRange(1); lo != 2 || hi != 4 {
		t.Errorf("BinRange(1) = %v, %v", lo, hi)
	}
}

func membersWith(vals ...[2]float64) []member {
	out := make([]member, len(vals))
	for i, v := range vals {
		out[i] = newMember(i, problems.Scored{Info: map[string]any{"a": v[0], "b": v[1]}, Cell: -1})
	}
	return out
}

func TestExpressiveRangeBinsEveryMember(t *testing.T) {
	ms := membersWith([2]float64{0, 0}, [2]float64{0, 0}, [2]float64{1, 2}, [2]float64{2, 2})
	ms = append(ms, newMember(4, problems.Scored{Info: map[string]any{"a": 1.0}})) // lacks b
	h := expressiveRange(ms, "a", "b", 10)
	if h.x.Bins != 3 || h.y.Bins != 3 || h.skipped != 1 {
		t.Fatalf("axes %+v %+v, skipped %d", h.x, h.y, h.skipped)
	}
	if got := h.members[0]; !reflect.DeepEqual(got, []int{0, 1}) {
		t.Fatalf("cell (0,0) holds %v", got)
	}
	if h.At(0, 0) != 2 || h.At(1, 2) != 1 || h.At(2, 2) != 1 || !math.IsNaN(h.At(1, 1)) {
		t.Fatalf("values %v", h.value)
	}
	if h.filled() != 3 || h.maxValue() != 2 {
		t.Fatalf("filled %d max %v", h.filled(), h.maxValue())
	}
	img := drawHeatmap(h, 8, 0, false)
	if img.Bounds().Dx() != 24 || img.Bounds().Dy() != 24 {
		t.Fatalf("image %v", img.Bounds())
	}
	// y grows upwards: cell (0,0) is bottom left; an empty cell's inside is transparent
	if c := img.RGBAAt(4, 20); c.A != 0xff {
		t.Fatalf("filled cell drawn %v", c)
	}
	if c := img.RGBAAt(12, 12); c.A != 0 {
		t.Fatalf("empty cell (1,1) is not transparent: %v", c)
	}
}

func TestArchiveHeatmap(t *testing.T) {
	v := &search.ArchiveView{Axes: []search.Axis{{Field: "a", Min: 0, Max: 4, Bins: 4}, {Field: "b", Min: 0, Max: 2, Bins: 2}},
		Filled: 2, Cells: []search.Cell{{X: 1, Y: 0, Fitness: 0.5}, {X: 3, Y: 1, Fitness: 1}}}
	ms := []member{newMember(0, problems.Scored{Cell: 1}), newMember(1, problems.Scored{Cell: 7})}
	h := archiveHeatmap(v, ms)
	if h.Cells() != 8 || h.filled() != 2 || h.At(1, 0) != 0.5 || h.At(3, 1) != 1 || !math.IsNaN(h.At(0, 0)) {
		t.Fatalf("archive heatmap %+v", h)
	}
	if !reflect.DeepEqual(h.members[7], []int{1}) {
		t.Fatalf("cell 7 holds %v", h.members[7])
	}
	if archiveHeatmap(nil, ms) != nil {
		t.Fatal("no archive should give no heatmap")
	}
}

func TestHeatColorRamp(t *testing.T) {
	if heatColor(0) != pal('n') || heatColor(1) != pal('y') || heatColor(2) != pal('y') {
		t.Fatal("ramp ends are not the palette's navy and yellow")
	}
	if heatColor(0.5) == heatColor(0.4) {
		t.Fatal("ramp does not vary")
	}
}

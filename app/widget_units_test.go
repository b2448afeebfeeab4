package app

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"pcgwb/problems"
)

func TestMeanCI95(t *testing.T) {
	m, ci := meanCI95([]float64{1, 2, 3, 4, 5})
	// mean 3, sd √2.5, t(0.975, 4) = 2.776445
	if !near(m, 3, 1e-12) || !near(ci, 2.776445105*math.Sqrt(2.5)/math.Sqrt(5), 1e-6) {
		t.Fatalf("got %v ± %v", m, ci)
	}
	if m, ci := meanCI95([]float64{7}); m != 7 || !math.IsNaN(ci) {
		t.Fatalf("one value: %v ± %v", m, ci)
	}
	if m, _ := meanCI95(nil); !math.IsNaN(m) {
		t.Fatalf("no value: mean %v", m)
	}
	if got := formatMeanCI(0.5, 0.125, 2); got != "0.50 ± 0.12" && got != "0.50 ± 0.13" {
		t.Fatalf("format %q", got)
	}
	if got := formatMeanCI(3, math.NaN(), 1); got != "3.0" {
		t.Fatalf("format without interval %q", got)
	}
	if got := formatMeanCI(math.NaN(), math.NaN(), 1); got != "–" {
		t.Fatalf("format of nothing %q", got)
	}
}

func TestSelectMembersSortsAndFilters(t *testing.T) {
	ms := []member{
		newMember(0, problems.Scored{Quality: 0.5, Diversity: 1, Controllability: 1, Fitness: 0.5}),
		newMember(1, problems.Scored{Quality: 1, Diversity: 0.2, Controllability: 1, Fitness: 1}),
		newMember(2, problems.Scored{Quality: 1, Diversity: 1, Controllability: 0.3, Fitness: 0.9}),
		newMember(3, problems.Scored{Quality: 1, Diversity: 1, Controllability: 1, Fitness: 0.9}),
	}
	tests := []struct {
		f    filter
		key  sortKey
		want []int
	}{
		{filter{}, sortOriginal, []int{0, 1, 2, 3}},
		{filter{}, sortFitness, []int{1, 2, 3, 0}},
		{filter{}, sortControllability, []int{0, 1, 3, 2}},
		{filter{feasible: true}, sortDiversity, []int{2, 3, 1}},
		{filterNamed("All three pass"), sortOriginal, []int{3}},
		{filter{unique: true, controlled: true}, sortQuality, []int{3, 0}},
	}
	for _, tt := range tests {
		if got := selectMembers(ms, tt.f, tt.key); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%+v by %s: got %v, want %v", tt.f, tt.key, got, tt.want)
		}
	}
}

func TestInfoNumbersAndLines(t *testing.T) {
	info := map[string]any{"path": 12, "ok": true, "nested": map[string]any{"x": 0.25, "name": "n"}, "list": []any{1, 2}}
	got := infoNumbers(info)
	want := map[string]float64{"path": 12, "ok": 1, "nested.x": 0.25}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("numbers %v", got)
	}
	lines := strings.Join(infoLines(info), "\n")
	for _, w := range []string{"path: 12", "ok: true", "nested:\n  name: \"n\"\n  x: 0.25", "list: [1,2]"} {
		if !strings.Contains(lines, w) {
			t.Errorf("info lines lack %q:\n%s", w, lines)
		}
	}
	m := newMember(0, problems.Scored{Info: info, Quality: 0.5, Fitness: 0.7})
	if v, ok := m.metric("nested.x"); !ok || v != 0.25 {
		t.Fatal("metric of an info field")
	}
	if v, ok := m.metric(metricFitness); !ok || v != 0.7 {
		t.Fatal("fitness metric")
	}
	if _, ok := m.metric("nested.name"); ok {
		t.Fatal("a string field is not a metric")
	}
	fields := metricFields([]member{m})
	if !reflect.DeepEqual(fields, []string{"quality", "controllability", "diversity", "fitness", "nested.x", "ok", "path"}) {
		t.Fatalf("metric fields %v", fields)
	}
}

func TestTileGridGeometry(t *testing.T) {
	tests := []struct {
		w, h, rows, cols int
		tile, offX, offY int
		ok               bool
	}{
		{256, 256, 14, 14, 16, 16, 16, true}, // binary: a ring of 16 px border tiles
		{208, 144, 7, 11, 16, 16, 16, true},  // zelda
		{176, 112, 7, 11, 16, 0, 0, true},    // no border
		{44, 28, 7, 11, 4, 0, 0, true},       // other tile size
		{5, 5, 7, 11, 0, 0, 0, false},
	}
	for _, tt := range tests {
		tile, ox, oy, ok := gridGeometry(tt.w, tt.h, tt.rows, tt.cols)
		if ok != tt.ok || (ok && (tile != tt.tile || ox != tt.offX || oy != tt.offY)) {
			t.Errorf("GridGeometry(%d, %d, %d, %d) = %d, %d, %d, %v", tt.w, tt.h, tt.rows, tt.cols, tile, ox, oy, ok)
		}
	}
	if r, c, ok := cellAt(16+35, 16+17, 16, 16, 16, 14, 14); !ok || r != 1 || c != 2 {
		t.Errorf("CellAt: %d, %d, %v", r, c, ok)
	}
	if _, _, ok := cellAt(5, 40, 16, 16, 16, 14, 14); ok {
		t.Error("the border is not a cell")
	}
	p, _ := problems.Make(fakeName)
	g, ok := tileGridOf(p)
	if !ok || g != (tileGrid{Rows: fakeRows, Cols: fakeCols, Min: 0, Max: 3}) {
		t.Fatalf("TileGridOf = %+v, %v", g, ok)
	}
	sw := tileSwatches(p, g)
	if len(sw) != 3 || sw[0] == nil || sw[0].Bounds().Dx() != 16 {
		t.Fatalf("swatches %v", sw)
	}
	c := gridOfContent(contentOfGrid([][]int{{1, 2}, {0, 1}}))
	if !reflect.DeepEqual(c, [][]int{{1, 2}, {0, 1}}) {
		t.Fatalf("grid round trip %v", c)
	}
}

package app

import (
	"bytes"
	"context"
	"encoding/csv"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

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

func TestItemsJSONIsAnItemFile(t *testing.T) {
	p, _ := problems.Make(fakeName)
	set, err := SampleAndEvaluate(context.Background(), fakeName, p, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	data, err := itemsJSON(fakeName, membersOfSample(set))
	if err != nil {
		t.Fatal(err)
	}
	items, err := problems.DecodeItems(p, data)
	if err != nil {
		t.Fatalf("the export does not load back: %v", err)
	}
	if itemsFileText(t, stripIDs(items)) != itemsFileText(t, problems.ItemsOf(set.Levels)) {
		t.Fatal("content or control changed on the way")
	}
	if !bytes.Contains(data, []byte(`"items"`)) || !bytes.Contains(data, []byte(`"content"`)) || !bytes.Contains(data, []byte(`"control"`)) {
		t.Fatalf("not the reference's item layout:\n%s", data)
	}
}

func stripIDs(items []problems.Item) []problems.Item {
	for i := range items {
		items[i].ID = ""
	}
	return items
}

func TestMetricsCSV(t *testing.T) {
	ms := []member{
		newMember(0, problems.Scored{Quality: 1, Diversity: 0.5, Controllability: 1, Fitness: 1, Control: map[string]any{"walls": 3}, Info: map[string]any{"walls": 3, "x": 1}}),
		newMember(1, problems.Scored{Quality: 0.25, Info: map[string]any{"walls": 9}}),
	}
	var buf bytes.Buffer
	if err := metricsCSV(&buf, ms); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"item", "quality", "diversity", "controllability", "fitness", "feasible", "unique", "controlled", "control", "info.walls", "info.x"},
		{"1", "1", "0.5", "1", "1", "true", "false", "true", `{"walls":3}`, "3", "1"},
		{"2", "0.25", "0", "0", "0", "false", "false", "false", "", "9", ""},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Fatalf("csv\n%v\nwant\n%v", rows, want)
	}
}

func TestContactSheet(t *testing.T) {
	a := image.NewRGBA(image.Rect(0, 0, 10, 6))
	for i := range a.Pix {
		a.Pix[i] = 0xff
	}
	if contactSheet([]image.Image{a}, 4) != image.Image(a) {
		t.Fatal("one picture should come back as it is")
	}
	sheet := contactSheet([]image.Image{a, a, nil, a}, 4)
	b := sheet.Bounds()
	if b.Dx() < 2*10+3*4 || b.Dy() < 2*6+3*4 {
		t.Fatalf("sheet %v", b)
	}
	if c := color.RGBAModel.Convert(sheet.At(4, 4)).(color.RGBA); c != (color.RGBA{0xff, 0xff, 0xff, 0xff}) {
		t.Fatalf("first picture not at the first cell: %v", c)
	}
}

// makeRuns records small runs of the fake problem: generators × seeds under root.
func makeRuns(t *testing.T, root string, gens []string, seeds int, generations int) []string {
	t.Helper()
	var dirs []string
	for _, g := range gens {
		for s := 1; s <= seeds; s++ {
			cfg := experiment.Config{Generator: g, Generations: generations, Options: search.Options{
				Problem: fakeName, Fitness: search.FitnessQuality, Seed: uint64(s), PopSize: 8}}
			dir := filepath.Join(root, g, string(rune('0'+s)))
			r, err := experiment.Create(dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Execute(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

func TestGroupRunsMatchesExperimentSummary(t *testing.T) {
	root := t.TempDir()
	makeRuns(t, root, []string{"ga", "es"}, 3, 4)
	recs, err := LoadRunRecords(root)
	if err != nil {
		t.Fatal(err)
	}
	groups := GroupRuns(recs)
	if len(groups) != 2 {
		t.Fatalf("%d groups", len(groups))
	}
	runs, err := experiment.LoadRuns(root)
	if err != nil {
		t.Fatal(err)
	}
	sums := experiment.Summarize(experiment.Groups(runs))
	for _, s := range sums {
		var g *CompareGroup
		for _, c := range groups {
			if c.Generator == s.Generator {
				g = c
			}
		}
		if g == nil || len(g.runs) != 3 || g.Finished != 3 {
			t.Fatalf("group %s missing or incomplete", s.Generator)
		}
		for _, pair := range [][2]float64{{g.Best.Mean, s.BestMean}, {g.Best.CI, s.BestCI}, {g.Feasible.Mean, s.FeasibleMean},
			{g.Feasible.CI, s.FeasibleCI}, {g.controlled.CI, s.ControlledCI}, {g.unique.Mean, s.UniqueMean}} {
			if !(near(pair[0], pair[1], 1e-9) || (math.IsNaN(pair[0]) && math.IsNaN(pair[1]))) {
				t.Errorf("%s: workbench %v, experiment %v", s.Generator, pair[0], pair[1])
			}
		}
		if len(g.bestCurve.X) != 5 || len(g.feasibleCurve.Mean) != 5 {
			t.Errorf("curves cover %d generations", len(g.bestCurve.X))
		}
	}
	table := CompareTable(groups)
	if len(table) != 3 || table[0][3] != "Best fitness" || !strings.Contains(table[1][3], "[") {
		t.Fatalf("table %v", table)
	}
	spec := compareFitnessPlot(groups)
	if len(spec.series) != 2 || spec.xMax != 4 || spec.yMax != 1.05 {
		t.Fatalf("plot spec %+v", spec)
	}
	if img := renderPlot(spec, 400, 300); img.Bounds().Dx() != 400 || img.Bounds().Dy() != 300 {
		t.Fatalf("plot is %v", img.Bounds())
	}
}

func TestRunRecordMembers(t *testing.T) {
	root := t.TempDir()
	dir := makeRuns(t, root, []string{"ga"}, 1, 2)[0]
	rec, err := loadRunRecord(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Finished() || rec.Generation() != 2 || len(rec.Events) != 3 {
		t.Fatalf("record: finished %v, generation %d, %d events", rec.Finished(), rec.Generation(), len(rec.Events))
	}
	p, _ := problems.Make(fakeName)
	ms, gen, err := rec.population(p)
	if err != nil || gen != 2 || len(ms) != 8 {
		t.Fatalf("members: %d at %d, %v", len(ms), gen, err)
	}
	// contents come back as ints (Render and Info need them), infos as JSON objects
	if _, err := p.Render(ms[0].Content); err != nil {
		t.Fatal(err)
	}
	if _, ok := ms[0].metric("walls"); !ok {
		t.Fatal("final infos are not readable")
	}
	// without final.json the checkpoint gives the population, fitness recomputed
	if err := os.Remove(filepath.Join(dir, experiment.FinalFile)); err != nil {
		t.Fatal(err)
	}
	rec.Final = nil
	cms, gen, err := rec.population(p)
	if err != nil || gen != 2 || len(cms) != 8 || cms[0].Fitness != ms[0].Fitness || cms[0].Info != nil {
		t.Fatalf("checkpoint members: %d at %d, %v", len(cms), gen, err)
	}
	copyDir := filepath.Join(t.TempDir(), "copy")
	if err := copyRunFolder(dir, copyDir); err != nil {
		t.Fatal(err)
	}
	if _, err := loadRunRecord(copyDir); err != nil {
		t.Fatal(err)
	}
	if err := copyRunFolder(dir, copyDir); err == nil {
		t.Fatal("copying over a run folder should fail")
	}
	name := runFolderName(root, rec.Config, "20250101-000000")
	if filepath.Base(name) != "20250101-000000-apptest-rooms-v0-ga-q-s1" {
		t.Fatalf("folder name %q", name)
	}
	if err := os.MkdirAll(name, 0o755); err != nil {
		t.Fatal(err)
	}
	if again := runFolderName(root, rec.Config, "20250101-000000"); again == name {
		t.Fatal("the folder name is not unique")
	}
}

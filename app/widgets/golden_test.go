package widgets

import (
	"errors"
	"image"
	"image/color"
	"image/draw"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/internal/golden"
)

// goldenPath is where a golden file lives. go test ./app/widgets -run Golden -update rewrites
// them (the -update flag is pcgwb/internal/golden's, shared by every golden test).
func goldenPath(name string) string { return filepath.Join("testdata", "golden", name) }

// checkGoldenMarkup compares the Fyne markup of o (its objects, sizes, texts and colours)
// with a golden file, byte for byte.
func checkGoldenMarkup(t *testing.T, name string, o fyne.CanvasObject) {
	t.Helper()
	golden.Check(t, goldenPath(name), []byte(test.RenderObjectToMarkup(o)), golden.Bytes)
}

// checkGoldenImage compares img pixel by pixel with a golden PNG: the pictures drawn here have
// no text, so no tolerance is needed.
func checkGoldenImage(t *testing.T, name string, img image.Image) {
	t.Helper()
	golden.CheckImage(t, goldenPath(name), img, golden.Exact)
}

// darkTheme is Fyne's default theme in its dark variant, a Look serving the widgets' own
// colour names with their dark values: the golden files depend on neither the machine's theme
// nor the app's.
type darkTheme struct{ fyne.Theme }

func (darkTheme) TextScale() float64 { return 1 }

func (t darkTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	if c, ok := NamedColor(n, false); ok {
		return c
	}
	return t.Theme.Color(n, theme.VariantDark)
}

// goldenApp is a test app with darkTheme.
func goldenApp(t *testing.T) {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(darkTheme{theme.DefaultTheme()})
}

func TestGoldenBadges(t *testing.T) {
	goldenApp(t)
	for _, tt := range []struct {
		name  string
		label string
		value float64
	}{
		{"badge_passed.xml", "Q", 1},
		{"badge_partial.xml", "D", 0.42},
		{"badge_failed.xml", "C", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkGoldenMarkup(t, tt.name, NewBadge(tt.label, tt.value))
		})
	}
}

// A badge's colour is its verdict: green exactly when it passes (at 1), yellow from one half,
// red below.
func TestBadgeColours(t *testing.T) {
	for _, tc := range []struct {
		value float64
		want  color.Color
	}{{1, colorPass}, {1.5, colorPass}, {0.99, colorPartial}, {0.5, colorPartial}, {0.49, colorFail}, {0, colorFail}} {
		b := NewBadge("Q", tc.value)
		if back, _ := b.colors(); back != tc.want || b.Passed() != (tc.want == colorPass) {
			t.Errorf("%g: colour %v, passed %v", tc.value, back, b.Passed())
		}
	}
}

// checker is a w×h picture of two palette colours, so that a thumbnail shows where its pixels go.
func checker(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := Pal('g')
			if (x+y)%2 == 1 {
				c = Pal('b')
			}
			img.Set(x, y, c)
		}
	}
	return img
}

// A cell with its picture and full badges, a compact selected one, and one whose picture failed.
func TestGoldenThumbs(t *testing.T) {
	goldenApp(t)
	compact := NewThumb(4, checker(16, 8), nil, 0.5, 1, 0.2)
	compact.SetCompact()
	compact.SetSelected(true)
	for _, tc := range []struct {
		name string
		t    *Thumb
	}{
		{"thumb.xml", NewThumb(0, checker(16, 8), nil, 1, 0.42, 0)},
		{"thumb_compact_selected.xml", compact},
		{"thumb_failed.xml", NewThumb(2, nil, errors.New("no sprites for tile 7"), 0, 0, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.t.Resize(fyne.NewSize(180, 120))
			checkGoldenMarkup(t, tc.name, tc.t)
		})
	}
}

// A gallery of five cells in a 500×300 view: the plan's grid, the cells' sizes and places; then
// its message in place of the cells.
func TestGoldenGallery(t *testing.T) {
	goldenApp(t)
	g := NewGallery("Press Sample.")
	thumbs := make([]*Thumb, 5)
	for i := range thumbs {
		thumbs[i] = NewThumb(i, checker(16, 8), nil, 1, 0.5, float64(i)/4)
	}
	w := test.NewWindow(g)
	defer w.Close()
	w.Resize(fyne.NewSize(500, 300))
	g.SetThumbs(thumbs)
	if g.Len() != 5 || g.Message() != "" || g.Columns() < 2 {
		t.Fatalf("%d cells in %d columns, message %q", g.Len(), g.Columns(), g.Message())
	}
	checkGoldenMarkup(t, "gallery.xml", g)
	g.ShowMessage("No level passes the filter.")
	if g.Len() != 0 || g.Message() != "No level passes the filter." {
		t.Fatalf("after ShowMessage: %d cells, message %q", g.Len(), g.Message())
	}
	checkGoldenMarkup(t, "gallery_message.xml", g)
}

// framePlot is a Plot that draws, in the style's colours, its background, a frame in the grid
// colour and a diagonal in its first key's colour: what a PlotView does with a drawing, without
// the text a real plot's drawing would rasterise.
type framePlot struct {
	title string
	keys  []PlotKey
}

func (p framePlot) Title() string   { return p.title }
func (p framePlot) Keys() []PlotKey { return p.keys }
func (p framePlot) Draw(w, h int, st PlotStyle) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Rect, image.NewUniform(st.Back), image.Point{}, draw.Src)
	for x := range w {
		img.Set(x, 0, st.Grid)
		img.Set(x, h-1, st.Grid)
	}
	for y := range h {
		img.Set(0, y, st.Grid)
		img.Set(w-1, y, st.Grid)
		if len(p.keys) > 0 {
			img.Set(y*w/h, y, p.keys[0].Color)
		}
	}
	return img
}

// A plot view shows the title and a key per labelled line above the drawing, which it asks for
// at its own pixel size.
func TestGoldenPlotView(t *testing.T) {
	goldenApp(t)
	v := NewPlotView[framePlot](nil)
	w := test.NewWindow(v)
	defer w.Close()
	w.Resize(fyne.NewSize(320, 200))
	v.SetSpec(framePlot{title: "Fitness", keys: []PlotKey{
		{Label: "best", Color: Pal('l')}, {Label: "mean", Color: Pal('c'), Dashed: true}, {Label: ""}}})
	if v.Draws != 1 || v.Image() == nil {
		t.Fatalf("%d drawings", v.Draws)
	}
	checkGoldenMarkup(t, "plot_view.xml", v)
	checkGoldenImage(t, "plot_view.png", v.Image())
	v.SetLegendVisible(false)
	checkGoldenMarkup(t, "plot_view_no_legend.xml", v)
}

// A hovered control's tooltip in the window's tip layer: where it goes and what it looks like.
func TestGoldenTooltip(t *testing.T) {
	goldenApp(t)
	tb := Tip(widget.NewButton("Start", nil), "Starts the run with the settings above.")
	w := test.NewWindow(WithTipLayer(container.NewCenter(tb), false))
	defer w.Close()
	w.Resize(fyne.NewSize(400, 300))
	test.MoveMouse(w.Canvas(), fyne.NewPos(200, 150))
	if tb.Shown() == "" {
		t.Fatal("no tooltip")
	}
	checkGoldenMarkup(t, "tooltip.xml", w.Content())
}

// The layouts: a wrap row in a narrow box, a table, a fixed-width and a wrapping column.
func TestGoldenLayouts(t *testing.T) {
	goldenApp(t)
	row := container.New(NewWrapLayout(), widget.NewButton("Sample", nil), widget.NewButton("Export", nil),
		widget.NewButton("Open folder", nil))
	table := container.New(NewTableLayout(2), widget.NewLabel("ga · quality"), widget.NewLabel("3"),
		widget.NewLabel("es"), widget.NewLabel("12"))
	long := widget.NewLabel("A description long enough to wrap over more than one line in this column.")
	long.Wrapping = fyne.TextWrapWord
	col := WrappingVBox(long, FixedWidth(150, widget.NewEntry()))
	w := test.NewWindow(container.NewGridWithColumns(3, row, table, col))
	defer w.Close()
	w.Resize(fyne.NewSize(600, 240))
	checkGoldenMarkup(t, "layouts.xml", w.Content())
}

// TestGoldenCheckFails makes sure the markup checks can fail: a passed and a failed badge, and
// a cell outlined or not, do not render the same markup.
func TestGoldenCheckFails(t *testing.T) {
	goldenApp(t)
	if test.RenderObjectToMarkup(NewBadge("Q", 1)) == test.RenderObjectToMarkup(NewBadge("Q", 0.5)) {
		t.Fatal("a passed and a failed badge render the same markup")
	}
	a, b := NewThumb(0, checker(4, 4), nil, 1, 1, 1), NewThumb(0, checker(4, 4), nil, 1, 1, 1)
	b.SetSelected(true)
	if test.RenderObjectToMarkup(a) == test.RenderObjectToMarkup(b) {
		t.Fatal("a selected and a plain cell render the same markup")
	}
}

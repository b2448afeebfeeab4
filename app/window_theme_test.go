package app

import (
	"image"
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"pcgwb/app/widgets"
)

// luma is a colour's brightness in [0, 1].
func luma(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 0xffff
}

// closeTo reports whether two colours are within tol per channel (of 255).
func closeTo(a, b color.Color, tol int) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) bool { return math.Abs(float64(x>>8)-float64(y>>8)) <= float64(tol) }
	return d(r1, r2) && d(g1, g2) && d(b1, b2)
}

// inkRows is how many rows of img hold a pixel of the colour ink: a title-only plot's text
// height.
func inkRows(img image.Image, ink color.Color) int {
	b := img.Bounds()
	top, bottom := b.Max.Y, b.Min.Y-1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if closeTo(img.At(x, y), ink, 24) {
				top, bottom = min(top, y), max(bottom, y)
				break
			}
		}
	}
	return max(0, bottom-top+1)
}

// Every look defines every colour the app draws with, and the table's light column differs
// from the dark one where the Light look is meant to differ.
func TestThemeTableCoversEveryLook(t *testing.T) {
	for _, name := range themeNames() {
		th := newThemeNamed(name)
		for cn := range themeColors {
			if th.Color(cn, theme.VariantDark) == nil {
				t.Errorf("%s: no colour for %s", name, cn)
			}
		}
	}
	dark, light, proj := newThemeNamed(themeDark), newThemeNamed(themeLight), newThemeNamed(themeProjector)
	for _, cn := range []fyne.ThemeColorName{theme.ColorNameBackground, widgets.ColorNamePlotBack, widgets.ColorNameCard} {
		if luma(light.Color(cn, 0)) <= luma(dark.Color(cn, 0)) {
			t.Errorf("%s: light %v is not lighter than dark %v", cn, light.Color(cn, 0), dark.Color(cn, 0))
		}
	}
	if proj.Size(theme.SizeNameText) <= dark.Size(theme.SizeNameText) || light.Size(theme.SizeNameText) != dark.Size(theme.SizeNameText) {
		t.Error("only Projector enlarges text")
	}
	if newThemeNamed("no such look").Color(theme.ColorNameBackground, 0) != dark.Color(theme.ColorNameBackground, 0) {
		t.Error("an unknown look is not Dark")
	}
}

// A plot takes its background, ink and text size from the theme: Light draws on a light
// background with dark ink, Projector writes larger text than Dark.
func TestPlotFollowsTheTheme(t *testing.T) {
	a := test.NewTempApp(t)
	holdUI(t)
	spec := plotSpec{title: "Fitness over the generations", xMax: 10, yMin: 0, yMax: 1,
		series: []series{{color: pal('c'), x: []float64{0, 5, 10}, y: []float64{0.1, 0.5, 0.9}}}}
	type look struct {
		back       float64 // luma of the corner pixel
		titleRows  int
		backIsPlot bool
	}
	got := map[string]look{}
	for _, name := range themeNames() {
		a.Settings().SetTheme(newThemeNamed(name))
		img := renderPlot(spec, 480, 300)
		corner := img.At(1, 1)
		got[name] = look{back: luma(corner), titleRows: inkRows(img, widgets.Color(widgets.ColorNamePlotInk)),
			backIsPlot: closeTo(corner, widgets.Color(widgets.ColorNamePlotBack), 2)}
	}
	a.Settings().SetTheme(newTheme())
	tests := []struct {
		name string
		ok   bool
	}{
		{"every look paints its own plot background", got[themeDark].backIsPlot && got[themeLight].backIsPlot && got[themeProjector].backIsPlot},
		{"Light's background is light", got[themeLight].back > 0.8},
		{"Dark's background is dark", got[themeDark].back < 0.2},
		{"Projector keeps Dark's colours", got[themeProjector].back == got[themeDark].back},
		{"the title is drawn", got[themeDark].titleRows > 4},
		{"Projector's title is taller than Dark's", got[themeProjector].titleRows > got[themeDark].titleRows},
		{"Light's title is as tall as Dark's", max(got[themeLight].titleRows-got[themeDark].titleRows, got[themeDark].titleRows-got[themeLight].titleRows) <= 1},
	}
	for _, tt := range tests {
		if !tt.ok {
			t.Errorf("%s: %+v", tt.name, got)
		}
	}
}

// A plot, a heatmap and a card already on screen are drawn again when the theme changes.
func TestShownPlotsAndCardsRedrawOnThemeChange(t *testing.T) {
	a := test.NewTempApp(t)
	holdUI(t)
	a.Settings().SetTheme(newTheme())
	pv := newPlotView(nil)
	heat := newHeatmapView(nil)
	heat.setHeatmap(goldenHeatmap(), false)
	thumb := widgets.NewThumb(0, image.NewRGBA(image.Rect(0, 0, 8, 8)), nil, 1, 0.5, 0)
	chart := followTheme(canvas.NewImageFromImage(letterChart(nil, "")), func() image.Image { return letterChart(nil, "") })
	capBox := caption("AXES").(*fyne.Container)
	capText := capBox.Objects[0].(*themedCaption).text
	tile := newTileButton(1, 0, "wall", nil, func(int) {})
	w := test.NewWindow(container.NewGridWithColumns(6, pv, heat, thumb, chart, capBox, tile))
	tr := test.WidgetRenderer(tile).(*tileButtonRenderer)
	tileBack, tileLabel := tr.back, tr.label
	mutedDark, labelDark := capText.Color, tileLabel.Color
	defer w.Close()
	w.Resize(fyne.NewSize(900, 300))
	pv.SetSpec(runFitnessPlot(nil, 10))
	await(t, pv.Wait)
	before := pv.Draws
	if luma(pv.Image().At(2, 2)) > 0.2 {
		t.Fatal("the dark plot is not dark")
	}
	cells := func() image.Image { return heat.Image().Image }
	emptyDark := cells().At(heatCellPx+1, heatCellPx) // the middle cell (1, 1) is empty: its outline

	a.Settings().SetTheme(newThemeNamed(themeLight))
	await(t, pv.Wait)
	if pv.Draws == before || luma(pv.Image().At(2, 2)) < 0.8 {
		t.Fatalf("after the switch to Light: %d drawings (was %d), corner luma %.2f", pv.Draws, before, luma(pv.Image().At(2, 2)))
	}
	if test.WidgetRenderer(pv).Objects()[0].(*canvas.Rectangle).FillColor != widgets.Color(widgets.ColorNamePlotBack) {
		t.Error("the plot's header keeps the old colours")
	}
	if heat.back.FillColor != widgets.Color(widgets.ColorNamePlotBack) || closeTo(cells().At(heatCellPx+1, heatCellPx), emptyDark, 2) {
		t.Error("the heatmap keeps the old colours")
	}
	if back := test.WidgetRenderer(thumb).Objects()[0].(*canvas.Rectangle); back.FillColor != colorCard() || luma(colorCard()) < luma(newTheme().Color(widgets.ColorNameCard, 0)) {
		t.Error("the card keeps the dark colour")
	}
	if luma(chart.Image.Image.At(1, 1)) < 0.8 {
		t.Error("the Birds letter chart keeps the dark background")
	}
	if capText.Color != colorMuted() || capText.Color == mutedDark {
		t.Error("a caption keeps the dark look's colour")
	}
	if tileBack.FillColor != colorCard() || tileLabel.Color == labelDark {
		t.Error("an Editor tile button keeps the dark look's colours")
	}
	light := pv.Draws
	a.Settings().SetTheme(newThemeNamed(themeProjector))
	await(t, pv.Wait)
	if st := widgets.CurrentPlotStyle(); st.Scale <= 1 || pv.Draws == light {
		t.Errorf("Projector: plot text scale %g, %d drawings (%d in Light)", st.Scale, pv.Draws, light)
	}
	a.Settings().SetTheme(newTheme())
}

package app

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"pcgwb/app/widgets"
	"pcgwb/games/birds"
)

// Per-letter chart colours: stability, similarity, letter score.
var letterChartColors = [3]color.RGBA{{0x4c, 0x8d, 0xe0, 0xff}, {0xf0, 0x9a, 0x30, 0xff}, {0x4c, 0xb8, 0x5c, 0xff}}

// letterChart draws one team's per-letter results as grouped bars, A to Z: stability,
// similarity and the letter score (scaled to its largest value), each in [0, 1]. Its
// background and text take the current theme's plot colours, and its text the theme's size
// (Projector's is larger), as the plots' do.
func letterChart(chars []birds.CharacterScore, team string) image.Image {
	return letterChartStyled(chars, team, widgets.CurrentPlotStyle())
}

// letterChartStyled draws the chart in style st. The picture keeps its size (it is shown scaled to
// fit); the text, and the margins that hold it, grow with st.Scale.
func letterChartStyled(chars []birds.CharacterScore, team string, st widgets.PlotStyle) image.Image {
	const w, h, left = 26*30 + 40, 220, 30
	face := chartFace(st.Scale)
	defer face.Close()
	lineH := face.Metrics().Height.Ceil()
	bottom, top := lineH+7, lineH+11 // the letters under the axis; the legend above the bars
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Rect, image.NewUniform(rgba(st.Back)), image.Point{}, draw.Src)
	var values [26][3]float64
	maxScore := 0.0
	for _, c := range chars {
		if c.Team != team || len(c.Character) != 1 || c.Character[0] < 'A' || c.Character[0] > 'Z' {
			continue
		}
		i := c.Character[0] - 'A'
		values[i] = [3]float64{c.Stability.Float(), c.Similarity.Float(), c.Score.Float()}
		maxScore = max(maxScore, values[i][2])
	}
	plotH := float64(h - bottom - top)
	axis := rgba(st.Muted)
	for x := left; x < w-10; x++ {
		img.SetRGBA(x, h-bottom, axis)
	}
	for i := range 26 {
		x0 := left + 4 + i*30
		for k := range 3 {
			v := values[i][k]
			if k == 2 && maxScore > 0 {
				v /= maxScore
			}
			v = math.Min(math.Max(v, 0), 1)
			bar := image.Rect(x0+k*8, h-bottom-int(math.Round(v*plotH)), x0+k*8+7, h-bottom)
			draw.Draw(img, bar, image.NewUniform(letterChartColors[k]), image.Point{}, draw.Src)
		}
		letter := string(rune('A' + i))
		chartText(img, face, letter, x0+12-textWidth(face, letter)/2, h-bottom+3, axis)
	}
	legend := [3]string{"stability", "similarity", "score (÷ max)"}
	x := left
	swatch := lineH * 3 / 4
	for k, name := range legend {
		y := 4 + (lineH-swatch)/2
		draw.Draw(img, image.Rect(x, y, x+swatch, y+swatch), image.NewUniform(letterChartColors[k]), image.Point{}, draw.Src)
		chartText(img, face, name, x+swatch+4, 4, axis)
		x += swatch + 4 + textWidth(face, name) + 16
	}
	chartText(img, face, team, w-10-textWidth(face, team), 4, rgba(st.Ink))
	return img
}

// chartFontSize is the chart's text size, in pixels, in the Dark look.
const chartFontSize = 13

// chartFont is the chart's typeface, parsed once: Go Mono, which golang.org/x/image (already
// a dependency for the plots) embeds, so the text scales smoothly where a bitmap face cannot.
var chartFont = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(gomono.TTF) })

// chartFace is the chart's text face at the theme's scale (a face serves one drawing at a
// time, so each chart makes its own). Should the embedded font fail to load, the fixed bitmap
// face keeps the chart legible.
func chartFace(scale float64) font.Face {
	if f, err := chartFont(); err == nil {
		if face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: chartFontSize * scale, DPI: 72, Hinting: font.HintingFull}); err == nil {
			return face
		}
	}
	return basicfont.Face7x13
}

func textWidth(face font.Face, s string) int { return font.MeasureString(face, s).Ceil() }

// chartText draws s with its top at y.
func chartText(dst *image.RGBA, face font.Face, s string, x, y int, c color.RGBA) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: face, Dot: fixed.P(x, y+face.Metrics().Ascent.Ceil())}
	d.DrawString(s)
}

// themedImage shows a picture drawn in the theme's plot colours (the letter chart) and draws
// it again when the theme changes: Fyne refreshes every widget then, and a picture drawn in
// another theme's colours is redrawn.
type themedImage struct {
	widget.BaseWidget
	Image *canvas.Image
	draw  func() image.Image
	style widgets.PlotStyle // the theme the picture was drawn in
}

// followTheme keeps img drawn by draw in the current theme's colours; use the result where img
// would have been laid out.
func followTheme(img *canvas.Image, draw func() image.Image) *themedImage {
	t := &themedImage{Image: img, draw: draw, style: widgets.CurrentPlotStyle()}
	t.ExtendBaseWidget(t)
	return t
}

func (t *themedImage) CreateRenderer() fyne.WidgetRenderer { return &themedImageRenderer{t} }

type themedImageRenderer struct{ t *themedImage }

func (r *themedImageRenderer) Layout(s fyne.Size)           { r.t.Image.Resize(s) }
func (r *themedImageRenderer) MinSize() fyne.Size           { return r.t.Image.MinSize() }
func (r *themedImageRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.t.Image} }
func (r *themedImageRenderer) Destroy()                     {}
func (r *themedImageRenderer) Refresh() {
	if st := widgets.CurrentPlotStyle(); st != r.t.style {
		r.t.style = st
		r.t.Image.Image = r.t.draw()
	}
	r.t.Image.Refresh()
}

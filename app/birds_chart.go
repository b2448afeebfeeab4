package app

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"pcgwb/games/birds"
)

// Per-letter chart colours: stability, similarity, letter score.
var letterChartColors = [3]color.RGBA{{0x4c, 0x8d, 0xe0, 0xff}, {0xf0, 0x9a, 0x30, 0xff}, {0x4c, 0xb8, 0x5c, 0xff}}

// LetterChart draws one team's per-letter results as grouped bars, A to Z: stability,
// similarity and the letter score (scaled to its largest value), each in [0, 1]. Its
// background and text take the current theme's plot colours.
func LetterChart(chars []birds.CharacterScore, team string) image.Image {
	const w, h, left, bottom, top = 26*30 + 40, 220, 30, 20, 24
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Rect, image.NewUniform(rgba(themeColor(colorNamePlotBack))), image.Point{}, draw.Src)
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
	axis := rgba(themeColor(colorNamePlotMuted))
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
		chartText(img, string(rune('A'+i)), x0+8, h-bottom+3, axis)
	}
	legend := [3]string{"stability", "similarity", "score (÷ max)"}
	x := left
	for k, name := range legend {
		draw.Draw(img, image.Rect(x, 6, x+10, 16), image.NewUniform(letterChartColors[k]), image.Point{}, draw.Src)
		chartText(img, name, x+14, 4, axis)
		x += 14 + 7*len([]rune(name)) + 16
	}
	chartText(img, team, w-10-7*len([]rune(team)), 4, rgba(themeColor(colorNamePlotInk)))
	return img
}

func chartText(dst *image.RGBA, s string, x, y int, c color.RGBA) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y+11)}
	d.DrawString(s)
}

// readLimited reads r to its end, refusing more than limit bytes: level files are hostile.
func readLimited(r io.Reader, name string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = fmt.Errorf("%s is larger than %d bytes: not a level", name, limit)
	}
	return b, err
}

// themedImage shows a picture drawn in the theme's plot colours (the letter chart) and draws
// it again when the theme changes: Fyne refreshes every widget then, and a picture drawn in
// another theme's colours is redrawn.
type themedImage struct {
	widget.BaseWidget
	Image *canvas.Image
	draw  func() image.Image
	style plotStyle // the theme the picture was drawn in
}

// followTheme keeps img drawn by draw in the current theme's colours; use the result where img
// would have been laid out.
func followTheme(img *canvas.Image, draw func() image.Image) *themedImage {
	t := &themedImage{Image: img, draw: draw, style: currentPlotStyle()}
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
	if st := currentPlotStyle(); st != r.t.style {
		r.t.style = st
		r.t.Image.Image = r.t.draw()
	}
	r.t.Image.Refresh()
}

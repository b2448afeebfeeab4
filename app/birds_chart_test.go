package app

import (
	"image"
	"image/color"
	"testing"

	"pcgwb/app/widgets"
)

// inkBox is the bounding box of the pixels of img that are mostly red (the test's ink colour).
func inkBox(img image.Image) image.Rectangle {
	var box image.Rectangle
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 > 128 && g>>8 < 64 && bl>>8 < 64 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

// TestLetterChartTextFollowsThemeScale: the chart's text grows with the theme's text scale
// (Projector's 1.2) as the plots' does, in height and in width, while the picture keeps its
// size; the team name, drawn in the ink colour, is measured.
func TestLetterChartTextFollowsThemeScale(t *testing.T) {
	style := func(scale float64) widgets.PlotStyle {
		return widgets.PlotStyle{Back: color.Black, Ink: color.NRGBA{R: 0xff, A: 0xff},
			Muted: color.NRGBA{G: 0xa0, A: 0xff}, Grid: color.NRGBA{G: 0x40, A: 0xff}, Scale: scale}
	}
	for _, tc := range []struct {
		name  string
		scale float64
	}{
		{"Projector", 1.2},
		{"twice Dark", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const name = "Team Jolly"
			base := letterChartStyled(nil, name, style(1))
			big := letterChartStyled(nil, name, style(tc.scale))
			if base.Bounds() != big.Bounds() {
				t.Fatalf("picture %v at scale %v, %v at 1", big.Bounds(), tc.scale, base.Bounds())
			}
			b0, b1 := inkBox(base), inkBox(big)
			if b0.Empty() || b1.Empty() {
				t.Fatalf("no team name drawn: boxes %v, %v", b0, b1)
			}
			for _, r := range []struct {
				what    string
				at1, at float64
				slack   float64 // px: hinting rounds the glyph height, and each glyph's advance
			}{
				{"height", float64(b0.Dy()), float64(b1.Dy()), 2},
				{"width", float64(b0.Dx()), float64(b1.Dx()), 1 + float64(len(name))/2},
			} {
				lo, hi := (r.at1*tc.scale-r.slack)/r.at1, (r.at1*tc.scale+r.slack)/r.at1
				if got := r.at / r.at1; got < lo || got > hi {
					t.Errorf("text %s %v px at scale %v, %v px at 1: ratio %.2f, want %.2f–%.2f", r.what, r.at, tc.scale, r.at1, got, lo, hi)
				}
			}
		})
	}
}

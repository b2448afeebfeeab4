package talakat

import (
	"image"
	"image/color"

	"pcgwb/assets"
)

// trailColours shade the bullets by the section of the fight they were seen in, from the
// first (dim) to the last (bright).
var trailColours = []byte{'n', 'b', 't', 'c', 'a'}

// renderFight summarises the whole fight in one picture: every renderSampling-th frame's
// bullets as small dots coloured by fight section (so their paths show as dotted trails), the
// last sampled frame's bullets as rings of their real size, the boss and the player on top.
func renderFight(w *World, sampling int) image.Image {
	if sampling < 1 {
		sampling = 1
	}
	img := image.NewRGBA(image.Rect(0, 0, int(w.Width), int(w.Height)))
	assets.Fill(img, 'k')
	var last []Bullet
	frames := 0
	maxFrames := max(1, w.Boss.Health)
	for !w.Won() && !w.Lost() {
		if frames%sampling == 0 {
			shade := assets.Palette[trailColours[min(len(trailColours)-1, frames*len(trailColours)/maxFrames)]]
			for _, b := range w.Bullets {
				fillCircle(img, b.X, b.Y, 1.5, shade)
			}
			last = append(last[:0], w.Bullets...)
		}
		frames++
		if !w.Step(0, 0) || len(w.Spawners) > MaxSpawners {
			break
		}
	}
	// Rings, so the trails under the last frame stay visible.
	for _, b := range last {
		ring(img, b.X, b.Y, b.Radius, 1.5, assets.Palette['w'])
	}
	half := assets.TileSize / 2
	assets.DrawSprite(img, "talakat_boss", int(w.Boss.X)-half, int(w.Boss.Y)-half)
	assets.DrawSprite(img, "talakat_ship", int(w.Player.X)-half, int(w.Player.Y)-half)
	return img
}

func fillCircle(img *image.RGBA, cx, cy, r float64, c color.RGBA) { ring(img, cx, cy, r, r, c) }

// ring paints the pixels whose centres lie between r-width and r from (cx, cy).
func ring(img *image.RGBA, cx, cy, r, width float64, c color.RGBA) {
	if r <= 0 {
		return
	}
	inner := max(0, r-width)
	b := img.Bounds()
	for y := max(b.Min.Y, int(cy-r)); y <= min(b.Max.Y-1, int(cy+r)+1); y++ {
		for x := max(b.Min.X, int(cx-r)); x <= min(b.Max.X-1, int(cx+r)+1); x++ {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			if d := dx*dx + dy*dy; d <= r*r && d >= inner*inner {
				img.SetRGBA(x, y, c)
			}
		}
	}
}

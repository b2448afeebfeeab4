package building

import (
	"image"
	"image/color"
	"image/draw"

	"pcgwb/assets"
)

// spriteNames are the isometric cube sprites of each block type (assets/sprites_building.go).
var spriteNames = [numTypes]string{"building_1x1", "building_1x3", "building_3x1", "building_3x3"}

// Isometric steps: one x or y unit moves half a sprite sideways and a quarter down, one level
// up moves half a sprite up.
const (
	isoHalfW = assets.TileSize / 2
	isoStepY = assets.TileSize / 4
)

// renderTower draws the tower isometrically on black, back to front (x, then y, then z
// ascending) so nearer and higher cubes cover the ones behind. Canvas: ((W+L)·8) × ((2H+L+W+1)·4)
// pixels, 112×156 for building-v0.
//
// Each cube row y gets alpha 255 - int(100·y/L). The reference sets that alpha on the sprite
// but pastes it through the opaque cube silhouette, so cubes still cover each other fully and
// the alpha lands only in the picture's alpha channel; seen over its black background that is
// a dimming of the rows toward the viewer. The cubes are drawn opaque here with their colours
// scaled by that alpha, the same picture, without relying on how a viewer shows transparency.
func renderTower(t *Tower) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, (t.W+t.L)*isoHalfW, (2*t.H+t.L+t.W+1)*isoStepY))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.Black}, image.Point{}, draw.Src)
	volume := t.Volume()
	var sprites [numTypes]*image.RGBA
	for i, n := range spriteNames {
		sprites[i] = assets.Sprite(n)
	}
	originX, originY := (t.L-1)*isoHalfW, (t.H-1)*2*isoStepY
	for x := range t.W {
		for y := range t.L {
			alpha := uint32(255 - 100*y/t.L)
			for z := range t.H {
				v := volume[(z*t.L+y)*t.W+x]
				if v == 0 {
					continue
				}
				px := (x-y)*isoHalfW + originX
				py := (x+y-2*z)*isoStepY + originY
				drawDimmed(img, sprites[v-1], px, py, alpha)
			}
		}
	}
	return img
}

// drawDimmed copies the sprite's opaque pixels to (px, py) with colours scaled by alpha/255.
func drawDimmed(dst, sprite *image.RGBA, px, py int, alpha uint32) {
	for sy := range assets.TileSize {
		for sx := range assets.TileSize {
			c := sprite.RGBAAt(sx, sy)
			if c.A == 0 || !image.Pt(px+sx, py+sy).In(dst.Rect) {
				continue
			}
			dst.SetRGBA(px+sx, py+sy, color.RGBA{
				R: uint8(uint32(c.R) * alpha / 255),
				G: uint8(uint32(c.G) * alpha / 255),
				B: uint8(uint32(c.B) * alpha / 255),
				A: 255,
			})
		}
	}
}

package loderunnertile

import (
	"image"

	"pcgwb/assets"
	"pcgwb/problems/shape"
)

// RenderLevel draws a level with 16 px tiles (512×352 for 22×32).
func RenderLevel(lv shape.Grid) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, lv.W*assets.TileSize, lv.H*assets.TileSize))
	assets.Fill(img, 'k')
	for y := 0; y < lv.H; y++ {
		for x := 0; x < lv.W; x++ {
			t := lv.At(x, y)
			if t < 0 || t >= len(assets.LodeRunnerSprites) {
				continue
			}
			px, py := x*assets.TileSize, y*assets.TileSize
			if t != Brick {
				assets.DrawSprite(img, "lr-empty", px, py)
			}
			assets.DrawSprite(img, assets.LodeRunnerSprites[t], px, py)
		}
	}
	return img
}

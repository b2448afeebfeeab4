package elimination

import (
	"image"

	"pcgwb/assets"
)

// render draws the letter row as 16 px tiles on black, one tile per letter.
func render(ls []int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, len(ls)*assets.TileSize, assets.TileSize))
	assets.Fill(img, 'k')
	for x, l := range ls {
		assets.DrawSprite(img, assets.LetterSprite(l), x*assets.TileSize, 0)
	}
	return img
}

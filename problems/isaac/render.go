package isaac

import (
	"image"
	"image/draw"

	"pcgwb/assets"
)

var doorSprites = [...]struct {
	bit    int
	sprite string
}{
	{DoorLeft, "isaac_door_left"},
	{DoorUp, "isaac_door_up"},
	{DoorRight, "isaac_door_right"},
	{DoorDown, "isaac_door_down"},
}

// render draws one 16 px tile per cell (64×64 for isaac-v0), then the shop, treasure, boss and
// start icons over their rooms when those rooms exist. Each icon redraws its room first, so
// when two specials share a room the later one wins, as in the reference.
func render(c Content, w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w*assets.TileSize, h*assets.TileSize))
	for i, v := range c.Layout {
		drawRoom(img, v, i%w, i/w)
	}
	for _, s := range [...]struct {
		idx    int
		sprite string
	}{{c.Shop, "isaac_shop"}, {c.Treasure, "isaac_treasure"}, {c.Boss, "isaac_boss"}, {c.Start, "isaac_start"}} {
		if c.Layout[s.idx] == 0 {
			continue
		}
		x, y := s.idx%w, s.idx/w
		drawRoom(img, c.Layout[s.idx], x, y)
		assets.DrawSprite(img, s.sprite, x*assets.TileSize, y*assets.TileSize)
	}
	return img
}

// drawRoom composes a room tile from the room base and one door mark per door bit.
func drawRoom(img draw.Image, doors, x, y int) {
	px, py := x*assets.TileSize, y*assets.TileSize
	if doors == 0 {
		assets.DrawSprite(img, "isaac_void", px, py)
		return
	}
	assets.DrawSprite(img, "isaac_room", px, py)
	for _, d := range doorSprites {
		if doors&d.bit != 0 {
			assets.DrawSprite(img, d.sprite, px, py)
		}
	}
}

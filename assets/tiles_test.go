package assets

import (
	"bytes"
	"image"
	"testing"
)

// TestDrawTilesPutsFloorUnderAllButWalls compares DrawTiles with the same picture composed
// sprite by sprite: a wall alone, floor under a player, bare floor for an empty cell.
func TestDrawTilesPutsFloorUnderAllButWalls(t *testing.T) {
	cells := [][]string{{"wall"}, {"player"}, {}}
	got := DrawTiles(3, 1, func(x, _ int, buf []string) []string { return append(buf, cells[x]...) })
	want := image.NewRGBA(image.Rect(0, 0, 3*TileSize, TileSize))
	DrawSprite(want, "wall", 0, 0)
	DrawSprite(want, "floor", TileSize, 0)
	DrawSprite(want, "player", TileSize, 0)
	DrawSprite(want, "floor", 2*TileSize, 0)
	if !bytes.Equal(got.Pix, want.Pix) {
		t.Fatal("DrawTiles differs from the sprites drawn one by one")
	}
	// DrawCells maps values to names, and values outside the table to the fallback.
	byValue := DrawCells(3, 1, []int{0, 1, 9}, []string{"wall", "player", ""}, 2)
	if !bytes.Equal(byValue.Pix, want.Pix) {
		t.Fatal("DrawCells differs from DrawTiles")
	}
}

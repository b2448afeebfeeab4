package mdungeons

import (
	"image"

	"pcgwb/assets"
	"pcgwb/problems/shape"
)

var tileSprites = [...]string{
	Solid:    "wall",
	Empty:    "",
	Player:   "player",
	Exit:     "mdungeons_exit",
	Potion:   "mdungeons_potion",
	Treasure: "mdungeons_treasure",
	Goblin:   "mdungeons_goblin",
	Ogre:     "mdungeons_ogre",
}

// renderContent draws the level inside a ring of solid tiles, one 16 px sprite per tile, as
// the reference does (so mdungeons-v0 is 160×224).
func renderContent(g shape.Grid) image.Image {
	p := g.Padded(Solid)
	return assets.DrawCells(p.W, p.H, p.Cells, tileSprites[:], Solid)
}

// RenderState draws a game position (for replaying a solution or playing by hand): the items
// still on the map, the exit, and the hero — fallen once the health is gone.
func RenderState(s State) image.Image {
	l := s.Level()
	player := s.Player()
	return assets.DrawTiles(l.W, l.H, func(x, y int, layers []string) []string {
		layers = append(layers, tileSprites[s.Tile(x, y)])
		if player.X == x && player.Y == y {
			if s.Lose() {
				return append(layers, "mdungeons_player_dead")
			}
			return append(layers, "player")
		}
		return layers
	})
}

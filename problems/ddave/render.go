package ddave

import (
	"image"

	"pcgwb/assets"
	"pcgwb/problems/shape"
)

var tileSprites = [...]string{
	Solid:   "wall",
	Empty:   "",
	Player:  "player",
	Exit:    "ddave_door",
	Diamond: "ddave_diamond",
	Key:     "ddave_key",
	Spike:   "ddave_spike",
}

// renderContent draws the (repaired) level inside a ring of solid tiles, one 16 px sprite per
// tile, as the reference does (so ddave-v0 is 208×144).
func renderContent(g shape.Grid) image.Image {
	p := g.Padded(Solid)
	return assets.DrawCells(p.W, p.H, p.Cells, tileSprites[:], Solid)
}

// RenderState draws a game position (for replaying a solution or playing by hand): walls,
// spikes, the door, the diamonds and key still lying on the map, the target of a reachability
// run, and the player — lying on the spikes once dead.
func RenderState(s State) image.Image {
	l := s.Level()
	player := s.Player()
	door := l.Door()
	target, hasTarget := l.Target()
	return assets.DrawTiles(l.W, l.H, func(x, y int, layers []string) []string {
		if l.Solid(x, y) {
			return append(layers, "wall")
		}
		switch {
		case door.X == x && door.Y == y:
			layers = append(layers, "ddave_door")
		case l.Spike(x, y) && !(player.X == x && player.Y == y && s.Lose()):
			layers = append(layers, "ddave_spike")
		case s.DiamondAt(x, y):
			layers = append(layers, "ddave_diamond")
		case s.KeyAt(x, y):
			layers = append(layers, "ddave_key")
		}
		if hasTarget && target.X == x && target.Y == y {
			layers = append(layers, "ddave_target")
		}
		if player.X == x && player.Y == y {
			if s.Lose() {
				layers = append(layers, "ddave_player_dead")
			} else {
				layers = append(layers, "player")
			}
		}
		return layers
	})
}

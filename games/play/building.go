package play

import (
	"fmt"
	"image"

	"pcgwb/problems"
	"pcgwb/problems/building"
)

func init() {
	registerTyped("building", newBuilding)
}

// buildingGame inspects the finished building: turn it, cut it above a level, take blocks back
// and drop them again. A replay starts from the empty lot and drops the blocks in order.
type buildingGame struct {
	view *building.View
}

func newBuilding(p *building.Problem, c problems.Content) (Game, error) {
	v, err := p.View(c)
	if err != nil {
		return nil, err
	}
	return &buildingGame{view: v}, nil
}

func (b *buildingGame) Reset() {
	b.view.DropAll()
	b.view.Rotation, b.view.Levels = 0, b.view.Height()
}

func (b *buildingGame) StartReplay() { b.view.Clear() }

func (b *buildingGame) Input(k Key) {
	switch k {
	case KeyLeft:
		b.view.Rotate(-1)
	case KeyRight:
		b.view.Rotate(1)
	case KeyUp:
		b.view.ShowLevels(1)
	case KeyDown:
		b.view.ShowLevels(-1)
	case KeyAction:
		b.view.Drop()
	case KeyBackspace:
		b.view.Undrop()
	case KeyEnter:
		b.view.DropAll()
	}
}

func (b *buildingGame) Update() {}

// Status: a building is "won" once every block is dropped and all fit under the ceiling, and
// "lost" once a block did not fit.
func (b *buildingGame) Status() Status {
	switch {
	case b.view.Failed() > 0:
		return Lost
	case b.view.Done():
		return Won
	}
	return Running
}

func (b *buildingGame) Banner() string {
	if n := b.view.Failed(); n > 0 {
		return fmt.Sprintf("%d BLOCKS DID NOT FIT", n)
	}
	return "ALL BLOCKS FIT"
}

func (b *buildingGame) Board() image.Image { return building.RenderView(b.view) }

func (b *buildingGame) HUD() string {
	return fmt.Sprintf("blocks %d/%d  did not fit %d  view %d deg  levels 1-%d",
		b.view.Placed, b.view.Blocks(), b.view.Failed(), 90*b.view.Rotation, b.view.Levels)
}

func (b *buildingGame) Controls() string {
	return "left/right turn  up/down levels  space drop next  backspace take back  enter drop all"
}

func (b *buildingGame) Text() string { return b.view.Text() }

// Solution: drop every block in the content's order.
func (b *buildingGame) Solution() []Key {
	out := make([]Key, b.view.Blocks())
	for i := range out {
		out[i] = KeyAction
	}
	return out
}

package building

import (
	"fmt"
	"image"
	"strings"

	"pcgwb/problems"
)

// View is a building being inspected: the content's blocks dropped in order by the same Tower
// the metric uses, seen from one of four sides, cut off above a chosen level. Dropping the
// blocks one by one replays the construction; a block that finds no room under the ceiling is
// counted as failed, as in Info.
type View struct {
	blocks []Block
	tower  *Tower
	// Placed is the number of blocks dropped so far.
	Placed int
	// Rotation is the number of quarter turns (0..3) the lot is turned clockwise.
	Rotation int
	// Levels is the number of levels shown from the ground up (H shows everything).
	Levels int
}

// View builds the finished building of a content (every block dropped).
func (b *Problem) View(c problems.Content) (*View, error) {
	blocks, err := b.Blocks(c)
	if err != nil {
		return nil, err
	}
	t, err := NewTower(b.w, b.l, b.h)
	if err != nil {
		return nil, err
	}
	v := &View{blocks: blocks, tower: t, Levels: b.h}
	v.DropAll()
	return v, nil
}

// Blocks is the number of blocks of the content.
func (v *View) Blocks() int { return len(v.blocks) }

// Height is the tower's height limit.
func (v *View) Height() int { return v.tower.H }

// Failed is the number of dropped blocks that found no room under the ceiling.
func (v *View) Failed() int { return v.tower.Failed }

// Drop lets the next block fall; false when all are placed.
func (v *View) Drop() bool {
	if v.Placed >= len(v.blocks) {
		return false
	}
	v.tower.Drop(v.blocks[v.Placed])
	v.Placed++
	return true
}

// DropAll places every remaining block.
func (v *View) DropAll() {
	for v.Drop() {
	}
}

// Clear takes every block off the lot (to replay the construction).
func (v *View) Clear() {
	v.tower.Reset()
	v.Placed = 0
}

// Undrop takes the last block back (the tower is rebuilt from the first blocks: drops do not
// commute).
func (v *View) Undrop() bool {
	if v.Placed == 0 {
		return false
	}
	n := v.Placed - 1
	v.Clear()
	for v.Placed < n {
		v.Drop()
	}
	return true
}

// Rotate turns the lot by quarter turns (negative: counter-clockwise).
func (v *View) Rotate(quarters int) { v.Rotation = ((v.Rotation+quarters)%4 + 4) % 4 }

// ShowLevels changes the number of levels shown by delta, between 1 and the height.
func (v *View) ShowLevels(delta int) {
	v.Levels = min(max(v.Levels+delta, 1), v.tower.H)
}

// Done reports that every block has been dropped.
func (v *View) Done() bool { return v.Placed == len(v.blocks) }

// shown is the tower as seen: the landed blocks turned Rotation quarter turns about the lot's
// centre (the lot is square) and cut above Levels. Footprints turn with the blocks; each block
// keeps its type and so its colour.
func (v *View) shown() *Tower {
	t := v.tower
	out := &Tower{W: t.W, L: t.L, H: t.H}
	for _, b := range t.landed {
		if b.z >= v.Levels {
			continue
		}
		for range v.Rotation {
			// Clockwise on screen: the cell (x, y) goes to (W-1-y, x).
			b.x0, b.y0, b.w, b.d = t.W-(b.y0+b.d), b.x0, b.d, b.w
		}
		out.landed = append(out.landed, b)
	}
	return out
}

// RenderView draws the view isometrically as Render draws the finished building.
func RenderView(v *View) image.Image { return renderTower(v.shown()) }

// Text draws the view as characters (for transcripts): the top view, one character per column
// holding the height of its highest block (. for none), then the placement count.
func (v *View) Text() string {
	t := v.shown()
	top := make([]int, t.W*t.L)
	for _, b := range t.landed {
		for y := b.y0; y < b.y0+b.d; y++ {
			for x := b.x0; x < b.x0+b.w; x++ {
				top[y*t.W+x] = max(top[y*t.W+x], b.z+1)
			}
		}
	}
	var sb strings.Builder
	for y := 0; y < t.L; y++ {
		for x := 0; x < t.W; x++ {
			h := top[y*t.W+x]
			switch {
			case h == 0:
				sb.WriteByte('.')
			case h < 10:
				sb.WriteByte(byte('0' + h))
			default:
				sb.WriteByte(byte('a' + h - 10))
			}
		}
		sb.WriteByte('\n')
	}
	fmt.Fprintf(&sb, "placed %d/%d failed %d rotation %d levels %d\n", v.Placed, len(v.blocks), v.Failed(), v.Rotation, v.Levels)
	return sb.String()
}

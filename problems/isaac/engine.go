package isaac

import "pcgwb/problems/shape"

// Door bits of a room's layout value.
const (
	DoorLeft  = 0x1
	DoorUp    = 0x2
	DoorRight = 0x4
	DoorDown  = 0x8
)

// Cells of the expanded maze.
const (
	mazeWall = 0
	mazeRoom = 1
	mazeDoor = 2
	// mazeStart and mazeBoss are written over the maze only to measure the start→boss walk.
	mazeStart = 3
	mazeBoss  = 4
)

// maze expands each room to a 3×3 block: the room in the centre and a door cell on each side
// that has a door bit. A door joins two rooms only if the neighbour has the matching door.
func maze(layout []int, w, h int) shape.Grid {
	m := shape.NewGrid(3*w, 3*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := layout[y*w+x]
			cx, cy := 3*x+1, 3*y+1
			if v > 0 {
				m.Set(cx, cy, mazeRoom)
			}
			if v&DoorLeft != 0 {
				m.Set(cx-1, cy, mazeDoor)
			}
			if v&DoorUp != 0 {
				m.Set(cx, cy-1, mazeDoor)
			}
			if v&DoorRight != 0 {
				m.Set(cx+1, cy, mazeDoor)
			}
			if v&DoorDown != 0 {
				m.Set(cx, cy+1, mazeDoor)
			}
		}
	}
	return m
}

// looseConnections counts door cells that lead nowhere: doors on the outer border, and pairs
// of facing door cells across a block boundary that disagree (one side has a door, the other
// does not). Checks happen from the right/bottom cell of each block, the first that applies.
func looseConnections(m shape.Grid) int {
	loose := 0
	for y := 0; y < m.H; y++ {
		for x := 0; x < m.W; x++ {
			v := m.At(x, y)
			if x == 0 || y == 0 || x == m.W-1 || y == m.H-1 {
				if v == mazeDoor {
					loose++
				}
				continue
			}
			if x%3 == 2 && v != m.At(x+1, y) {
				loose++
				continue
			}
			if y%3 == 2 && v != m.At(x, y+1) {
				loose++
			}
		}
	}
	return loose
}

// startBossDistance is the reference's walk length from start to boss. It marks the start and
// boss at their *room* coordinates inside the 3× maze rather than at the rooms' centres (a
// reference bug kept for exactness), so the marks usually land on walls or doors near the top
// left corner. -1 when the two coincide (the boss mark overwrites the start) or are not
// connected.
func startBossDistance(m shape.Grid, start, boss, w int) int {
	t := m.Clone()
	t.Set(start%w, start/w, mazeStart)
	t.Set(boss%w, boss/w, mazeBoss)
	return shape.Distance(t, mazeStart, mazeBoss, shape.TileRange(mazeRoom, mazeBoss))
}

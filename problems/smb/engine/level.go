package engine

import (
	"fmt"
	"sort"
	"strings"
)

// Tile ids of the Mario AI Framework that the parser produces.
const (
	TileAir           = 0
	TileGround        = 1  // X
	TileSolid         = 2  // #
	TileBrick         = 6  // S
	TileCoinBrick     = 7  // C
	TileCoinBlock     = 11 // Q, !
	TileUsed          = 14 // D, and every bumped block
	TileCoin          = 15 // o
	TilePipeTopLeft   = 18
	TilePipeTopRight  = 19
	TilePipeLeft      = 20
	TilePipeRight     = 21
	TileFlagTop       = 39
	TileFlagPole      = 40
	TilePlatform      = 43 // % (43..46 by neighbours)
	TilePlatformBody  = 47 // |
	TileHiddenCoin    = 49 // 2
	TileSinglePipeTop = 52
	TileSinglePipe    = 53
)

// TileSize is the edge of a tile in pixels.
const TileSize = 16

// Screen size in pixels; the camera shows this much of the level.
const (
	ScreenWidth  = 256
	ScreenHeight = 256
)

type feature uint16

const (
	blockUpper feature = 1 << iota
	blockAll
	blockLower
	special
	life
	bumpable
	breakable
	pickable
)

// features is the framework's TileFeature.getTileType for every tile id.
var features = func() (f [256]feature) {
	for _, id := range []int{1, 2, 14, 18, 19, 20, 21, 4, 5, 52, 53} {
		f[id] = blockAll
	}
	for id := 43; id <= 46; id++ {
		f[id] = blockLower
	}
	f[48] = blockUpper | life | bumpable
	f[49] = bumpable | blockUpper
	f[3] = blockAll // a bullet bill cannon (also a spawner; the parser refuses cannons)
	f[8] = blockAll | special | bumpable
	f[11] = blockAll | bumpable
	f[6] = blockAll | breakable
	f[7] = blockAll | bumpable
	f[15] = pickable
	f[50] = blockAll | special | bumpable
	f[51] = blockAll | life | bumpable
	return f
}()

// Blocking reports whether a tile id stops Mario and the enemies from every side.
func Blocking(tile int) bool { return tile >= 0 && tile < 256 && features[tile]&blockAll != 0 }

// SpriteType is the framework's sprite type code (also the enemy template of a level cell).
type SpriteType int8

// The sprite types the engine plays. Winged types are odd.
const (
	NoSprite         SpriteType = 0
	Goomba           SpriteType = 2
	GoombaWinged     SpriteType = 3
	RedKoopa         SpriteType = 4
	RedKoopaWinged   SpriteType = 5
	GreenKoopa       SpriteType = 6
	GreenKoopaWinged SpriteType = 7
	Spiky            SpriteType = 8
	SpikyWinged      SpriteType = 9
	MarioSprite      SpriteType = -31
)

// Template is an enemy placed in the level; it spawns when its cell comes into view.
type Template struct {
	X, Y int
	Type SpriteType
}

// Level is a parsed level. It never changes while a game runs: a world copies what it
// changes (coins taken, blocks bumped).
type Level struct {
	// W and H are in tiles. The level text ends with a newline, so the reference sees one
	// more, empty, line: a 16-row level is 17 tiles high.
	W, H int
	// tiles is column-major: tiles[x*H+y].
	tiles []uint8
	// templates are sorted by column, then row; colStart[x]..colStart[x+1] index column x.
	templates []Template
	colStart  []int32
	// MarioX, MarioY is Mario's start tile; ExitX, ExitY the flag's.
	MarioX, MarioY int
	ExitX, ExitY   int
	TotalCoins     int
}

// unsupported are the framework's characters whose sprites (piranha flowers, bullet bills,
// mushrooms, fire flowers, 1-ups) this port does not implement; the benchmark never uses them.
const unsupported = "T*Bb?@1LU"

// ParseLevel reads a level in the Mario AI Framework's text format (one line per row, the
// reference's levels end with a newline). Unknown characters are air, as in the framework.
func ParseLevel(text string) (*Level, error) {
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("smb engine: empty level")
	}
	lines := strings.Split(text, "\n")
	l := &Level{W: len(lines[0]), H: len(lines)}
	if l.W == 0 {
		return nil, fmt.Errorf("smb engine: the first line of the level is empty")
	}
	l.tiles = make([]uint8, l.W*l.H)
	at := func(x, y int) byte {
		if y < 0 || y >= len(lines) || x < 0 || x >= len(lines[y]) {
			return 0
		}
		return lines[y][x]
	}
	lowerT := func(c byte) bool { return c == 't' || c == 'T' }
	marioSet, exitSet := false, false
	for y, line := range lines {
		if len(line) > l.W {
			return nil, fmt.Errorf("smb engine: line %d is longer than the first line", y+1)
		}
		for x := 0; x < len(line); x++ {
			c := line[x]
			if strings.IndexByte(unsupported, c) >= 0 {
				return nil, fmt.Errorf("smb engine: level character %q (line %d) is not supported", c, y+1)
			}
			var tile int
			switch c {
			case 'M':
				l.MarioX, l.MarioY, marioSet = x, y, true
			case 'F':
				l.ExitX, l.ExitY, exitSet = x, y, true
			case 'y':
				l.templates = append(l.templates, Template{x, y, Spiky})
			case 'Y':
				l.templates = append(l.templates, Template{x, y, SpikyWinged})
			case 'E', 'g':
				l.templates = append(l.templates, Template{x, y, Goomba})
			case 'G':
				l.templates = append(l.templates, Template{x, y, GoombaWinged})
			case 'k':
				l.templates = append(l.templates, Template{x, y, GreenKoopa})
			case 'K':
				l.templates = append(l.templates, Template{x, y, GreenKoopaWinged})
			case 'r':
				l.templates = append(l.templates, Template{x, y, RedKoopa})
			case 'R':
				l.templates = append(l.templates, Template{x, y, RedKoopaWinged})
			case 'X':
				tile = TileGround
			case '#':
				tile = TileSolid
			case '%':
				i := 0
				if x > 0 && line[x-1] == '%' {
					i += 2
				}
				if x < l.W-1 && at(x+1, y) == '%' {
					i++
				}
				tile = TilePlatform + i
			case '|':
				tile = TilePlatformBody
			case 'Q', '!':
				l.TotalCoins++
				tile = TileCoinBlock
			case '2':
				l.TotalCoins++
				tile = TileHiddenCoin
			case 'D':
				tile = TileUsed
			case 'S':
				tile = TileBrick
			case 'C':
				l.TotalCoins++
				tile = TileCoinBrick
			case 'o':
				l.TotalCoins++
				tile = TileCoin
			case 't':
				single := x < len(line)-1 && !lowerT(line[x+1]) && x > 0 && !lowerT(line[x-1])
				i := 0
				if x > 0 {
					if left := l.tiles[(x-1)*l.H+y]; left == TilePipeTopLeft || left == TilePipeLeft {
						i++
					}
				}
				if y > 0 && lowerT(at(x, y-1)) {
					if single {
						i++
					} else {
						i += 2
					}
				}
				if single {
					tile = TileSinglePipeTop + i
				} else {
					tile = TilePipeTopLeft + i
				}
			case '<':
				tile = TilePipeTopLeft
			case '>':
				tile = TilePipeTopRight
			case '[':
				tile = TilePipeLeft
			case ']':
				tile = TilePipeRight
			}
			l.tiles[x*l.H+y] = uint8(tile)
		}
	}
	if !marioSet {
		l.MarioX = 0
		l.MarioY = firstFloor(lines, l.MarioX)
	}
	if !exitSet {
		l.ExitX = l.W - 1
		l.ExitY = firstFloor(lines, l.ExitX)
	}
	if l.ExitY < 0 {
		return nil, fmt.Errorf("smb engine: no floor under the exit column")
	}
	top := max(1, l.ExitY-11)
	for y := l.ExitY; y > top; y-- {
		l.tiles[l.ExitX*l.H+y] = TileFlagPole
	}
	if top < l.H {
		l.tiles[l.ExitX*l.H+top] = TileFlagTop
	}
	sort.SliceStable(l.templates, func(i, j int) bool {
		a, b := l.templates[i], l.templates[j]
		return a.X < b.X || (a.X == b.X && a.Y < b.Y)
	})
	l.colStart = make([]int32, l.W+1)
	for _, t := range l.templates {
		l.colStart[t.X+1]++
	}
	for x := 0; x < l.W; x++ {
		l.colStart[x+1] += l.colStart[x]
	}
	return l, nil
}

func solidChar(c byte) bool { return strings.IndexByte("X#@!BCQ<>[]?SUD%tT", c) >= 0 }

// firstFloor is the framework's _findFirstFloor: from the bottom, skip the solid run, then the
// first non-solid row.
func firstFloor(lines []string, x int) int {
	skip := true
	for i := len(lines) - 1; i >= 0; i-- {
		var c byte
		if x < len(lines[i]) {
			c = lines[i][x]
		}
		if solidChar(c) {
			skip = false
			continue
		}
		if !skip {
			return i
		}
	}
	return -1
}

// Tile is the level's initial tile id at (x, y), 0 outside.
func (l *Level) Tile(x, y int) int {
	if x < 0 || y < 0 || x >= l.W || y >= l.H {
		return 0
	}
	return int(l.tiles[x*l.H+y])
}

// Templates lists the enemies placed in the level, by column then row.
func (l *Level) Templates() []Template { return l.templates }

// WidthPx and HeightPx are the level's size in pixels.
func (l *Level) WidthPx() int  { return l.W * TileSize }
func (l *Level) HeightPx() int { return l.H * TileSize }

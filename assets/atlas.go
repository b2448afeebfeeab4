package assets

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"sort"
	"strings"
	"sync"
)

// TileSize is the edge of every atlas sprite, in pixels.
const TileSize = 16

// Palette is the workbench's pixel-art palette: one character per colour, used by every sprite
// and by the GUI theme so levels and chrome look of a piece. '.' is transparent.
var Palette = map[byte]color.RGBA{
	'.': {0, 0, 0, 0},
	'k': {0x1a, 0x1c, 0x2c, 0xff}, // ink (near black)
	'p': {0x5d, 0x27, 0x5d, 0xff}, // plum
	'r': {0xb1, 0x3e, 0x53, 0xff}, // red
	'o': {0xef, 0x7d, 0x57, 0xff}, // orange
	'y': {0xff, 0xcd, 0x75, 0xff}, // yellow
	'l': {0xa7, 0xf0, 0x70, 0xff}, // lime
	'g': {0x38, 0xb7, 0x64, 0xff}, // green
	't': {0x25, 0x71, 0x79, 0xff}, // teal
	'n': {0x29, 0x36, 0x6f, 0xff}, // navy
	'b': {0x3b, 0x5d, 0xc9, 0xff}, // blue
	'c': {0x41, 0xa6, 0xf6, 0xff}, // cyan
	'a': {0x73, 0xef, 0xf7, 0xff}, // aqua
	'w': {0xf4, 0xf4, 0xf4, 0xff}, // white
	's': {0x94, 0xb0, 0xc2, 0xff}, // silver
	'h': {0x56, 0x6c, 0x86, 0xff}, // slate
	'd': {0x33, 0x3c, 0x57, 0xff}, // dark slate
	'm': {0x8b, 0x5a, 0x2b, 0xff}, // brown (wood, earth)
}

var (
	atlasMu sync.RWMutex
	sources = map[string][]string{}
	cache   = map[string]*image.RGBA{}
)

// Define adds a sprite: TileSize rows of TileSize palette characters. Sprite files call it from
// init; a malformed sprite is a programming error and panics at start-up (a test covers all).
func Define(name string, rows ...string) {
	if len(rows) != TileSize {
		panic(fmt.Sprintf("sprite %q: %d rows, want %d", name, len(rows), TileSize))
	}
	for i, r := range rows {
		if len(r) != TileSize {
			panic(fmt.Sprintf("sprite %q row %d: %d columns, want %d", name, i, len(r), TileSize))
		}
		for j := 0; j < len(r); j++ {
			if _, ok := Palette[r[j]]; !ok {
				panic(fmt.Sprintf("sprite %q row %d col %d: %q is not in the palette", name, i, j, r[j]))
			}
		}
	}
	atlasMu.Lock()
	defer atlasMu.Unlock()
	if _, dup := sources[name]; dup {
		panic(fmt.Sprintf("sprite %q defined twice", name))
	}
	sources[name] = rows
}

// Sprite returns the named 16×16 sprite. The image is shared: do not modify it. An unknown name
// gives a magenta-checkered placeholder so a missing sprite is visible, not fatal.
func Sprite(name string) *image.RGBA {
	atlasMu.RLock()
	img, ok := cache[name]
	atlasMu.RUnlock()
	if ok {
		return img
	}
	atlasMu.Lock()
	defer atlasMu.Unlock()
	if img, ok := cache[name]; ok {
		return img
	}
	img = image.NewRGBA(image.Rect(0, 0, TileSize, TileSize))
	rows, ok := sources[name]
	for y := 0; y < TileSize; y++ {
		for x := 0; x < TileSize; x++ {
			if !ok {
				if (x/4+y/4)%2 == 0 {
					img.SetRGBA(x, y, color.RGBA{0xff, 0, 0xff, 0xff})
				}
				continue
			}
			img.SetRGBA(x, y, Palette[rows[y][x]])
		}
	}
	cache[name] = img
	return img
}

// Has reports whether a sprite is defined.
func Has(name string) bool {
	atlasMu.RLock()
	defer atlasMu.RUnlock()
	_, ok := sources[name]
	return ok
}

// Names lists the defined sprites, sorted.
func Names() []string {
	atlasMu.RLock()
	defer atlasMu.RUnlock()
	out := make([]string, 0, len(sources))
	for n := range sources {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// TileMap draws a grid of sprite names (rows of columns) at TileSize pixels per tile.
func TileMap(names [][]string) *image.RGBA {
	h := len(names)
	w := 0
	if h > 0 {
		w = len(names[0])
	}
	img := image.NewRGBA(image.Rect(0, 0, w*TileSize, h*TileSize))
	for y, row := range names {
		for x, n := range row {
			DrawSprite(img, n, x*TileSize, y*TileSize)
		}
	}
	return img
}

// DrawSprite composites a sprite onto dst with its top-left corner at (x, y).
func DrawSprite(dst draw.Image, name string, x, y int) {
	s := Sprite(name)
	draw.Draw(dst, image.Rect(x, y, x+TileSize, y+TileSize), s, image.Point{}, draw.Over)
}

// Fill paints the whole image with a palette colour.
func Fill(dst draw.Image, c byte) {
	draw.Draw(dst, dst.Bounds(), &image.Uniform{Palette[c]}, image.Point{}, draw.Src)
}

// Art renders a multi-line sprite literal (used in tests and docs to show a sprite).
func Art(name string) string {
	atlasMu.RLock()
	defer atlasMu.RUnlock()
	return strings.Join(sources[name], "\n")
}

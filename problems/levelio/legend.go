package levelio

import (
	"fmt"
	"strconv"

	"pcgwb/problems"
	"pcgwb/problems/smbtile"
	"pcgwb/problems/space"
)

// Legend maps a tile problem's tile values to characters and names: value v is Chars[v].
type Legend struct {
	Chars string
	Names []string
}

// legends are the tile legends by problem family (problems.Family): the VGLC-style
// characters of the tile problems. Other tile-grid problems get digits and letters.
var legends = problems.NewFamilyTable[Legend]("tile legend")

// RegisterLegend gives the tile problems of family f a legend: value v is written Chars[v]
// and named Names[v]. A problem whose tile count differs from the legend's gets the generic
// one. Call it from this file's init (a problem package cannot import levelio: levelio's tests
// import problems/all); a family registered twice panics.
func RegisterLegend(f problems.Family, l Legend) { legends.Register(f, l) }

// LegendFamilies lists the families with a legend of their own, sorted.
func LegendFamilies() []problems.Family { return legends.Families() }

func init() {
	RegisterLegend("zelda", Legend{"WFAKDE", []string{"wall", "floor", "player", "key", "door", "enemy"}})
	RegisterLegend("sokoban", Legend{"#-@$.", []string{"wall", "floor", "player", "crate", "target"}})
	RegisterLegend("ddave", Legend{"#-@D*K^", []string{"solid", "empty", "player", "exit", "diamond", "key", "spike"}})
	RegisterLegend("mdungeons", Legend{"#-@XPTgo", []string{"solid", "empty", "player", "exit", "potion", "treasure", "goblin", "ogre"}})
	RegisterLegend("binary", Legend{"#-", []string{"solid", "empty"}})
	RegisterLegend("loderunnertile", Legend{"B.MGE#-", []string{"brick", "empty", "player", "gold", "enemy", "ladder", "rope"}})
	RegisterLegend("smbtile", Legend{smbtile.Symbols, []string{"sky", "ground", "solid block", "brick", "coin block", "pipe", "coin", "goomba", "koopa", "spiky"}})
}

// genericChars name the values of tile problems without a legend of their own.
const genericChars = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// Grid is the shape of a tile problem's contents: rows × cols values in [Min, Max).
type Grid struct {
	Rows, Cols, Min, Max int
}

// GridOf reports whether problem p's contents are one 2-D grid of whole numbers, and its shape.
func GridOf(p problems.Problem) (Grid, bool) {
	a, ok := p.ContentSpace().(space.Array)
	if !ok || len(a.Dims) != 2 || a.Dims[0] < 1 || a.Dims[1] < 1 {
		return Grid{}, false
	}
	leaf, ok := a.Leaf.(space.Int)
	if !ok || leaf.Max <= leaf.Min {
		return Grid{}, false
	}
	return Grid{Rows: a.Dims[0], Cols: a.Dims[1], Min: leaf.Min, Max: leaf.Max}, true
}

// LegendOf is the legend of the problem registered as name.
func LegendOf(name string, p problems.Problem) (Legend, Grid, error) {
	g, ok := GridOf(p)
	if !ok {
		return Legend{}, Grid{}, fmt.Errorf("%s is not a tile problem: its levels are not one grid of tiles", name)
	}
	n := g.Max - g.Min
	if l, ok := legends.Of(name); ok && len(l.Chars) == n && g.Min == 0 {
		return l, g, nil
	}
	if n > len(genericChars) {
		return Legend{}, Grid{}, fmt.Errorf("%s has %d tiles, more than the text format's %d characters", name, n, len(genericChars))
	}
	l := Legend{Chars: genericChars[:n]}
	for v := g.Min; v < g.Max; v++ {
		l.Names = append(l.Names, "tile "+strconv.Itoa(v))
	}
	return l, g, nil
}

// Cells reads a normalized grid content as rows of ints.
func Cells(c problems.Content) ([][]int, error) {
	rows, ok := c.([]any)
	if !ok {
		return nil, fmt.Errorf("the content is not a grid")
	}
	out := make([][]int, len(rows))
	for y, r := range rows {
		row, ok := r.([]any)
		if !ok {
			return nil, fmt.Errorf("row %d is not a list", y)
		}
		out[y] = make([]int, len(row))
		for x, v := range row {
			n, ok := v.(int)
			if !ok {
				return nil, fmt.Errorf("tile (%d, %d) is not a whole number", x, y)
			}
			out[y][x] = n
		}
	}
	return out, nil
}

// ContentOf is a grid as a content (rows of []any of int), as the content spaces normalize it.
func ContentOf(g [][]int) problems.Content {
	out := make([]any, len(g))
	for y, r := range g {
		row := make([]any, len(r))
		for x, v := range r {
			row[x] = v
		}
		out[y] = row
	}
	return out
}

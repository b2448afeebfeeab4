package levelio

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"strconv"
	"strings"

	"pcgwb/assets"
	"pcgwb/internal/safeio"
	"pcgwb/problems"
)

// Tileset draws one tile per value of a tile problem, left to right, cut from the problem's own
// rendering (a level filled with the value, drawn with the project's sprites). It fails for a
// problem that does not draw its levels as a grid of TileSize cells.
func Tileset(name string, p problems.Problem) (*image.RGBA, error) {
	_, g, err := LegendOf(name, p)
	if err != nil {
		return nil, err
	}
	t := assets.TileSize
	n := g.Max - g.Min
	out := image.NewRGBA(image.Rect(0, 0, n*t, t))
	for v := g.Min; v < g.Max; v++ {
		fill := make([][]int, g.Rows)
		for y := range fill {
			fill[y] = make([]int, g.Cols)
			for x := range fill[y] {
				fill[y][x] = v
			}
		}
		img, err := p.Render(ContentOf(fill))
		if err != nil {
			continue // a tile the problem cannot draw alone stays transparent
		}
		b := img.Bounds()
		dx, dy := b.Dx()-g.Cols*t, b.Dy()-g.Rows*t
		if dx < 0 || dy < 0 || dx%2 != 0 || dy%2 != 0 {
			return nil, fmt.Errorf("%s does not draw its levels as a grid of %d-pixel tiles (%d×%d pixels for %d×%d tiles)", name, t, b.Dx(), b.Dy(), g.Cols, g.Rows)
		}
		// The middle cell: its neighbours are the same tile, like a run of it in a level.
		src := image.Pt(b.Min.X+dx/2+(g.Cols/2)*t, b.Min.Y+dy/2+(g.Rows/2)*t)
		draw.Draw(out, image.Rect((v-g.Min)*t, 0, (v-g.Min+1)*t, t), img, src, draw.Src)
	}
	if err := checkMosaic(name, p, g, out); err != nil {
		return nil, err
	}
	return out, nil
}

// checkMosaic makes sure a level drawn from the tileset, tile by tile, looks like the problem's
// own drawing of it (a problem whose tiles depend on their neighbours, like Mario's pipes, is
// not a tile map for Tiled).
func checkMosaic(name string, p problems.Problem, g Grid, tiles *image.RGBA) error {
	c, err := p.ContentSpace().Normalize(p.ContentSpace().Sample(problems.NewRand(1)), "content")
	if err != nil {
		return err
	}
	want, err := p.Render(c)
	if err != nil {
		return nil // nothing to compare with
	}
	rows, err := Cells(c)
	if err != nil {
		return err
	}
	mosaic := Mosaic(rows, g.Min, tiles)
	if d := differ(mosaic, want); d > g.Rows*g.Cols*assets.TileSize*assets.TileSize/50 {
		return fmt.Errorf("%s is not drawn tile by tile (%d pixels of a level drawn from its tiles differ)", name, d)
	}
	return nil
}

// Mosaic draws a grid of tile values from a tileset (one row of tiles, the first for value
// min), as Tiled draws a map.
func Mosaic(rows [][]int, min int, tiles image.Image) *image.RGBA {
	t := assets.TileSize
	out := image.NewRGBA(image.Rect(0, 0, len(rows[0])*t, len(rows)*t))
	for y, row := range rows {
		for x, v := range row {
			draw.Draw(out, image.Rect(x*t, y*t, (x+1)*t, (y+1)*t), tiles, image.Pt((v-min)*t, 0), draw.Over)
		}
	}
	return out
}

// differ counts the pixels of a (a tile map) that differ from b's middle part of the same size
// (b may have a border), ignoring transparent ones.
func differ(a *image.RGBA, b image.Image) int {
	ab, bb := a.Bounds(), b.Bounds()
	if bb.Dx() < ab.Dx() || bb.Dy() < ab.Dy() {
		return ab.Dx() * ab.Dy()
	}
	off := image.Pt(bb.Min.X+(bb.Dx()-ab.Dx())/2, bb.Min.Y+(bb.Dy()-ab.Dy())/2)
	n := 0
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(off.X+x, off.Y+y).RGBA()
			if a1 != 0 && a2 != 0 && (r1>>8 != r2>>8 || g1>>8 != g2>>8 || b1>>8 != b2>>8) {
				n++
			}
		}
	}
	return n
}

// TilesetPNG is Tileset encoded as PNG.
func TilesetPNG(name string, p problems.Problem) ([]byte, error) {
	img, err := Tileset(name, p)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = png.Encode(&b, img)
	return b.Bytes(), err
}

type tmxMap struct {
	XMLName      xml.Name   `xml:"map"`
	Version      string     `xml:"version,attr"`
	TiledVersion string     `xml:"tiledversion,attr,omitempty"`
	Orientation  string     `xml:"orientation,attr"`
	RenderOrder  string     `xml:"renderorder,attr"`
	Width        int        `xml:"width,attr"`
	Height       int        `xml:"height,attr"`
	TileWidth    int        `xml:"tilewidth,attr"`
	TileHeight   int        `xml:"tileheight,attr"`
	Infinite     int        `xml:"infinite,attr"`
	NextLayerID  int        `xml:"nextlayerid,attr"`
	NextObjectID int        `xml:"nextobjectid,attr"`
	Properties   []tmxProp  `xml:"properties>property"`
	Tilesets     []tmxTiles `xml:"tileset"`
	Layers       []tmxLayer `xml:"layer"`
}

type tmxProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type tmxTiles struct {
	FirstGID   int       `xml:"firstgid,attr"`
	Name       string    `xml:"name,attr"`
	TileWidth  int       `xml:"tilewidth,attr"`
	TileHeight int       `xml:"tileheight,attr"`
	TileCount  int       `xml:"tilecount,attr"`
	Columns    int       `xml:"columns,attr"`
	Image      tmxImage  `xml:"image"`
	Tiles      []tmxTile `xml:"tile"`
}

type tmxImage struct {
	Source string `xml:"source,attr"`
	Width  int    `xml:"width,attr"`
	Height int    `xml:"height,attr"`
}

type tmxTile struct {
	ID         int       `xml:"id,attr"`
	Properties []tmxProp `xml:"properties>property"`
}

type tmxLayer struct {
	ID     int     `xml:"id,attr"`
	Name   string  `xml:"name,attr"`
	Width  int     `xml:"width,attr"`
	Height int     `xml:"height,attr"`
	Data   tmxData `xml:"data"`
}

type tmxData struct {
	Encoding string `xml:"encoding,attr"`
	Text     string `xml:",innerxml"` // digits, commas and line ends only
}

// EncodeTMX writes one level of the problem registered as name as a Tiled map (orthogonal,
// one CSV tile layer "level") whose tileset is the image at tileset (a path relative to the
// map, TilesetPNG's picture). Each tile carries its value, character and name as properties.
func EncodeTMX(name string, p problems.Problem, item problems.Item, tileset string) ([]byte, error) {
	l, g, err := LegendOf(name, p)
	if err != nil {
		return nil, err
	}
	rows, err := Cells(item.Content)
	if err != nil {
		return nil, err
	}
	t := assets.TileSize
	n := g.Max - g.Min
	ts := tmxTiles{FirstGID: 1, Name: name, TileWidth: t, TileHeight: t, TileCount: n, Columns: n,
		Image: tmxImage{Source: tileset, Width: n * t, Height: t}}
	for i := 0; i < n; i++ {
		ts.Tiles = append(ts.Tiles, tmxTile{ID: i, Properties: []tmxProp{
			{"char", string(l.Chars[i])}, {"name", l.Names[i]}, {"value", strconv.Itoa(g.Min + i)}}})
	}
	var csv strings.Builder
	csv.WriteByte('\n')
	for y, row := range rows {
		for x, v := range row {
			if v < g.Min || v >= g.Max {
				return nil, fmt.Errorf("tile (%d, %d) = %d is outside [%d, %d)", x, y, v, g.Min, g.Max)
			}
			csv.WriteString(strconv.Itoa(v - g.Min + 1))
			if x < len(row)-1 || y < len(rows)-1 {
				csv.WriteByte(',')
			}
		}
		csv.WriteByte('\n')
	}
	m := tmxMap{Version: "1.8", TiledVersion: "1.8.2", Orientation: "orthogonal", RenderOrder: "right-down",
		Width: g.Cols, Height: g.Rows, TileWidth: t, TileHeight: t, NextLayerID: 2, NextObjectID: 1,
		Properties: []tmxProp{{"problem", name}, {"id", item.ID}},
		Tilesets:   []tmxTiles{ts},
		Layers:     []tmxLayer{{ID: 1, Name: "level", Width: g.Cols, Height: g.Rows, Data: tmxData{Encoding: "csv", Text: csv.String()}}}}
	out, err := xml.MarshalIndent(m, "", " ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}

// DecodeTMX reads a Tiled map of the problem registered as name: its first tile layer (CSV
// encoded) over its first tileset, whose tile ids are the tile values from the problem's first.
// The level is normalized through the problem's content space.
func DecodeTMX(name string, p problems.Problem, data []byte) (problems.Item, error) {
	_, g, err := LegendOf(name, p)
	if err != nil {
		return problems.Item{}, err
	}
	var m tmxMap
	if err := xml.Unmarshal(data, &m); err != nil {
		return problems.Item{}, fmt.Errorf("not a Tiled map: %w", err)
	}
	if len(m.Layers) == 0 || len(m.Tilesets) == 0 {
		return problems.Item{}, fmt.Errorf("the map has no tile layer or no tileset")
	}
	if m.Width != g.Cols || m.Height != g.Rows {
		return problems.Item{}, fmt.Errorf("the map is %d×%d tiles, %s levels are %d×%d", m.Width, m.Height, name, g.Cols, g.Rows)
	}
	layer, first := m.Layers[0], m.Tilesets[0].FirstGID
	if layer.Data.Encoding != "csv" {
		return problems.Item{}, fmt.Errorf("the layer's data is %s encoded; save the map with CSV layer data", safeio.ExcerptString(layer.Data.Encoding))
	}
	fields := strings.FieldsFunc(layer.Data.Text, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' || r == ' ' || r == '\t' })
	if len(fields) != g.Rows*g.Cols {
		return problems.Item{}, fmt.Errorf("the layer holds %d tiles, want %d", len(fields), g.Rows*g.Cols)
	}
	grid := make([][]int, g.Rows)
	for i, f := range fields {
		gid, err := strconv.ParseUint(f, 10, 32)
		v := int(gid) - first + g.Min
		if err != nil || gid == 0 || v < g.Min || v >= g.Max {
			return problems.Item{}, fmt.Errorf("tile (%d, %d): %s is not a tile of the tileset", i%g.Cols, i/g.Cols, safeio.ExcerptString(f))
		}
		grid[i/g.Cols] = append(grid[i/g.Cols], v)
	}
	c, err := p.ContentSpace().Normalize(ContentOf(grid), "content")
	if err != nil {
		return problems.Item{}, err
	}
	item := problems.Item{Content: c}
	for _, pr := range m.Properties {
		if pr.Name == "id" {
			item.ID = pr.Value
		}
	}
	return item, nil
}

package experiment

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"pcgwb/internal/atomicfile"
)

// FigureFormats lists the formats the report can draw its figures in (gonum/plot's backends).
func FigureFormats() []string { return []string{"png", "svg", "pdf"} }

// ParseFormats reads a comma-separated list of figure formats ("png,svg,pdf"; case and spaces
// ignored, repeats dropped); empty is png.
func ParseFormats(s string) ([]string, error) {
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" || slices.Contains(out, f) {
			continue
		}
		if !slices.Contains(FigureFormats(), f) {
			return nil, fmt.Errorf("unknown figure format %q (choose from %s)", f, strings.Join(FigureFormats(), ", "))
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		out = []string{"png"}
	}
	return out, nil
}

// figureWriter draws a figure once per format into base.<format>.
type figureWriter []string

// save paints a w × h figure into base.png, base.svg, base.pdf (those of fw, each written
// atomically) and returns their paths.
func (fw figureWriter) save(w, h vg.Length, base string, paint func(draw.Canvas)) ([]string, error) {
	formats := fw
	if len(formats) == 0 {
		formats = []string{"png"}
	}
	var paths []string
	for _, f := range formats {
		var c interface {
			vg.Canvas
			io.WriterTo
		}
		switch f {
		case "png":
			img := vgimg.New(w, h)
			paint(draw.New(img))
			c = vgimg.PngCanvas{Canvas: img}
		case "svg":
			svg := vgsvg.New(w, h)
			paint(draw.New(svg))
			c = svg
		case "pdf":
			pdf := vgpdf.New(w, h)
			paint(draw.New(pdf))
			c = pdf
		default:
			return nil, fmt.Errorf("unknown figure format %q", f)
		}
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, err
		}
		path := base + "." + f
		if err := atomicfile.Write(path, buf.Bytes(), 0o644); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

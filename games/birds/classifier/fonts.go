package classifier

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/fnv"
	"image"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// FontDir is where Debian installs fonts.
const FontDir = "/usr/share/fonts"

// Face is one font face's capitals as outlines (units: 1 em = 1, y down), loaded once.
type Face struct {
	File   string // relative to the font directory
	Family string
	Style  string
	Glyphs [Classes][]seg
}

// seg is an outline segment: op 0 move, 1 line, 2 quadratic, 3 cubic, with its points.
type seg struct {
	op  uint8
	pts [3]pt
}

// faceSkip filters families whose A–Z are not letters (symbols, dingbats) or not upright Latin
// capitals a letter classifier should learn.
var faceSkip = []string{"symbol", "dingbat", "emoji", "icon", "awesome", "math", "musical", "braille"}

// IsFontFile says whether a path names a font file LoadFaces reads.
func IsFontFile(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".ttf" || ext == ".otf" || ext == ".ttc"
}

// LoadFaces reads every font file under dir (see LoadFaceFiles).
func LoadFaces(dir string) ([]*Face, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if !d.IsDir() && IsFontFile(path) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return LoadFaceFiles(dir, files)
}

// LoadFaceFiles reads the given .ttf/.otf/.ttc files, keeps the faces with all 26 capitals,
// drops faces whose capitals are identical to an earlier face's (the same font shipped twice)
// and returns them sorted by file name (relative to dir).
func LoadFaceFiles(dir string, files []string) ([]*Face, error) {
	files = append([]string(nil), files...)
	sort.Strings(files)
	seen := map[[32]byte]bool{}
	var out []*Face
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var fonts []*sfnt.Font
		if strings.EqualFold(filepath.Ext(path), ".ttc") {
			c, err := sfnt.ParseCollection(data)
			if err != nil {
				continue
			}
			for i := 0; i < c.NumFonts(); i++ {
				if f, err := c.Font(i); err == nil {
					fonts = append(fonts, f)
				}
			}
		} else if f, err := sfnt.Parse(data); err == nil {
			fonts = append(fonts, f)
		}
		rel, _ := filepath.Rel(dir, path)
		for i, f := range fonts {
			face, err := loadFace(f)
			if err != nil {
				continue
			}
			face.File = rel
			if len(fonts) > 1 {
				face.File = fmt.Sprintf("%s#%d", rel, i)
			}
			name := strings.ToLower(face.Family + " " + face.Style + " " + rel)
			skip := false
			for _, s := range faceSkip {
				if strings.Contains(name, s) {
					skip = true
				}
			}
			if skip {
				continue
			}
			h := face.hash()
			if seen[h] {
				continue
			}
			seen[h] = true
			out = append(out, face)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no usable fonts in %d files under %s (run make train-classifier, which installs Debian font packages)", len(files), dir)
	}
	return out, nil
}

// ParseFace reads one font (TrueType or OpenType bytes).
func ParseFace(data []byte, file string) (*Face, error) {
	f, err := sfnt.Parse(data)
	if err != nil {
		return nil, err
	}
	face, err := loadFace(f)
	if err != nil {
		return nil, err
	}
	face.File = file
	return face, nil
}

func loadFace(f *sfnt.Font) (*Face, error) {
	var buf sfnt.Buffer
	face := &Face{}
	face.Family, _ = f.Name(&buf, sfnt.NameIDFamily)
	face.Style, _ = f.Name(&buf, sfnt.NameIDSubfamily)
	const ppem = 1024
	for i := 0; i < Classes; i++ {
		gi, err := f.GlyphIndex(&buf, rune('A'+i))
		if err != nil || gi == 0 {
			return nil, errors.New("missing capital")
		}
		segs, err := f.LoadGlyph(&buf, gi, fixed.I(ppem), nil)
		if err != nil || len(segs) < 3 {
			return nil, errors.New("empty capital")
		}
		out := make([]seg, len(segs))
		for j, s := range segs {
			var n int
			switch s.Op {
			case sfnt.SegmentOpMoveTo, sfnt.SegmentOpLineTo:
				n = 1
			case sfnt.SegmentOpQuadTo:
				n = 2
			default:
				n = 3
			}
			out[j].op = uint8(s.Op)
			for k := 0; k < n; k++ {
				out[j].pts[k] = pt{float64(s.Args[k].X) / 64 / ppem, float64(s.Args[k].Y) / 64 / ppem}
			}
		}
		face.Glyphs[i] = out
	}
	return face, nil
}

func (f *Face) hash() [32]byte {
	h := sha256.New()
	for _, g := range f.Glyphs {
		for _, s := range g {
			fmt.Fprintf(h, "%d %.4f %.4f %.4f %.4f|", s.op, s.pts[0].x, s.pts[0].y, s.pts[2].x, s.pts[2].y)
		}
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// TestFamily says whether a family is held out for testing: about one family in seven, chosen
// by a hash of its name so that whole families (all weights and styles) are unseen in training.
func TestFamily(family string) bool {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(strings.TrimSpace(family))))
	return h.Sum32()%7 == 3
}

// affine maps (x, y) to (a·x + b·y + c, d·x + e·y + f).
type affine struct{ a, b, c, d, e, f float64 }

func (t affine) apply(p pt) pt {
	return pt{t.a*p.x + t.b*p.y + t.c, t.d*p.x + t.e*p.y + t.f}
}

// bounds of a glyph's control points under a transform (a slight over-estimate for curves).
func glyphBounds(g []seg, t affine) (minX, minY, maxX, maxY float64) {
	minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, s := range g {
		n := [4]int{1, 1, 2, 3}[s.op]
		for k := 0; k < n; k++ {
			p := t.apply(s.pts[k])
			minX, maxX = math.Min(minX, p.x), math.Max(maxX, p.x)
			minY, maxY = math.Min(minY, p.y), math.Max(maxY, p.y)
		}
	}
	return
}

// rasterGlyph fills a w×h coverage image with the glyph under the transform.
func rasterGlyph(g []seg, t affine, w, h int, z *vector.Rasterizer, dst *image.Alpha) {
	z.Reset(w, h)
	open := false
	for _, s := range g {
		p := make([]pt, 3)
		n := [4]int{1, 1, 2, 3}[s.op]
		for k := 0; k < n; k++ {
			p[k] = t.apply(s.pts[k])
		}
		switch s.op {
		case 0:
			if open {
				z.ClosePath()
			}
			z.MoveTo(float32(p[0].x), float32(p[0].y))
			open = true
		case 1:
			z.LineTo(float32(p[0].x), float32(p[0].y))
		case 2:
			z.QuadTo(float32(p[0].x), float32(p[0].y), float32(p[1].x), float32(p[1].y))
		case 3:
			z.CubeTo(float32(p[0].x), float32(p[0].y), float32(p[1].x), float32(p[1].y), float32(p[2].x), float32(p[2].y))
		}
	}
	if open {
		z.ClosePath()
	}
	clear(dst.Pix)
	z.Draw(dst, dst.Rect, image.Opaque, image.Point{})
}

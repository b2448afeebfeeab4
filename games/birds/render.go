package birds

import (
	"bufio"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	"github.com/ByteArena/box2d"
)

// The evaluator's image: a 1024×1024 picture whose central 824×824 square holds the structure,
// scaled so that its larger side fills the square.
const (
	ImageSize   = 1024
	ImageMargin = 100
	renderSize  = ImageSize - 2*ImageMargin
	// Evaluator sprites are 0.02 larger than the colliders they stand for, so blocks resting
	// about 0.015 apart look fused, as in the Unity images.
	spriteGrowth = 0.02
)

// Mask is the evaluator image as one byte per pixel, 0 for black and 255 for white, row 0 at
// the top. Its Gray method gives it as an image.
type Mask struct {
	Pix []uint8 // ImageSize·ImageSize
}

// Gray returns the mask as an 8-bit grey image sharing the pixels.
func (m *Mask) Gray() *image.Gray {
	return &image.Gray{Pix: m.Pix, Stride: ImageSize, Rect: image.Rect(0, 0, ImageSize, ImageSize)}
}

// Black counts black pixels.
func (m *Mask) Black() int {
	n := 0
	for _, p := range m.Pix {
		if p == 0 {
			n++
		}
	}
	return n
}

// Render draws the structure the way the similarity evaluator exports it: framed by the union
// of the blocks' collider bounds at framing time, blocks drawn at the capture as solid black
// rectangles of their sprite size (collider + 0.02), binary coverage sampled at pixel centres,
// on white. Without any block the image is all white.
func Render(res *Result) *Mask {
	m := &Mask{Pix: make([]uint8, ImageSize*ImageSize)}
	for i := range m.Pix {
		m.Pix[i] = 255
	}
	b := AABB{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, r := range res.Bodies {
		if !r.Framed {
			continue
		}
		b.MinX, b.MinY = math.Min(b.MinX, r.Bounds.MinX), math.Min(b.MinY, r.Bounds.MinY)
		b.MaxX, b.MaxY = math.Max(b.MaxX, r.Bounds.MaxX), math.Max(b.MaxY, r.Bounds.MaxY)
	}
	// Unity keeps the bounds in single precision.
	b = AABB{f32(b.MinX), f32(b.MinY), f32(b.MaxX), f32(b.MaxY)}
	if !(b.MaxX > b.MinX && b.MaxY > b.MinY) {
		return m
	}
	side := math.Max(b.MaxX-b.MinX, b.MaxY-b.MinY)
	cx, cy := (b.MinX+b.MaxX)/2, (b.MinY+b.MaxY)/2
	pixel := side / renderSize
	left, top := cx-side/2, cy+side/2
	for _, r := range res.Bodies {
		if !r.Visible {
			continue
		}
		drawObject(m, r, left, top, pixel)
	}
	return m
}

// drawObject fills the pixels whose centres lie inside the object's sprite.
func drawObject(m *Mask, r BodyResult, left, top, pixel float64) {
	pf := objectPrefab(r.Object)
	w, h := pf.w+spriteGrowth, pf.h+spriteGrowth
	c, s := box2d.B2Cos(r.Image.Angle), box2d.B2Sin(r.Image.Angle)
	hx := (float64(math.Abs(c)*w) + float64(math.Abs(s)*h)) / 2
	hy := (float64(math.Abs(s)*w) + float64(math.Abs(c)*h)) / 2
	// Pixel columns i and rows j (from the top of the 824 square) that can be covered.
	i0 := max(int(math.Floor((r.Image.X-hx-left)/pixel)), 0)
	i1 := min(int(math.Ceil((r.Image.X+hx-left)/pixel)), renderSize-1)
	j0 := max(int(math.Floor((top-(r.Image.Y+hy))/pixel)), 0)
	j1 := min(int(math.Ceil((top-(r.Image.Y-hy))/pixel)), renderSize-1)
	inside := func(i int, wy float64) bool {
		wx := left + float64((float64(i)+0.5)*pixel) - r.Image.X
		// Coordinates in the object's frame.
		u, v := float64(c*wx)+float64(s*wy), float64(-s*wx)+float64(c*wy)
		switch pf.shape {
		case shapeCircle:
			rad := math.Max(w, h) / 2
			return float64(u*u)+float64(v*v) <= float64(rad*rad)
		case shapePolygon:
			return insidePolygon(pf.poly, u, v, spriteGrowth/2)
		}
		return math.Abs(u) <= w/2 && math.Abs(v) <= h/2
	}
	for j := j0; j <= j1; j++ {
		wy := top - float64((float64(j)+0.5)*pixel) - r.Image.Y
		row := m.Pix[(j+ImageMargin)*ImageSize+ImageMargin:]
		lo, hi := i0, i1
		if pf.shape == shapeBox {
			// A row crosses a rectangle in one interval: estimate it analytically, then move
			// its ends with the exact pixel test so the result equals testing every pixel.
			xlo, xhi, ok := boxRowSpan(c, s, w, h, wy)
			if !ok {
				continue
			}
			lo = max(int(math.Ceil((xlo+r.Image.X-left)/pixel-0.5)), i0)
			hi = min(int(math.Floor((xhi+r.Image.X-left)/pixel-0.5)), i1)
			if lo > hi {
				mid := min(max((lo+hi)/2, i0), i1)
				if !inside(mid, wy) {
					continue
				}
				lo, hi = mid, mid
			}
			for lo > i0 && inside(lo-1, wy) {
				lo--
			}
			for lo <= hi && !inside(lo, wy) {
				lo++
			}
			for hi < i1 && inside(hi+1, wy) {
				hi++
			}
			for hi >= lo && !inside(hi, wy) {
				hi--
			}
			for i := lo; i <= hi; i++ {
				row[i] = 0
			}
			continue
		}
		for i := lo; i <= hi; i++ {
			if inside(i, wy) {
				row[i] = 0
			}
		}
	}
}

// boxRowSpan is the range of x (relative to the box centre) where the horizontal line at
// height y (relative) crosses a w×h box rotated by the angle with cosine c and sine s.
func boxRowSpan(c, s, w, h, y float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(-1), math.Inf(1)
	// |c·x + s·y| ≤ w/2 and |−s·x + c·y| ≤ h/2
	for _, k := range [2][3]float64{{c, float64(s * y), w / 2}, {-s, float64(c * y), h / 2}} {
		a, b, half := k[0], k[1], k[2]
		if a == 0 {
			if math.Abs(b) > half {
				return 0, 0, false
			}
			continue
		}
		x0, x1 := (-half-b)/a, (half-b)/a
		if x0 > x1 {
			x0, x1 = x1, x0
		}
		lo, hi = math.Max(lo, x0), math.Min(hi, x1)
	}
	return lo, hi, lo <= hi+1e-9
}

// insidePolygon tests a point against a convex counter-clockwise polygon grown by pad.
func insidePolygon(poly []box2d.B2Vec2, u, v, pad float64) bool {
	n := len(poly)
	for k := 0; k < n; k++ {
		a, b := poly[k], poly[(k+1)%n]
		ex, ey := b.X-a.X, b.Y-a.Y
		l := math.Hypot(ex, ey)
		if l == 0 {
			continue
		}
		// Outward normal of a counter-clockwise edge is (ey, -ex).
		if (float64((u-a.X)*ey)-float64((v-a.Y)*ex))/l > pad {
			return false
		}
	}
	return true
}

// WritePNG encodes the mask as a 1-bit PNG (a black and white palette): the same pixels as the
// evaluator's file (every reader converts them to the same RGB values) at a fraction of the
// cost of 8-bit RGBA. WriteRGBAPNG writes the evaluator's exact format.
func (m *Mask) WritePNG(w io.Writer) error {
	img := image.NewPaletted(image.Rect(0, 0, ImageSize, ImageSize), blackWhite)
	for i, p := range m.Pix {
		if p != 0 {
			img.Pix[i] = 1
		}
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return enc.Encode(w, img)
}

// WriteRGBAPNG encodes the mask in the evaluator's own format: 8-bit RGBA, opaque.
func (m *Mask) WriteRGBAPNG(w io.Writer) error {
	img := image.NewNRGBA(image.Rect(0, 0, ImageSize, ImageSize))
	for i, p := range m.Pix {
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = p, p, p, 255
	}
	bw := bufio.NewWriter(w)
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(bw, img); err != nil {
		return err
	}
	return bw.Flush()
}

// MaskFromImage thresholds any image into a mask (dark = black), e.g. an evaluator PNG.
func MaskFromImage(img image.Image) *Mask {
	m := &Mask{Pix: make([]uint8, ImageSize*ImageSize)}
	bounds := img.Bounds()
	if rgba, ok := img.(*image.NRGBA); ok && bounds == image.Rect(0, 0, ImageSize, ImageSize) {
		for i := range m.Pix {
			p := rgba.Pix[4*i:]
			if int(p[0])+int(p[1])+int(p[2]) < 3*128 {
				m.Pix[i] = 0
			} else {
				m.Pix[i] = 255
			}
		}
		return m
	}
	if rgba, ok := img.(*image.RGBA); ok && bounds == image.Rect(0, 0, ImageSize, ImageSize) {
		return MaskFromImage(&image.NRGBA{Pix: rgba.Pix, Stride: rgba.Stride, Rect: rgba.Rect})
	}
	for j := 0; j < ImageSize; j++ {
		for i := 0; i < ImageSize; i++ {
			v := uint8(255)
			if i < bounds.Dx() && j < bounds.Dy() {
				g := color.GrayModel.Convert(img.At(bounds.Min.X+i, bounds.Min.Y+j)).(color.Gray)
				if g.Y < 128 {
					v = 0
				}
			}
			m.Pix[j*ImageSize+i] = v
		}
	}
	return m
}

// IoU is the intersection over union of the black pixels of two masks (1 when both are white).
func IoU(a, b *Mask) float64 {
	inter, union := 0, 0
	for i := range a.Pix {
		ba, bb := a.Pix[i] == 0, b.Pix[i] == 0
		if ba && bb {
			inter++
		}
		if ba || bb {
			union++
		}
	}
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}

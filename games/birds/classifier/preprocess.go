package classifier

import (
	"errors"
	"image"
	"image/color"
	"math"
)

// Preprocessing, as the competition's ViTImageProcessor does it and then our own reduction:
//
//  1. the evaluator image (any size; 1024×1024) as 8-bit grey (the images are black and white,
//     so every RGB channel equals the grey value);
//  2. Pillow's Image.resize to 224×224 with BILINEAR, which is a triangle filter widened by the
//     scale factor when shrinking (anti-aliased), computed in Pillow's 8-bit fixed point:
//     horizontal pass, rounding to uint8, vertical pass, rounding to uint8 — reproduced exactly;
//  3. (ours) the mean of each 7×7 block of the 224 image → 32×32, scaled to [0, 1] and
//     normalised like the ViT's input, (x − 0.5) / 0.5, so white is +1 and black −1.

// pillowPrecisionBits is Pillow's PRECISION_BITS for 8-bit resampling (32 − 8 − 2).
const pillowPrecisionBits = 22

// resampleCoeffs are Pillow's precomputed bilinear coefficients for one axis: for each output
// pixel, the first input pixel and its fixed-point weights.
type resampleCoeffs struct {
	start []int
	w     [][]int32
}

func pillowBilinearCoeffs(inSize, outSize int) resampleCoeffs {
	scale := float64(inSize) / float64(outSize)
	filterScale := max(scale, 1)
	support := 1.0 * filterScale // the bilinear filter's support is 1
	c := resampleCoeffs{start: make([]int, outSize), w: make([][]int32, outSize)}
	tmp := make([]float64, int(math.Ceil(support))*2+1)
	for xx := 0; xx < outSize; xx++ {
		center := (float64(xx) + 0.5) * scale
		ss := 1 / filterScale
		xmin := int(center - support + 0.5) // C's truncating cast
		if xmin < 0 {
			xmin = 0
		}
		xmax := int(center + support + 0.5)
		if xmax > inSize {
			xmax = inSize
		}
		xmax -= xmin
		ww := 0.0
		for x := 0; x < xmax; x++ {
			t := math.Abs((float64(x+xmin) - center + 0.5) * ss)
			w := 0.0
			if t < 1 {
				w = 1 - t
			}
			tmp[x] = w
			ww += w
		}
		k := make([]int32, xmax)
		for x := 0; x < xmax; x++ {
			v := tmp[x]
			if ww != 0 {
				v /= ww
			}
			if v < 0 {
				k[x] = int32(-0.5 + v*(1<<pillowPrecisionBits))
			} else {
				k[x] = int32(0.5 + v*(1<<pillowPrecisionBits))
			}
		}
		c.start[xx], c.w[xx] = xmin, k
	}
	return c
}

func clip8(v int64) uint8 {
	v >>= pillowPrecisionBits
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v)
}

// coeff1024 holds the coefficients of the 1024 → 224 resize, the common case.
var coeff1024 = pillowBilinearCoeffs(1024, ViTSize)

func coeffsFor(inSize int) resampleCoeffs {
	if inSize == 1024 {
		return coeff1024
	}
	return pillowBilinearCoeffs(inSize, ViTSize)
}

// ResizeForViT is Pillow's bilinear resize of a w×h 8-bit grey image (row-major, stride w) to
// 224×224, bit for bit. White runs, the bulk of an evaluator image, take a shortcut with the
// same result.
func ResizeForViT(pix []uint8, w, h int) []uint8 {
	cx, cy := coeffsFor(w), coeffsFor(h)
	// Horizontal pass. A row segment without any non-white pixel gives the same value as an
	// all-white segment, computed once per output column.
	white := make([]uint8, ViTSize)
	for xx := range white {
		ss := int64(1) << (pillowPrecisionBits - 1)
		for _, k := range cx.w[xx] {
			ss += 255 * int64(k)
		}
		white[xx] = clip8(ss)
	}
	mid := make([]uint8, ViTSize*h)
	dark := make([]int32, w+1) // prefix counts of non-white pixels in the row
	for y := 0; y < h; y++ {
		row := pix[y*w : (y+1)*w]
		for x, p := range row {
			d := int32(0)
			if p != 255 {
				d = 1
			}
			dark[x+1] = dark[x] + d
		}
		out := mid[y*ViTSize : (y+1)*ViTSize]
		if dark[w] == 0 {
			copy(out, white)
			continue
		}
		for xx := 0; xx < ViTSize; xx++ {
			s, k := cx.start[xx], cx.w[xx]
			if dark[s+len(k)] == dark[s] {
				out[xx] = white[xx]
				continue
			}
			ss := int64(1) << (pillowPrecisionBits - 1)
			for i, kv := range k {
				ss += int64(row[s+i]) * int64(kv)
			}
			out[xx] = clip8(ss)
		}
	}
	// Vertical pass, with the same shortcut along the columns of the intermediate image.
	whiteV := make([]uint8, ViTSize)
	for yy := range whiteV {
		ss := int64(1) << (pillowPrecisionBits - 1)
		for _, k := range cy.w[yy] {
			ss += 255 * int64(k)
		}
		whiteV[yy] = clip8(ss)
	}
	darkCol := make([]int32, (h+1)*ViTSize) // darkCol[y·224 + x]: non-white pixels above row y
	for y := 0; y < h; y++ {
		row, above, below := mid[y*ViTSize:(y+1)*ViTSize], darkCol[y*ViTSize:], darkCol[(y+1)*ViTSize:]
		for x, p := range row {
			d := int32(0)
			if p != 255 {
				d = 1
			}
			below[x] = above[x] + d
		}
	}
	res := make([]uint8, ViTSize*ViTSize)
	for yy := 0; yy < ViTSize; yy++ {
		s, k := cy.start[yy], cy.w[yy]
		top, bottom := darkCol[s*ViTSize:], darkCol[(s+len(k))*ViTSize:]
		for xx := 0; xx < ViTSize; xx++ {
			if top[xx] == bottom[xx] {
				res[yy*ViTSize+xx] = whiteV[yy]
				continue
			}
			ss := int64(1) << (pillowPrecisionBits - 1)
			for i, kv := range k {
				ss += int64(mid[(s+i)*ViTSize+xx]) * int64(kv)
			}
			res[yy*ViTSize+xx] = clip8(ss)
		}
	}
	return res
}

// reduce224 averages 7×7 blocks of the 224×224 ViT input into the network input, normalised
// to [−1, 1] (white +1).
func reduce224(vit []uint8, dst []float32) {
	const f = ViTSize / InputSize
	for y := 0; y < InputSize; y++ {
		for x := 0; x < InputSize; x++ {
			s := 0
			for j := 0; j < f; j++ {
				row := vit[(y*f+j)*ViTSize+x*f:]
				for i := 0; i < f; i++ {
					s += int(row[i])
				}
			}
			dst[y*InputSize+x] = float32(s)/(f*f*255)*2 - 1
		}
	}
}

// grayPixels is an image in 8-bit grey pixels (alpha composited on white, as dropping the alpha
// channel of an opaque image does).
func grayPixels(img image.Image) ([]uint8, int, int, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w == 0 || h == 0 {
		return nil, 0, 0, errors.New("classifier: empty image")
	}
	pix := make([]uint8, w*h)
	switch m := img.(type) {
	case *image.Gray:
		for y := 0; y < h; y++ {
			copy(pix[y*w:(y+1)*w], m.Pix[y*m.Stride:y*m.Stride+w])
		}
	case *image.NRGBA:
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			for x := 0; x < w; x++ {
				pix[y*w+x] = lumaOnWhite(row[4*x], row[4*x+1], row[4*x+2], row[4*x+3])
			}
		}
	case *image.RGBA:
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			for x := 0; x < w; x++ {
				a := row[4*x+3]
				// Un-premultiply, then composite on white.
				r, g, bl := unpremul(row[4*x], a), unpremul(row[4*x+1], a), unpremul(row[4*x+2], a)
				pix[y*w+x] = lumaOnWhite(r, g, bl, a)
			}
		}
	default:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
				pix[y*w+x] = lumaOnWhite(c.R, c.G, c.B, c.A)
			}
		}
	}
	return pix, w, h, nil
}

func unpremul(v, a uint8) uint8 {
	if a == 0 {
		return 0
	}
	return uint8(min(int(v)*255/int(a), 255))
}

// lumaOnWhite is Pillow's "L" conversion (ITU-R 601-2 luma) of an RGBA pixel. The ViT's
// processor drops alpha; evaluator images are opaque, so alpha only matters for foreign input,
// where compositing on white is the sensible reading of a transparent background.
func lumaOnWhite(r, g, b, a uint8) uint8 {
	if a != 255 {
		blend := func(v uint8) int { return (int(v)*int(a) + 255*(255-int(a)) + 127) / 255 }
		r, g, b = uint8(blend(r)), uint8(blend(g)), uint8(blend(b))
	}
	return uint8((int(r)*19595 + int(g)*38470 + int(b)*7471 + 0x8000) >> 16)
}

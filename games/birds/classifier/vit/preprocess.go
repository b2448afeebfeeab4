package vit

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // the processor takes any image Pillow opens; JPEG and PNG here
	_ "image/png"  // evaluator images
	"math"
)

// MaxImagePixels bounds the image a classification decodes (the evaluator draws 1024×1024).
const MaxImagePixels = 64 << 20

// RGB is an 8-bit RGB image, row-major, three bytes a pixel: what Pillow's
// Image.convert("RGB") gives.
type RGB struct {
	W, H int
	Pix  []uint8
}

// DecodeRGB decodes an image (PNG or JPEG) into RGB the way Pillow's convert("RGB") does for
// 8-bit images: alpha is dropped, not composited; grey is repeated in the three channels; a
// palette is looked up. 16-bit samples keep their high byte (Pillow's "RGB;16B" raw mode).
func DecodeRGB(data []byte) (*RGB, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	if cfg.Width < 1 || cfg.Height < 1 || int64(cfg.Width)*int64(cfg.Height) > MaxImagePixels {
		return nil, fmt.Errorf("image of %d×%d pixels (limit %d pixels)", cfg.Width, cfg.Height, MaxImagePixels)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	return ToRGB(img), nil
}

// ToRGB is a decoded image in RGB, as DecodeRGB reads a file.
func ToRGB(img image.Image) *RGB {
	b := img.Bounds()
	out := &RGB{W: b.Dx(), H: b.Dy(), Pix: make([]uint8, 3*b.Dx()*b.Dy())}
	i := 0
	put := func(r, g, bl uint8) {
		out.Pix[i], out.Pix[i+1], out.Pix[i+2] = r, g, bl
		i += 3
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			switch m := img.(type) {
			case *image.NRGBA:
				p := m.Pix[m.PixOffset(x, y):]
				put(p[0], p[1], p[2])
			case *image.RGBA: // PNG without alpha: A is 255, nothing premultiplied
				p := m.Pix[m.PixOffset(x, y):]
				put(p[0], p[1], p[2])
			case *image.Gray:
				v := m.Pix[m.PixOffset(x, y)]
				put(v, v, v)
			default:
				r, g, bl := unpremultiplied(img.At(x, y))
				put(r, g, bl)
			}
		}
	}
	return out
}

// unpremultiplied gives the high bytes of a colour's straight (not alpha-premultiplied) RGB.
func unpremultiplied(c color.Color) (r, g, b uint8) {
	switch c := c.(type) {
	case color.NRGBA:
		return c.R, c.G, c.B
	case color.NRGBA64:
		return uint8(c.R >> 8), uint8(c.G >> 8), uint8(c.B >> 8)
	case color.Gray16:
		return uint8(c.Y >> 8), uint8(c.Y >> 8), uint8(c.Y >> 8)
	}
	n := color.NRGBA64Model.Convert(c).(color.NRGBA64)
	return uint8(n.R >> 8), uint8(n.G >> 8), uint8(n.B >> 8)
}

// Pillow's fixed-point resampling: coefficients scaled by 2^22, 8-bit output.
const precisionBits = 32 - 8 - 2

// coeffs are the resampling coefficients of one axis, as Pillow's precompute_coeffs and
// normalize_coeffs_8bpc compute them: for output index i, the input run
// bounds[2i] … bounds[2i]+bounds[2i+1]−1 weighted by k[i*ksize:].
type coeffs struct {
	ksize  int
	bounds []int
	k      []int32
}

// bilinearCoeffs resamples inSize samples to outSize with Pillow's triangle filter (support 1),
// the support widened by the reduction factor when shrinking (anti-aliasing).
func bilinearCoeffs(inSize, outSize int) coeffs {
	filter := func(x float64) float64 {
		if x < 0 {
			x = -x
		}
		if x < 1 {
			return 1 - x
		}
		return 0
	}
	const filterSupport = 1.0
	scale := float64(inSize) / float64(outSize)
	filterscale := max(scale, 1)
	support := filterSupport * filterscale
	ksize := int(math.Ceil(support))*2 + 1
	c := coeffs{ksize: ksize, bounds: make([]int, 2*outSize), k: make([]int32, outSize*ksize)}
	w := make([]float64, ksize)
	for xx := 0; xx < outSize; xx++ {
		center := (float64(xx) + 0.5) * scale
		ss := 1 / filterscale
		xmin := int(center - support + 0.5)
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
			w[x] = filter((float64(x+xmin) - center + 0.5) * ss)
			ww += w[x]
		}
		for x := 0; x < xmax; x++ {
			v := w[x]
			if ww != 0 {
				v /= ww
			}
			if v < 0 {
				c.k[xx*ksize+x] = int32(-0.5 + v*(1<<precisionBits))
			} else {
				c.k[xx*ksize+x] = int32(0.5 + v*(1<<precisionBits))
			}
		}
		c.bounds[2*xx], c.bounds[2*xx+1] = xmin, xmax
	}
	return c
}

func clip8(v int32) uint8 {
	if v >= 1<<precisionBits*256 {
		return 255
	}
	if v <= 0 {
		return 0
	}
	return uint8(v >> precisionBits)
}

// ResizeBilinear is Pillow's Image.resize((w, h), Image.BILINEAR) of an RGB image (Pillow 9.4,
// no reducing_gap): a horizontal pass into an 8-bit image, then a vertical pass, each with
// the fixed-point coefficients above; a pass whose size does not change is skipped.
func ResizeBilinear(src *RGB, w, h int) *RGB {
	img := src
	if w != src.W {
		c := bilinearCoeffs(src.W, w)
		tmp := &RGB{W: w, H: src.H, Pix: make([]uint8, 3*w*src.H)}
		for y := 0; y < src.H; y++ {
			row := src.Pix[3*y*src.W : 3*(y+1)*src.W]
			out := tmp.Pix[3*y*w : 3*(y+1)*w]
			for xx := 0; xx < w; xx++ {
				xmin, n := c.bounds[2*xx], c.bounds[2*xx+1]
				k := c.k[xx*c.ksize : xx*c.ksize+n]
				s0, s1, s2 := int32(1<<(precisionBits-1)), int32(1<<(precisionBits-1)), int32(1<<(precisionBits-1))
				for x, kx := range k {
					p := row[3*(x+xmin):]
					s0 += int32(p[0]) * kx
					s1 += int32(p[1]) * kx
					s2 += int32(p[2]) * kx
				}
				out[3*xx], out[3*xx+1], out[3*xx+2] = clip8(s0), clip8(s1), clip8(s2)
			}
		}
		img = tmp
	}
	if h != img.H {
		c := bilinearCoeffs(img.H, h)
		tmp := &RGB{W: img.W, H: h, Pix: make([]uint8, 3*img.W*h)}
		for yy := 0; yy < h; yy++ {
			ymin, n := c.bounds[2*yy], c.bounds[2*yy+1]
			k := c.k[yy*c.ksize : yy*c.ksize+n]
			out := tmp.Pix[3*yy*img.W : 3*(yy+1)*img.W]
			for i := range out {
				s := int32(1 << (precisionBits - 1))
				for y, ky := range k {
					s += int32(img.Pix[3*(y+ymin)*img.W+i]) * ky
				}
				out[i] = clip8(s)
			}
		}
		img = tmp
	}
	return img
}

// PixelValues is ViTImageProcessor's output for one image: resized to the processor's size,
// rescaled (the byte times the factor, both float32: the reference tensor shows that a
// float64 product rounded afterwards differs in the last bit for some bytes), normalised
// ((x − mean) / std in float32), channels first.
func (p *Preprocessor) PixelValues(img *RGB) []float32 {
	r := ResizeBilinear(img, p.Size.Width, p.Size.Height)
	n := r.W * r.H
	out := make([]float32, 3*n)
	rescale := p.DoRescale == nil || *p.DoRescale
	normalize := p.DoNormalize == nil || *p.DoNormalize
	var factor float32
	if rescale {
		factor = float32(*p.RescaleFactor)
	}
	for c := 0; c < 3; c++ {
		var mean, std float32
		if normalize {
			mean, std = float32(p.ImageMean[c]), float32(p.ImageStd[c])
		}
		for i := 0; i < n; i++ {
			v := float32(r.Pix[3*i+c])
			if rescale {
				v *= factor
			}
			if normalize {
				v = float32(v-mean) / std
			}
			out[c*n+i] = v
		}
	}
	return out
}

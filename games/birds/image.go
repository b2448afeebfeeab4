package birds

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
)

// MaxImageSide bounds the side of an image DecodeImage accepts (the evaluator writes 1024×1024).
const MaxImageSide = 8192

// Image is the mask as an 8-bit grey image sharing its pixels (black 0, white 255), what a
// Classifier takes.
func (m *Mask) Image() *image.Gray {
	return &image.Gray{Pix: m.Pix, Stride: ImageSize, Rect: image.Rect(0, 0, ImageSize, ImageSize)}
}

// DecodeImage decodes an evaluator PNG for a Classifier, refusing an image larger than
// MaxImageSide on a side before decoding it.
func DecodeImage(data []byte) (image.Image, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxImageSide || cfg.Height > MaxImageSide {
		return nil, fmt.Errorf("image of %d×%d pixels (limit %d)", cfg.Width, cfg.Height, MaxImageSide)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	return img, nil
}

// EncodePNG encodes an image as PNG for a classifier outside the process (a command or an
// endpoint); a mask's grey image gives an 8-bit grey PNG.
func EncodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// blackWhite is the palette of a mask's PNG file.
var blackWhite = color.Palette{color.Gray{Y: 0}, color.Gray{Y: 255}}

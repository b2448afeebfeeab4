package birds

import (
	"bytes"
	"image/png"
	"math"
	"math/rand/v2"
	"testing"
)

func TestPNGFormatsAgree(t *testing.T) {
	lv, err := mustConvert(t, "drop_block('b13', 4)\ndrop_block('b31', 5)\n")
	if err != nil {
		t.Fatal(err)
	}
	res, _ := Simulate(lv, DefaultSimConfig())
	m := Render(res)
	for name, write := range map[string]func(*bytes.Buffer) error{
		"palette": func(b *bytes.Buffer) error { return m.WritePNG(b) },
		"rgba":    func(b *bytes.Buffer) error { return m.WriteRGBAPNG(b) },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if img.Bounds().Dx() != ImageSize || img.Bounds().Dy() != ImageSize {
			t.Fatalf("%s: size %v", name, img.Bounds())
		}
		back := MaskFromImage(img)
		if IoU(back, m) != 1 || back.Black() != m.Black() {
			t.Fatalf("%s: pixels changed", name)
		}
		r, g, b, a := img.At(0, 0).RGBA()
		if r != 0xffff || g != 0xffff || b != 0xffff || a != 0xffff {
			t.Fatalf("%s: corner not opaque white", name)
		}
	}
	// The structure fills the 824-pixel square along its larger side, inside the 100-pixel margin.
	x0, y0, x1, y1 := ImageSize, ImageSize, -1, -1
	for j := 0; j < ImageSize; j++ {
		for i := 0; i < ImageSize; i++ {
			if m.Pix[j*ImageSize+i] == 0 {
				x0, y0, x1, y1 = min(x0, i), min(y0, j), max(x1, i), max(y1, j)
			}
		}
	}
	if y0 != ImageMargin || y1 != ImageSize-ImageMargin-1 || x0 <= ImageMargin || x1 >= ImageSize-ImageMargin-1 {
		t.Fatalf("black box %d,%d – %d,%d", x0, y0, x1, y1)
	}
}

func TestEmptyLevelRendersWhite(t *testing.T) {
	res, err := Simulate(&Level{Width: 3}, DefaultSimConfig())
	if err != nil {
		t.Fatal(err)
	}
	if m := Render(res); m.Black() != 0 || res.Score != 0 || res.Total != 0 {
		t.Fatalf("black %d score %v", m.Black(), res.Score)
	}
}

// The row-span rasteriser must cover exactly the pixels whose centres pass the point test.
func TestSpanRasterMatchesPointTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 300; n++ {
		typ := []string{"RectSmall", "SquareTiny", "RectBig"}[n%3]
		r := BodyResult{Object: Object{Kind: KindBlock, Type: typ}, Visible: true,
			Image: Pose{X: rng.Float64()*2 - 1, Y: rng.Float64()*2 - 1, Angle: rng.Float64() * 7}}
		if n%10 == 0 {
			r.Image.Angle = float64(n/10%4) * math.Pi / 2
		}
		left, top, pixel := -1.2, 1.2, 2.4/renderSize
		fast := &Mask{Pix: bytes.Repeat([]byte{255}, ImageSize*ImageSize)}
		drawObject(fast, r, left, top, pixel)
		pf := objectPrefab(r.Object)
		w, h := pf.w+spriteGrowth, pf.h+spriteGrowth
		c, s := math.Cos(r.Image.Angle), math.Sin(r.Image.Angle)
		for j := 0; j < renderSize; j++ {
			wy := top - (float64(j)+0.5)*pixel - r.Image.Y
			for i := 0; i < renderSize; i++ {
				wx := left + (float64(i)+0.5)*pixel - r.Image.X
				u, v := c*wx+s*wy, -s*wx+c*wy
				want := math.Abs(u) <= w/2 && math.Abs(v) <= h/2
				if got := fast.Pix[(j+ImageMargin)*ImageSize+ImageMargin+i] == 0; got != want {
					t.Fatalf("case %d (%+v): pixel %d,%d is %v, point test %v", n, r.Image, i, j, got, want)
				}
			}
		}
	}
}

package play

import (
	"image"
	"image/color"
	"image/draw"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"pcgwb/assets"
)

// Frame layout: the board is scaled by a whole factor to about frameTarget pixels wide (pixel
// art stays crisp); below it a banner strip (the outcome, in large letters) and a fixed number
// of text lines, so the frame keeps its size while playing.
const (
	frameTarget   = 640
	frameMaxBoard = 560
	frameMinWidth = 480
	maxScale      = 8
	lineHeight    = 14
	hudLines      = 5
	margin        = 6
	bannerHeight  = 2*13 + 10
)

var (
	textColor   = assets.Palette['w']
	dimColor    = assets.Palette['s']
	winColor    = assets.Palette['l']
	loseColor   = assets.Palette['r']
	bannerColor = assets.Palette['d']
)

// boardScale is the whole scale at which a w×h board is shown.
func boardScale(w, h int) int {
	s := int(assets.PixelScale(w, h, frameTarget, frameMaxBoard))
	return min(max(s, 1), maxScale)
}

// FrameSize is the size of the frames composed around a w×h board.
func FrameSize(w, h int) (int, int) { return frameSize(w, h, 1) }

// frameSize is FrameSize with the text (banner and HUD) drawn ts times as large.
func frameSize(w, h, ts int) (int, int) {
	s := boardScale(w, h)
	return max(w*s, frameMinWidth), h*s + ts*bannerHeight + ts*hudLines*lineHeight + margin
}

// hudLine is a line of text with its colour.
type hudLine struct {
	text string
	c    color.RGBA
}

// compose draws the board, scaled and centred, the banner text (if any) in large letters below
// it, and the HUD lines (wrapped to the width, cut at hudLines).
// ts scales the text: 1, or 2 for the kiosk's large text.
func compose(board image.Image, banner string, bannerC color.RGBA, lines []hudLine, ts int) *image.RGBA {
	b := board.Bounds()
	s := boardScale(b.Dx(), b.Dy())
	w, h := frameSize(b.Dx(), b.Dy(), ts)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	assets.Fill(img, 'k')
	x0 := (w - b.Dx()*s) / 2
	scaleInto(img, board, x0, 0, s)
	if banner != "" {
		band := image.Rect(0, b.Dy()*s, w, b.Dy()*s+ts*bannerHeight)
		draw.Draw(img, band, image.NewUniform(bannerColor), image.Point{}, draw.Src)
		drawText(img, banner, (w-textWidth(banner)*2*ts)/2, band.Min.Y+5*ts, bannerC, 2*ts)
	}
	y := b.Dy()*s + ts*bannerHeight
	n := 0
	for _, l := range lines {
		for _, part := range wrap(l.text, (w-2*margin)/(7*ts)) {
			if n == hudLines {
				return img
			}
			drawText(img, part, margin, y+n*lineHeight*ts, l.c, ts)
			n++
		}
	}
	return img
}

// scaleInto draws src at (x0, y0) scaled by a whole factor, nearest neighbour, blending
// translucent pixels over what is there.
func scaleInto(dst *image.RGBA, src image.Image, x0, y0, s int) {
	rgba, ok := src.(*image.RGBA)
	if !ok {
		rgba = image.NewRGBA(src.Bounds())
		draw.Draw(rgba, rgba.Rect, src, src.Bounds().Min, draw.Src)
	}
	b := rgba.Rect
	clip := dst.Rect
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			c := rgba.RGBAAt(b.Min.X+x, b.Min.Y+y)
			if c.A == 0 {
				continue
			}
			for dy := 0; dy < s; dy++ {
				py := y0 + y*s + dy
				if py < clip.Min.Y || py >= clip.Max.Y {
					continue
				}
				for dx := 0; dx < s; dx++ {
					px := x0 + x*s + dx
					if px < clip.Min.X || px >= clip.Max.X {
						continue
					}
					i := dst.PixOffset(px, py)
					if c.A == 0xff {
						dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = c.R, c.G, c.B, 0xff
						continue
					}
					// Premultiplied "over".
					inv := uint32(0xff - c.A)
					dst.Pix[i] = uint8(uint32(c.R) + uint32(dst.Pix[i])*inv/0xff)
					dst.Pix[i+1] = uint8(uint32(c.G) + uint32(dst.Pix[i+1])*inv/0xff)
					dst.Pix[i+2] = uint8(uint32(c.B) + uint32(dst.Pix[i+2])*inv/0xff)
					dst.Pix[i+3] = uint8(uint32(c.A) + uint32(dst.Pix[i+3])*inv/0xff)
				}
			}
		}
	}
}

func textWidth(s string) int { return 7 * len([]rune(s)) }

// drawText writes s with its top-left corner at (x, y) in the 7×13 pixel font, scaled by a
// whole factor.
func drawText(dst *image.RGBA, s string, x, y int, c color.RGBA, scale int) {
	if s == "" {
		return
	}
	tmp := image.NewRGBA(image.Rect(0, 0, textWidth(s), 13))
	d := font.Drawer{Dst: tmp, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(0, 11)}
	d.DrawString(s)
	scaleInto(dst, tmp, x, y, scale)
}

// wrap splits a line into pieces of at most width characters, at spaces when it can.
func wrap(s string, width int) []string {
	if width < 8 {
		width = 8
	}
	var out []string
	for len([]rune(s)) > width {
		r := []rune(s)
		cut := width
		for i := width; i > width/2; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, strings.TrimRight(string(r[:cut]), " "))
		s = strings.TrimLeft(string(r[cut:]), " ")
	}
	return append(out, s)
}

// Screen sizes of TextFrame.
const (
	textFrameW = 640
	textFrameH = 400
)

// TextLine is one line of a TextFrame; Hi draws it in the highlight colour.
type TextLine struct {
	Text string
	Hi   bool
}

// TextFrame is a screen of text in the play window's style (a playtest's questions and
// pauses): a title in large letters, then the lines, wrapped to the width, and pictures (the
// levels just played) in a row at the bottom.
func TextFrame(title string, lines []TextLine, pics ...image.Image) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, textFrameW, textFrameH))
	assets.Fill(img, 'k')
	drawText(img, title, (textFrameW-textWidth(title)*2)/2, 24, winColor, 2)
	y := 24 + 2*13 + 24
	for _, l := range lines {
		c := textColor
		if l.Hi {
			c = winColor
		}
		for _, part := range wrap(l.Text, (textFrameW-4*margin)/7) {
			if y+lineHeight > textFrameH {
				return img
			}
			drawText(img, part, 2*margin, y, c, 1)
			y += lineHeight + 2
		}
	}
	if len(pics) == 0 {
		return img
	}
	const rowH = 150
	slot := (textFrameW - 2*margin) / len(pics)
	for i, pic := range pics {
		b := pic.Bounds()
		s := max(1, min((slot-margin)/max(1, b.Dx()), rowH/max(1, b.Dy())))
		if b.Dx() > slot-margin || b.Dy() > rowH {
			continue // too large to show whole at 1:1
		}
		x := margin + i*slot + (slot-b.Dx()*s)/2
		scaleInto(img, pic, x, textFrameH-rowH-margin+(rowH-b.Dy()*s)/2, s)
	}
	return img
}

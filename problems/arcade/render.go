package arcade

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"pcgwb/assets"
)

// Render size, as the reference's text picture.
const (
	renderW = 300
	renderH = 230
)

var pieceSprites = [Colours + 1]string{Red: "arcade_red", Green: "arcade_green", Yellow: "arcade_yellow", player: "arcade_player"}

var (
	shortActions = [Actions]string{"both live", "1st dies", "2nd dies", "both die"}
	shortWins    = [WinRules]string{"survive 40 steps", "reach 5 points", "reach 10 points", "reach 20 points"}
)

// renderRules draws the rule set as a card: the start line, one line per colour with its
// sprite, behaviour and start cells, the nine collision rules as sprite pairs with their
// outcome and points (two columns), and the win rule.
func renderRules(r *Rules) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, renderW, renderH))
	assets.Fill(img, 'd')
	ink := func(c byte) *image.Uniform { return image.NewUniform(assets.Palette[c]) }
	text := func(x, y int, c byte, s string) {
		d := font.Drawer{Dst: img, Src: ink(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y+11)}
		d.DrawString(s)
	}
	const ts = assets.TileSize

	assets.DrawSprite(img, pieceSprites[player], 6, 4)
	text(26, 6, 'a', fmt.Sprintf("start %d,%d   seed %d", r.X, r.Y, r.Seed))

	y := 26
	for _, c := range [...]int{Red, Yellow, Green} {
		assets.DrawSprite(img, pieceSprites[c], 6, y)
		s := r.Starts[c]
		line := behaviourNames[r.Behaviour[c]]
		if s.Num == 0 {
			line += "  (none)"
		}
		for i := 0; i < s.Num; i++ {
			line += fmt.Sprintf(" %d,%d", s.X[i], s.Y[i])
		}
		text(26, y+2, 'w', line)
		y += ts + 2
	}

	y += 4
	fillRect(img, 6, y, renderW-12, 1, assets.Palette['h'])
	y += 5
	for i, k := range ruleKeys {
		col, row := i%2, i/2
		x, ry := 6+col*(renderW/2), y+row*(ts+2)
		assets.DrawSprite(img, pieceSprites[k.first], x, ry)
		assets.DrawSprite(img, pieceSprites[k.second], x+ts-2, ry)
		rule := r.Collide[k.first][k.second]
		colour := byte('s')
		if rule.Action != KeepBoth || rule.Score != 0 {
			colour = 'o'
		}
		text(x+2*ts+2, ry+2, colour, fmt.Sprintf("%s +%d", shortActions[rule.Action], points[rule.Score]))
	}
	y += 5*(ts+2) + 4
	fillRect(img, 6, y, renderW-12, 1, assets.Palette['h'])
	text(6, y+5, 'y', "win: "+shortWins[r.Win])
	return img
}

func fillRect(img *image.RGBA, x, y, w, h int, c color.RGBA) {
	draw.Draw(img, image.Rect(x, y, x+w, y+h), image.NewUniform(c), image.Point{}, draw.Src)
}

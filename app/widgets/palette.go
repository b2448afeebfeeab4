package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"pcgwb/assets"
)

// Pal returns a colour of the project's pixel-art palette (assets.Palette), so the chrome
// matches the sprites.
func Pal(c byte) color.RGBA { return assets.Palette[c] }

// PalAlpha is a palette colour at a given opacity (for hover, selection and focus washes).
func PalAlpha(c byte, alpha uint8) color.NRGBA {
	p := Pal(c)
	return color.NRGBA{R: p.R, G: p.G, B: p.B, A: alpha}
}

// The widgets' own colour names, for what they draw themselves rather than through Fyne's
// widgets. A theme serves them (NamedColor gives their values); under a theme that does not,
// Color gives their dark values.
const (
	ColorNamePlotBack  fyne.ThemeColorName = "pcgwb-plot-back"  // plot and heatmap background
	ColorNamePlotInk   fyne.ThemeColorName = "pcgwb-plot-ink"   // plot title and legend text
	ColorNamePlotMuted fyne.ThemeColorName = "pcgwb-plot-muted" // axes, ticks and axis labels
	ColorNamePlotGrid  fyne.ThemeColorName = "pcgwb-plot-grid"  // grid lines, empty heatmap cells
	ColorNameCard      fyne.ThemeColorName = "pcgwb-card"       // a level card's background
	ColorNameCardMuted fyne.ThemeColorName = "pcgwb-card-muted" // a card's secondary text
)

// colors is every widget colour: its dark value and its light value (nil: the same as dark).
var colors = map[fyne.ThemeColorName][2]color.Color{
	ColorNamePlotBack:  {Pal('k'), color.NRGBA{0xff, 0xff, 0xff, 0xff}},
	ColorNamePlotInk:   {Pal('w'), Pal('k')},
	ColorNamePlotMuted: {Pal('s'), Pal('h')},
	ColorNamePlotGrid:  {Pal('d'), PalAlpha('s', 0x80)},
	ColorNameCard:      {Pal('d'), color.RGBA{0xd4, 0xdd, 0xe3, 0xff}}, // silver over white, opaque: a card is a solid tile
	ColorNameCardMuted: {Pal('s'), Pal('h')},
}

// NamedColor is the value of one of the widgets' colour names in the dark look or the light
// one; ok is false for any other name. A theme's Color method answers these names with it.
func NamedColor(name fyne.ThemeColorName, light bool) (c color.Color, ok bool) {
	row, ok := colors[name]
	if !ok {
		return nil, false
	}
	if light && row[1] != nil {
		return row[1], true
	}
	return row[0], true
}

// Look is a theme made for the widgets: it serves their own colour names (with NamedColor)
// and says how much larger than the dark look's its text is (the plots' text follows it).
// Under any other theme the widgets draw in their dark colours at scale 1.
type Look interface {
	fyne.Theme
	TextScale() float64
}

// Color is a colour of the app's current theme; one of the widgets' own names is its dark
// value unless the theme is a Look.
func Color(name fyne.ThemeColorName) color.Color {
	var th fyne.Theme
	if a := fyne.CurrentApp(); a != nil {
		th = a.Settings().Theme()
	}
	if dark, ok := NamedColor(name, false); ok {
		if _, look := th.(Look); !look {
			return dark
		}
	}
	if th == nil {
		return nil
	}
	return th.Color(name, theme.VariantDark)
}

// textScale is the current theme's text scale: a Look's, else 1.
func textScale() float64 {
	if a := fyne.CurrentApp(); a != nil {
		if t, ok := a.Settings().Theme().(Look); ok {
			return t.TextScale()
		}
	}
	return 1
}

// The badges' verdict colours are the same in every look.
var (
	colorPass    = Pal('g')
	colorPartial = Pal('y')
	colorFail    = Pal('r')
)

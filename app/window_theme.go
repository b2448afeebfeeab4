package app

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"pcgwb/app/widgets"
)

// pal and palAlpha are the widgets' palette, the sprites' (assets.Palette): a colour, and one
// at a given opacity (for hover, selection and focus washes).
var (
	pal      = widgets.Pal
	palAlpha = widgets.PalAlpha
)

// workbenchTheme is the workbench look: palette colours only, and text a little larger than Fyne's
// default so a projected room can read it. The default is dark (levels read best on ink);
// Projector enlarges text, controls and plot text further; Light turns the chrome, the plots and
// the cards light. Everything the app draws itself (plots, heatmaps, cards) takes its colours
// from the workbench's own colour names below, so one table defines each look.
type workbenchTheme struct {
	base  fyne.Theme
	light bool
	scale float32 // text and control sizes relative to Dark
}

// Theme names, as the settings offer them.
const (
	themeDark      = "Dark"
	themeProjector = "Projector"
	themeLight     = "Light"
)

// looks is every theme: its name, whether its colours are the light column of themeColors,
// and its size scale. Adding a look is one row here.
var looks = []struct {
	name  string
	light bool
	scale float32
}{
	{themeDark, false, 1},
	{themeProjector, false, 1.2},
	{themeLight, true, 1},
}

// themeNames lists the looks.
func themeNames() []string {
	names := make([]string, len(looks))
	for i, l := range looks {
		names[i] = l.name
	}
	return names
}

// newTheme returns the default (dark) workbench theme; fonts and icons come from Fyne's
// default theme.
func newTheme() *workbenchTheme { return newThemeNamed(themeDark) }

// newThemeNamed returns the named look (Dark for an unknown name).
func newThemeNamed(name string) *workbenchTheme {
	t := &workbenchTheme{base: theme.DefaultTheme(), scale: 1}
	for _, l := range looks {
		if l.name == name {
			t.light, t.scale = l.light, l.scale
		}
	}
	return t
}

// themeColors is every colour of every look but the widgets' own (widgets.NamedColor): one row
// per colour name, its dark value and its light value (nil: the same as dark). Projector uses
// the dark column.
var themeColors = map[fyne.ThemeColorName][2]color.Color{
	theme.ColorNameBackground:          {pal('k'), pal('w')},
	theme.ColorNameOverlayBackground:   {pal('k'), pal('w')},
	theme.ColorNameForeground:          {pal('w'), pal('k')},
	theme.ColorNameButton:              {pal('d'), palAlpha('s', 0x70)},
	theme.ColorNameMenuBackground:      {pal('d'), palAlpha('s', 0x70)},
	theme.ColorNameHeaderBackground:    {pal('d'), palAlpha('s', 0x70)},
	theme.ColorNameDisabledButton:      {palAlpha('d', 0x80), nil},
	theme.ColorNameDisabled:            {pal('h'), nil},
	theme.ColorNameInputBackground:     {pal('n'), color.NRGBA{0xff, 0xff, 0xff, 0xff}},
	theme.ColorNameInputBorder:         {pal('h'), pal('s')},
	theme.ColorNamePlaceHolder:         {pal('s'), pal('h')},
	theme.ColorNamePrimary:             {pal('c'), pal('b')},
	theme.ColorNameHyperlink:           {pal('c'), pal('b')},
	theme.ColorNameFocus:               {palAlpha('c', 0x99), nil},
	theme.ColorNameSelection:           {palAlpha('c', 0x55), nil},
	theme.ColorNameHover:               {palAlpha('w', 0x1c), palAlpha('k', 0x14)},
	theme.ColorNamePressed:             {palAlpha('k', 0x66), nil},
	theme.ColorNameSeparator:           {pal('d'), pal('s')},
	theme.ColorNameScrollBar:           {palAlpha('s', 0xa0), palAlpha('h', 0xa0)},
	theme.ColorNameScrollBarBackground: {palAlpha('k', 0x40), nil},
	theme.ColorNameShadow:              {color.NRGBA{A: 0x66}, color.NRGBA{A: 0x33}},
	theme.ColorNameError:               {pal('r'), nil},
	theme.ColorNameSuccess:             {pal('g'), nil},
	theme.ColorNameWarning:             {pal('y'), nil},
	theme.ColorNameForegroundOnPrimary: {pal('k'), nil},
	theme.ColorNameForegroundOnSuccess: {pal('k'), nil},
	theme.ColorNameForegroundOnWarning: {pal('k'), nil},
	theme.ColorNameForegroundOnError:   {pal('w'), nil},
}

var _ widgets.Look = (*workbenchTheme)(nil)

func (t *workbenchTheme) Color(name fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	if c, ok := widgets.NamedColor(name, t.light); ok {
		return c
	}
	if row, ok := themeColors[name]; ok {
		if t.light && row[1] != nil {
			return row[1]
		}
		return row[0]
	}
	return t.base.Color(name, theme.VariantDark)
}

func (t *workbenchTheme) Font(s fyne.TextStyle) fyne.Resource     { return t.base.Font(s) }
func (t *workbenchTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base.Icon(n) }

// themeSizes are the Dark look's text sizes; the other looks scale them.
var themeSizes = map[fyne.ThemeSizeName]float32{
	theme.SizeNameText:           15,
	theme.SizeNameCaptionText:    12,
	theme.SizeNameSubHeadingText: 19,
	theme.SizeNameHeadingText:    24,
}

func (t *workbenchTheme) Size(name fyne.ThemeSizeName) float32 {
	if s, ok := themeSizes[name]; ok {
		return s * t.scale
	}
	switch name {
	case theme.SizeNameInlineIcon:
		return t.base.Size(name) * t.scale
	case theme.SizeNameInputRadius, theme.SizeNameSelectionRadius, theme.SizeNameButtonRadius:
		return 3
	}
	return t.base.Size(name)
}

// TextScale is how much larger the look's text is than the Dark look's (the widgets' plots
// read it).
func (t *workbenchTheme) TextScale() float64 { return float64(t.scale) }

// colorErrorBack is the error banner's background, the same in every look; the cards follow
// the theme.
var colorErrorBack = pal('r')

// colorCard is the current theme's card background.
func colorCard() color.Color { return widgets.Color(widgets.ColorNameCard) }

// colorMuted is the current theme's secondary text on cards and captions.
func colorMuted() color.Color { return widgets.Color(widgets.ColorNameCardMuted) }

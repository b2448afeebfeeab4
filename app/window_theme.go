package app

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"pcgwb/assets"
)

// pal returns a colour of the project's pixel-art palette, so the chrome matches the sprites.
func pal(c byte) color.RGBA { return assets.Palette[c] }

// palAlpha is a palette colour at a given opacity (for hover, selection and focus washes).
func palAlpha(c byte, alpha uint8) color.NRGBA {
	p := pal(c)
	return color.NRGBA{R: p.R, G: p.G, B: p.B, A: alpha}
}

// Theme is the workbench look: palette colours only, and text a little larger than Fyne's
// default so a projected room can read it. The default is dark (levels read best on ink);
// Projector enlarges text and controls further, Light turns the chrome light (the level cards
// stay dark).
type Theme struct {
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

// themeNames lists the looks.
func themeNames() []string { return []string{themeDark, themeProjector, themeLight} }

// newTheme returns the default (dark) workbench theme; fonts and icons come from Fyne's
// default theme.
func newTheme() *Theme { return newThemeNamed(themeDark) }

// newThemeNamed returns the named look (Dark for an unknown name).
func newThemeNamed(name string) *Theme {
	t := &Theme{base: theme.DefaultTheme(), scale: 1}
	switch name {
	case themeProjector:
		t.scale = 1.2
	case themeLight:
		t.light = true
	}
	return t
}

var _ fyne.Theme = (*Theme)(nil)

func (t *Theme) Color(name fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	if t.light {
		if c, ok := t.lightColor(name); ok {
			return c
		}
	}
	switch name {
	case theme.ColorNameBackground:
		return pal('k')
	case theme.ColorNameForeground:
		return pal('w')
	case theme.ColorNameButton, theme.ColorNameMenuBackground, theme.ColorNameHeaderBackground:
		return pal('d')
	case theme.ColorNameDisabledButton:
		return palAlpha('d', 0x80)
	case theme.ColorNameDisabled:
		return pal('h')
	case theme.ColorNameInputBackground:
		return pal('n')
	case theme.ColorNameInputBorder:
		return pal('h')
	case theme.ColorNamePlaceHolder:
		return pal('s')
	case theme.ColorNamePrimary, theme.ColorNameHyperlink:
		return pal('c')
	case theme.ColorNameFocus:
		return palAlpha('c', 0x99)
	case theme.ColorNameSelection:
		return palAlpha('c', 0x55)
	case theme.ColorNameHover:
		return palAlpha('w', 0x1c)
	case theme.ColorNamePressed:
		return palAlpha('k', 0x66)
	case theme.ColorNameSeparator:
		return pal('d')
	case theme.ColorNameScrollBar:
		return palAlpha('s', 0xa0)
	case theme.ColorNameScrollBarBackground:
		return palAlpha('k', 0x40)
	case theme.ColorNameShadow:
		return color.NRGBA{A: 0x66}
	case theme.ColorNameOverlayBackground:
		return pal('k')
	case theme.ColorNameError:
		return pal('r')
	case theme.ColorNameSuccess:
		return pal('g')
	case theme.ColorNameWarning:
		return pal('y')
	case theme.ColorNameForegroundOnPrimary, theme.ColorNameForegroundOnSuccess, theme.ColorNameForegroundOnWarning:
		return pal('k')
	case theme.ColorNameForegroundOnError:
		return pal('w')
	}
	return t.base.Color(name, theme.VariantDark)
}

// lightColor is where the light chrome differs from the dark one.
func (t *Theme) lightColor(name fyne.ThemeColorName) (color.Color, bool) {
	switch name {
	case theme.ColorNameBackground, theme.ColorNameOverlayBackground:
		return pal('w'), true
	case theme.ColorNameForeground:
		return pal('k'), true
	case theme.ColorNameButton, theme.ColorNameMenuBackground, theme.ColorNameHeaderBackground:
		return palAlpha('s', 0x70), true
	case theme.ColorNameInputBackground:
		return color.NRGBA{0xff, 0xff, 0xff, 0xff}, true
	case theme.ColorNameInputBorder, theme.ColorNameSeparator:
		return pal('s'), true
	case theme.ColorNamePlaceHolder, theme.ColorNameDisabled:
		return pal('h'), true
	case theme.ColorNamePrimary, theme.ColorNameHyperlink:
		return pal('b'), true
	case theme.ColorNameHover:
		return palAlpha('k', 0x14), true
	case theme.ColorNameScrollBar:
		return palAlpha('h', 0xa0), true
	case theme.ColorNameShadow:
		return color.NRGBA{A: 0x33}, true
	}
	return nil, false
}

func (t *Theme) Font(s fyne.TextStyle) fyne.Resource     { return t.base.Font(s) }
func (t *Theme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base.Icon(n) }

func (t *Theme) Size(name fyne.ThemeSizeName) float32 {
	switch name {
	case theme.SizeNameText:
		return 15 * t.scale
	case theme.SizeNameCaptionText:
		return 12 * t.scale
	case theme.SizeNameSubHeadingText:
		return 19 * t.scale
	case theme.SizeNameHeadingText:
		return 24 * t.scale
	case theme.SizeNameInlineIcon:
		return t.base.Size(name) * t.scale
	case theme.SizeNameInputRadius, theme.SizeNameSelectionRadius, theme.SizeNameButtonRadius:
		return 3
	}
	return t.base.Size(name)
}

// Colours the app uses for its own drawings (badges, cards, banners).
var (
	colorCard      = pal('d')
	colorCardEdge  = pal('h')
	colorMuted     = pal('s')
	colorPass      = pal('g')
	colorPartial   = pal('y')
	colorFail      = pal('r')
	colorErrorBack = pal('r')
)

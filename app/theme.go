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

// Theme is the workbench look: always dark (levels read best on ink), palette colours only,
// and text a little larger than Fyne's default so a projected room can read it.
type Theme struct{ base fyne.Theme }

// NewTheme returns the workbench theme; fonts and icons come from Fyne's default theme.
func NewTheme() *Theme { return &Theme{base: theme.DefaultTheme()} }

var _ fyne.Theme = (*Theme)(nil)

func (t *Theme) Color(name fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
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

func (t *Theme) Font(s fyne.TextStyle) fyne.Resource     { return t.base.Font(s) }
func (t *Theme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base.Icon(n) }

func (t *Theme) Size(name fyne.ThemeSizeName) float32 {
	switch name {
	case theme.SizeNameText:
		return 15
	case theme.SizeNameCaptionText:
		return 12
	case theme.SizeNameSubHeadingText:
		return 19
	case theme.SizeNameHeadingText:
		return 24
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

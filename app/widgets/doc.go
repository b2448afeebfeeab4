// Package widgets holds the workbench's shared Fyne widgets: the gallery of level thumbnails
// with their Q / D / C badges, the asynchronously drawn plot view, tooltips and the tip layers
// they are drawn in, the entry that lets the window's shortcuts through, a few layouts, and the
// palette these draw with.
//
// A widget here is a piece of user interface that could be put into any Fyne window: it knows
// nothing of the workbench window, its tabs, its runs or its problems. What it needs from its
// owner (a shortcut to hand on, a picture to draw, work to run off the UI goroutine and its
// result to show on it) it is given at construction, as a function or a small interface (Jobs);
// it takes no lock of the app's. Its one package-level state is the registry of tip layers in
// which tooltips are drawn (WithTipLayer). It imports no domain package (problems/, games/,
// llm/, stats/) and nothing of app/ (internal/archtest checks).
//
// Its colours come from the current Fyne theme: the widgets' own colour names (ColorNamePlotBack,
// ColorNameCard, …) have a dark and a light value (NamedColor), which the workbench's theme
// serves (a Look), so the app and its widgets share one palette (assets.Palette, through Pal).
package widgets

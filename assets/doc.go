// Package assets holds the data the workbench embeds: the pixel-art sprite atlas (drawn by the
// project, as text, so diffs stay readable), and later prompt templates and built-in scripts.
// It is pure Go so that problem renderers, the GUI and the play view share one atlas.
package assets

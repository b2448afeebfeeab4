// Package canvas is the workbench's pixels: the helpers that turn content into images and put
// those images on screen crisply, shared by the Fyne GUI (thumbnails, galleries) and, later, by
// the Ebiten play view and physics animation.
//
// It draws; it does not decide. Problem renderers live next to their problems and use the
// sprite atlas in package assets; this package holds what is common to every image the
// workbench shows. It is the only package allowed to import Ebiten (none does yet), and it
// never imports Fyne, so everything here is plain Go over image.Image and testable anywhere.
package canvas

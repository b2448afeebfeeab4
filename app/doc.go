// Package app is the workbench's Fyne shell: the main window, its problem picker and the
// panels (tabs) that show what the core computes — for now the Sample gallery.
//
// It arranges; it does not compute metrics: sampling and evaluation call package problems, and
// run on their own goroutine with a context, so the window never freezes and a newer request
// cancels an older one. Results reach the widgets through fyne.Do.
//
// The package never imports fyne.io/fyne/v2/app (only cmd/workbench does), so its tests run
// with Fyne's test driver: no display, no cgo.
package app

package widgets

import (
	"sync"
	"weak"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// The tip layers tooltips are drawn in (see the comment at the top of tooltip.go), and the
// registry in which a tooltip finds the layer of its owner's window or dialog.

// tipLayerLimit bounds the registered layers (closed dialogs' layers are forgotten oldest
// first, windows' layers last).
const tipLayerLimit = 16

// tipLayerEntry is a registered tip layer; overlay marks one inside a dialog. The registry
// holds the layer weakly: a closed window's or dialog's layer (and the tooltip in it) goes
// with the window.
type tipLayerEntry struct {
	layer   weak.Pointer[fyne.Container]
	overlay bool
}

var (
	tipMu     sync.Mutex
	tipLayers []tipLayerEntry
)

// WithTipLayer returns content with a tip layer above it, for the window's content
// (overlay=false) or a dialog's (overlay=true): tooltips of the controls inside show there.
func WithTipLayer(content fyne.CanvasObject, overlay bool) fyne.CanvasObject {
	layer := container.NewWithoutLayout()
	tipMu.Lock()
	tipLayers = append(pruneTipLayers(tipLayers), tipLayerEntry{weak.Make(layer), overlay})
	for len(tipLayers) > tipLayerLimit {
		// forget the oldest dialog's layer but the new one (dialogs come and go; a window's
		// layer stays while its window is open)
		drop := 0
		for i, e := range tipLayers[:len(tipLayers)-1] {
			if e.overlay {
				drop = i
				break
			}
		}
		tipLayers = append(tipLayers[:drop:drop], tipLayers[drop+1:]...)
	}
	tipMu.Unlock()
	return container.NewStack(content, layer)
}

// pruneTipLayers drops the layers of windows that are gone (closed, or of another app): a
// layer collected, or drawn on a canvas that no open window has. Layers not drawn yet stay.
func pruneTipLayers(layers []tipLayerEntry) []tipLayerEntry {
	a := fyne.CurrentApp()
	if a == nil {
		return layers
	}
	d := a.Driver()
	open := map[fyne.Canvas]bool{}
	for _, w := range d.AllWindows() {
		open[w.Canvas()] = true
	}
	out := layers[:0]
	for _, e := range layers {
		l := e.layer.Value()
		if l == nil {
			continue
		}
		if c := d.CanvasForObject(l); c == nil || open[c] {
			out = append(out, e)
		}
	}
	return out
}

// layerFor is the newest tip layer on canvas c that covers owner; with a dialog up, only a
// dialog's layer (a window layer would draw under the dialog).
func layerFor(c fyne.Canvas, owner fyne.CanvasObject) *fyne.Container {
	d := fyne.CurrentApp().Driver()
	pos := d.AbsolutePositionForObject(owner)
	dialogUp := c.Overlays().Top() != nil
	tipMu.Lock()
	defer tipMu.Unlock()
	for i := len(tipLayers) - 1; i >= 0; i-- {
		e := tipLayers[i]
		l := e.layer.Value()
		if l == nil || e.overlay != dialogUp || d.CanvasForObject(l) != c {
			continue
		}
		at, size := d.AbsolutePositionForObject(l), l.Size()
		if pos.X >= at.X && pos.Y >= at.Y && pos.X < at.X+size.Width && pos.Y < at.Y+size.Height {
			return l
		}
	}
	return nil
}

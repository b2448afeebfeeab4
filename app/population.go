package app

import (
	"context"
	"fmt"
	"image"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/problems"
)

// populationView is a gallery of evaluated members (a run's population, a heatmap cell, a
// compared run) with sort and filter controls; tapping a thumbnail opens it (OnOpen).
type populationView struct {
	sort         *widget.Select
	Filter       *widget.Select
	count        *widget.Label
	exportButton *widget.Button
	gallery      *widgets.Gallery

	// onOpen is called (UI goroutine) when the member at position pos of Members() is tapped.
	onOpen func(pv *populationView, pos int)
	// onExport is called when the export button is pressed.
	onExport func(pv *populationView)

	// limit caps the thumbnails drawn (the best Limit after sorting and filtering).
	limit int

	name     string
	problem  problems.Problem
	members  []member
	images   []image.Image
	errs     []error
	shown    []int
	selected int // position of the outlined member, -1 for none
	renders  latest
	content  fyne.CanvasObject
}

// newPopulationView returns an empty view showing hint. A compact view has no export button
// and a shorter tool row (for side-by-side galleries). Its pictures are drawn through ui, the
// window's plumbing (nil: detachedUI).
func newPopulationView(ui *uiThread, hint string, compact bool) *populationView {
	pv := &populationView{limit: 200, selected: -1, renders: latest{ui: ui}}
	keys := sortKeys()
	opts := make([]string, len(keys))
	for i, k := range keys {
		opts[i] = string(k)
	}
	pv.sort = widget.NewSelect(opts, func(string) { pv.rebuild() })
	pv.sort.SetSelectedIndex(0)
	filters := make([]string, len(filterChoices))
	for i, c := range filterChoices {
		filters[i] = c.label
	}
	pv.Filter = widget.NewSelect(filters, func(string) { pv.rebuild() })
	pv.Filter.SetSelectedIndex(0)
	pv.count = widget.NewLabel("")
	pv.count.SizeName = theme.SizeNameCaptionText
	pv.count.Truncation = fyne.TextTruncateEllipsis
	pv.exportButton = widget.NewButtonWithIcon("Export", theme.DocumentSaveIcon(), func() {
		if pv.onExport != nil {
			pv.onExport(pv)
		}
	})
	pv.exportButton.Disable()
	pv.gallery = widgets.NewGallery(hint)
	var tools fyne.CanvasObject
	if compact {
		tools = container.NewVBox(pv.sort, pv.Filter) // stacked: side-by-side galleries stay narrow
	} else {
		tools = container.NewBorder(nil, nil,
			container.NewHBox(widgets.FixedWidth(150, pv.sort), widgets.FixedWidth(150, pv.Filter)),
			pv.exportButton, pv.count)
	}
	pv.content = container.NewBorder(tools, nil, nil, nil, pv.gallery)
	return pv
}

// Content is the view's root object.
func (pv *populationView) Content() fyne.CanvasObject { return pv.content }

// Problem returns the name and problem of the members shown.
func (pv *populationView) Problem() (string, problems.Problem) { return pv.name, pv.problem }

// Members returns all members (shown or filtered out).
func (pv *populationView) Members() []member { return pv.members }

// Shown returns the positions (into Members) of the thumbnails shown, in order.
func (pv *populationView) Shown() []int { return pv.shown }

// shownMembers returns the members passing the filter, in display order (all of them, even
// beyond Limit): the selection Export writes.
func (pv *populationView) shownMembers() []member {
	idx := selectMembers(pv.members, pv.filter(), sortKey(pv.sort.Selected))
	out := make([]member, len(idx))
	for i, k := range idx {
		out[i] = pv.members[k]
	}
	return out
}

// Image returns the drawn picture of member pos (nil if it failed or is not drawn yet).
func (pv *populationView) Image(pos int) image.Image {
	if pos >= 0 && pos < len(pv.images) {
		return pv.images[pos]
	}
	return nil
}

// shownImages returns the pictures of ShownMembers (nil where drawing failed).
func (pv *populationView) shownImages() []image.Image {
	idx := selectMembers(pv.members, pv.filter(), sortKey(pv.sort.Selected))
	out := make([]image.Image, len(idx))
	for i, k := range idx {
		out[i] = pv.Image(k)
	}
	return out
}

// setMembers shows members of problem p. The pictures are drawn off the UI goroutine; the
// gallery changes when they are ready (Wait waits for that).
func (pv *populationView) setMembers(name string, p problems.Problem, members []member) {
	pv.renders.Go(func(ctx context.Context) func() {
		imgs, errs := renderMembers(ctx, p, members)
		if ctx.Err() != nil {
			return nil
		}
		return func() {
			pv.name, pv.problem, pv.members, pv.images, pv.errs = name, p, members, imgs, errs
			pv.selected = -1
			pv.rebuild()
		}
	})
}

// Clear empties the view and shows msg.
func (pv *populationView) Clear(msg string) {
	pv.renders.Cancel()
	pv.members, pv.images, pv.errs, pv.shown, pv.problem = nil, nil, nil, nil, nil
	pv.count.SetText("")
	pv.exportButton.Disable()
	pv.gallery.ShowMessage(msg)
}

// wait blocks until the last SetMembers is on screen, at most timeout (not on the UI goroutine).
func (pv *populationView) wait(timeout time.Duration) error { return pv.renders.wait(timeout) }

// Select outlines member pos (-1: none).
func (pv *populationView) Select(pos int) {
	pv.selected = pos
	for i, t := range pv.gallery.Thumbs() {
		t.SetSelected(i < len(pv.shown) && pv.shown[i] == pos)
	}
}

func (pv *populationView) filter() filter { return filterNamed(pv.Filter.Selected) }

// rebuild lays the gallery out again for the current filter and order.
func (pv *populationView) rebuild() {
	if pv.gallery == nil {
		return // still being built
	}
	if len(pv.members) == 0 {
		pv.shown = nil
		pv.count.SetText("")
		pv.exportButton.Disable()
		if pv.problem != nil {
			pv.gallery.ShowMessage("No levels.")
		}
		return
	}
	all := selectMembers(pv.members, pv.filter(), sortKey(pv.sort.Selected))
	pv.shown = all
	if pv.limit > 0 && len(all) > pv.limit {
		pv.shown = all[:pv.limit]
	}
	text := fmt.Sprintf("%d of %d · badges Q D C", len(all), len(pv.members))
	if len(pv.shown) < len(all) {
		text = fmt.Sprintf("best %d of %d (%d pass the filter)", len(pv.shown), len(pv.members), len(all))
	}
	pv.count.SetText(text)
	if len(all) == 0 {
		pv.exportButton.Disable()
		pv.gallery.ShowMessage("No level passes the filter.")
		return
	}
	pv.exportButton.Enable()
	thumbs := make([]*widgets.Thumb, len(pv.shown))
	for i, pos := range pv.shown {
		m := &pv.members[pos]
		t := widgets.NewThumb(m.index, pv.images[pos], pv.errs[pos], m.Quality, m.Diversity, m.Controllability)
		t.SetCompact()
		t.SetSelected(pos == pv.selected)
		t.OnTapped = func() {
			pv.Select(pos)
			if pv.onOpen != nil {
				pv.onOpen(pv, pos)
			}
		}
		thumbs[i] = t
	}
	pv.gallery.SetThumbs(thumbs)
}

// renderMembers draws every member; it stops early when ctx is cancelled.
func renderMembers(ctx context.Context, p problems.Problem, members []member) ([]image.Image, []error) {
	imgs := make([]image.Image, len(members))
	errs := make([]error, len(members))
	for i := range members {
		if ctx.Err() != nil {
			return nil, nil
		}
		imgs[i], errs[i] = safeRender(p, members[i].Content)
	}
	return imgs, errs
}

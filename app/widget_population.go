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

	"pcgwb/problems"
)

// PopulationView is a gallery of evaluated members (a run's population, a heatmap cell, a
// compared run) with sort and filter controls; tapping a thumbnail opens it (OnOpen).
type PopulationView struct {
	Sort         *widget.Select
	Filter       *widget.Select
	Count        *widget.Label
	ExportButton *widget.Button
	Gallery      *Gallery

	// OnOpen is called (UI goroutine) when the member at position pos of Members() is tapped.
	OnOpen func(pv *PopulationView, pos int)
	// OnExport is called when the export button is pressed.
	OnExport func(pv *PopulationView)

	// Limit caps the thumbnails drawn (the best Limit after sorting and filtering).
	Limit int

	name     string
	problem  problems.Problem
	members  []Member
	images   []image.Image
	errs     []error
	shown    []int
	selected int // position of the outlined member, -1 for none
	renders  latest
	content  fyne.CanvasObject
}

// NewPopulationView returns an empty view showing hint. A compact view has no export button
// and a shorter tool row (for side-by-side galleries).
func NewPopulationView(hint string, compact bool) *PopulationView {
	pv := &PopulationView{Limit: 200, selected: -1}
	keys := SortKeys()
	opts := make([]string, len(keys))
	for i, k := range keys {
		opts[i] = string(k)
	}
	pv.Sort = widget.NewSelect(opts, func(string) { pv.rebuild() })
	pv.Sort.SetSelectedIndex(0)
	filters := make([]string, len(FilterChoices))
	for i, c := range FilterChoices {
		filters[i] = c.Label
	}
	pv.Filter = widget.NewSelect(filters, func(string) { pv.rebuild() })
	pv.Filter.SetSelectedIndex(0)
	pv.Count = widget.NewLabel("")
	pv.Count.SizeName = theme.SizeNameCaptionText
	pv.Count.Truncation = fyne.TextTruncateEllipsis
	pv.ExportButton = widget.NewButtonWithIcon("Export", theme.DocumentSaveIcon(), func() {
		if pv.OnExport != nil {
			pv.OnExport(pv)
		}
	})
	pv.ExportButton.Disable()
	pv.Gallery = NewGallery(hint)
	var tools fyne.CanvasObject
	if compact {
		tools = container.NewVBox(pv.Sort, pv.Filter) // stacked: side-by-side galleries stay narrow
	} else {
		tools = container.NewBorder(nil, nil,
			container.NewHBox(fixedWidth(150, pv.Sort), fixedWidth(150, pv.Filter)),
			pv.ExportButton, pv.Count)
	}
	pv.content = container.NewBorder(tools, nil, nil, nil, pv.Gallery)
	return pv
}

// Content is the view's root object.
func (pv *PopulationView) Content() fyne.CanvasObject { return pv.content }

// Problem returns the name and problem of the members shown.
func (pv *PopulationView) Problem() (string, problems.Problem) { return pv.name, pv.problem }

// Members returns all members (shown or filtered out).
func (pv *PopulationView) Members() []Member { return pv.members }

// Shown returns the positions (into Members) of the thumbnails shown, in order.
func (pv *PopulationView) Shown() []int { return pv.shown }

// ShownMembers returns the members passing the filter, in display order (all of them, even
// beyond Limit): the selection Export writes.
func (pv *PopulationView) ShownMembers() []Member {
	idx := SelectMembers(pv.members, pv.filter(), SortKey(pv.Sort.Selected))
	out := make([]Member, len(idx))
	for i, k := range idx {
		out[i] = pv.members[k]
	}
	return out
}

// Image returns the drawn picture of member pos (nil if it failed or is not drawn yet).
func (pv *PopulationView) Image(pos int) image.Image {
	if pos >= 0 && pos < len(pv.images) {
		return pv.images[pos]
	}
	return nil
}

// ShownImages returns the pictures of ShownMembers (nil where drawing failed).
func (pv *PopulationView) ShownImages() []image.Image {
	idx := SelectMembers(pv.members, pv.filter(), SortKey(pv.Sort.Selected))
	out := make([]image.Image, len(idx))
	for i, k := range idx {
		out[i] = pv.Image(k)
	}
	return out
}

// SetMembers shows members of problem p. The pictures are drawn off the UI goroutine; the
// gallery changes when they are ready (Wait waits for that).
func (pv *PopulationView) SetMembers(name string, p problems.Problem, members []Member) {
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
func (pv *PopulationView) Clear(msg string) {
	pv.renders.Cancel()
	pv.members, pv.images, pv.errs, pv.shown, pv.problem = nil, nil, nil, nil, nil
	pv.Count.SetText("")
	pv.ExportButton.Disable()
	pv.Gallery.ShowMessage(msg)
}

// Wait blocks until the last SetMembers is on screen, at most timeout (not on the UI goroutine).
func (pv *PopulationView) Wait(timeout time.Duration) error { return pv.renders.Wait(timeout) }

// Select outlines member pos (-1: none).
func (pv *PopulationView) Select(pos int) {
	pv.selected = pos
	for i, t := range pv.Gallery.Thumbs() {
		t.SetSelected(i < len(pv.shown) && pv.shown[i] == pos)
	}
}

func (pv *PopulationView) filter() Filter { return FilterNamed(pv.Filter.Selected) }

// rebuild lays the gallery out again for the current filter and order.
func (pv *PopulationView) rebuild() {
	if pv.Gallery == nil {
		return // still being built
	}
	if len(pv.members) == 0 {
		pv.shown = nil
		pv.Count.SetText("")
		pv.ExportButton.Disable()
		if pv.problem != nil {
			pv.Gallery.ShowMessage("No levels.")
		}
		return
	}
	all := SelectMembers(pv.members, pv.filter(), SortKey(pv.Sort.Selected))
	pv.shown = all
	if pv.Limit > 0 && len(all) > pv.Limit {
		pv.shown = all[:pv.Limit]
	}
	text := fmt.Sprintf("%d of %d · badges Q D C", len(all), len(pv.members))
	if len(pv.shown) < len(all) {
		text = fmt.Sprintf("best %d of %d (%d pass the filter)", len(pv.shown), len(pv.members), len(all))
	}
	pv.Count.SetText(text)
	if len(all) == 0 {
		pv.ExportButton.Disable()
		pv.Gallery.ShowMessage("No level passes the filter.")
		return
	}
	pv.ExportButton.Enable()
	thumbs := make([]*Thumb, len(pv.shown))
	for i, pos := range pv.shown {
		m := &pv.members[pos]
		t := newThumb(m.Index, m.Item(), pv.images[pos], pv.errs[pos], m.Quality, m.Diversity, m.Controllability)
		t.SetCompact()
		t.selected = pos == pv.selected
		t.OnTapped = func() {
			pv.Select(pos)
			if pv.OnOpen != nil {
				pv.OnOpen(pv, pos)
			}
		}
		thumbs[i] = t
	}
	pv.Gallery.SetThumbs(thumbs)
}

// renderMembers draws every member; it stops early when ctx is cancelled.
func renderMembers(ctx context.Context, p problems.Problem, members []Member) ([]image.Image, []error) {
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

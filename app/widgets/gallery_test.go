package widgets

import (
	"image"
	"testing"

	"fyne.io/fyne/v2"
)

func TestPlanGalleryFitsAllWhenItCan(t *testing.T) {
	chrome := fyne.NewSize(12, 40)
	view := fyne.NewSize(960, 560)
	p := planGallery(12, image.Pt(176, 112), view, chrome, 150, 8)
	if p.cols*p.rows < 12 || p.total.Width > view.Width || p.total.Height > view.Height {
		t.Fatalf("12 zelda-sized items do not fit %v: %+v", view, p)
	}
	if p.scale < 1 {
		t.Fatalf("scale %g: the items could be drawn at full size", p.scale)
	}
	// Too many to fit: thumbnails keep a readable size and the gallery scrolls.
	p = planGallery(100, image.Pt(176, 112), view, chrome, 150, 8)
	if p.scale < 0.5 || p.total.Height <= view.Height || p.total.Width > view.Width {
		t.Fatalf("100 items: %+v", p)
	}
	// Tiny pictures are enlarged by a whole factor.
	p = planGallery(4, image.Pt(16, 16), view, chrome, 0, 8)
	if p.scale != float64(int(p.scale)) || p.scale < 2 {
		t.Fatalf("4 tiny items: scale %g", p.scale)
	}
}

package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
)

// A tooltip never covers what it describes when there is room anywhere around it: below, else
// above, right or left; with no room at all, it covers as little as it can.
func TestTooltipDoesNotCoverItsOwner(t *testing.T) {
	area := fyne.NewSize(1000, 600)
	tip := fyne.NewSize(320, 80)
	for _, tc := range []struct {
		name      string
		at        fyne.Position
		owner     fyne.Size
		wantClear bool
	}{
		{"a button at the top", fyne.NewPos(10, 10), fyne.NewSize(100, 30), true},
		{"a button at the bottom", fyne.NewPos(10, 560), fyne.NewSize(100, 30), true},
		{"a button at the bottom right", fyne.NewPos(900, 560), fyne.NewSize(100, 30), true},
		{"a tall card filling the height", fyne.NewPos(100, 0), fyne.NewSize(200, 600), true},
		{"a heatmap filling the window", fyne.NewPos(0, 0), fyne.NewSize(1000, 600), false},
	} {
		p := placeTip(tc.at, tc.owner, tip, area)
		if p.X < 0 || p.Y < 0 || p.X+tip.Width > area.Width || p.Y+tip.Height > area.Height {
			t.Errorf("%s: the tip at %v leaves the window", tc.name, p)
		}
		w := min(p.X+tip.Width, tc.at.X+tc.owner.Width) - max(p.X, tc.at.X)
		h := min(p.Y+tip.Height, tc.at.Y+tc.owner.Height) - max(p.Y, tc.at.Y)
		covers := w > 0 && h > 0
		if tc.wantClear && covers {
			t.Errorf("%s: the tip at %v covers its owner at %v %v", tc.name, p, tc.at, tc.owner)
		}
	}
}

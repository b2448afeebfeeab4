package assets

import "math"

// crispLoss is how much of the available size PixelScale gives up to keep every source pixel
// the same size on screen.
const crispLoss = 0.2

// PixelScale returns the scale at which a w×h pixel-art image fits a boxW×boxH box.
//
// Nearest-neighbour scaling by a fractional factor draws some source pixels one screen pixel
// wider than others, which shows as uneven lines in 16-pixel sprites. So when the image can be
// enlarged, the factor is rounded down to a whole number as long as that costs at most a fifth
// of the size; below that (and when the image must shrink) the exact fit is returned.
// It returns 0 for an empty image or box.
func PixelScale(w, h int, boxW, boxH float64) float64 {
	if w <= 0 || h <= 0 || boxW <= 0 || boxH <= 0 {
		return 0
	}
	fit := math.Min(boxW/float64(w), boxH/float64(h))
	// The tolerance keeps a box computed in float32 as w×3 from coming back as 2.9999… → 2.
	if whole := math.Floor(fit * (1 + 1e-6)); whole >= 1 && whole >= fit*(1-crispLoss) {
		return whole
	}
	return fit
}

package assets

import "testing"

func TestPixelScale(t *testing.T) {
	tests := []struct {
		name       string
		w, h       int
		boxW, boxH float64
		want       float64
	}{
		{"exact double", 100, 50, 200, 100, 2},
		{"height limits", 100, 50, 1000, 100, 2},
		{"rounds down to whole when cheap", 100, 100, 330, 330, 3},
		{"keeps the fit when rounding would waste too much", 100, 100, 190, 190, 1.9},
		{"shrinks exactly", 400, 200, 100, 100, 0.25},
		{"exactly one", 16, 16, 16, 40, 1},
		{"empty image", 0, 10, 100, 100, 0},
		{"empty box", 10, 10, 0, 100, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PixelScale(tt.w, tt.h, tt.boxW, tt.boxH); got != tt.want {
				t.Fatalf("PixelScale(%d, %d, %g, %g) = %g, want %g", tt.w, tt.h, tt.boxW, tt.boxH, got, tt.want)
			}
		})
	}
}

func TestPixelScaleSurvivesRounding(t *testing.T) {
	w, h := 176, 112
	for s := 1; s <= 8; s++ {
		box := float64(float32(float64(w) * float64(s) * (1 - 1e-7)))
		if got := PixelScale(w, h, box, float64(h*s)); got != float64(s) {
			t.Fatalf("scale %d: got %g", s, got)
		}
	}
}

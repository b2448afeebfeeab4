//go:build amd64 && !amd64.v3 && !amd64.v4

package box2d

import (
	"math"
	"testing"
)

// On an amd64 build below v3 nothing is fused, so the functions equal the standard library's
// bit for bit.
func TestTrigMatchesMath(t *testing.T) {
	xs := trigInputs()
	bad := 0
	for i, x := range xs {
		y := xs[(i*7919)%len(xs)]
		pairs := [][2]float64{{B2Sin(x), math.Sin(x)}, {B2Cos(x), math.Cos(x)}, {B2Atan2(x, y), math.Atan2(x, y)}, {B2Atan2(y, x), math.Atan2(y, x)}}
		for k, p := range pairs {
			if math.Float64bits(p[0]) != math.Float64bits(p[1]) && !(math.IsNaN(p[0]) && math.IsNaN(p[1])) {
				if bad < 5 {
					t.Errorf("function %d at %v (%v): %v, math %v", k, x, y, p[0], p[1])
				}
				bad++
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d differences", bad)
	}
}

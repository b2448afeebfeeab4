package birds

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// randomProgram is a drop_block program of n random blocks on random columns: random piles
// topple in many different ways, which is where a solver change would show first.
func randomProgram(rng *rand.Rand, n int) string {
	pieces := []string{"b11", "b13", "b31"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "drop_block('%s', %d)\n", pieces[rng.IntN(len(pieces))], 4+rng.IntN(12))
	}
	return b.String()
}

// sameBits compares two worlds' dynamic bodies bit for bit (position, angle, velocities and
// the game state), and says where they first differ.
func sameBits(a, b *sim) string {
	if len(a.bodies) != len(b.bodies) {
		return fmt.Sprintf("%d bodies against %d", len(a.bodies), len(b.bodies))
	}
	bits := math.Float64bits
	for i := range a.bodies {
		x, y := a.bodies[i], b.bodies[i]
		if x.removed != y.removed || x.dying != y.dying || bits(x.life) != bits(y.life) {
			return fmt.Sprintf("body %d: game state differs (life %v/%v)", i, x.life, y.life)
		}
		if x.removed {
			continue
		}
		px, py := x.body.GetPosition(), y.body.GetPosition()
		vx, vy := x.body.GetLinearVelocity(), y.body.GetLinearVelocity()
		if bits(px.X) != bits(py.X) || bits(px.Y) != bits(py.Y) || bits(x.body.GetAngle()) != bits(y.body.GetAngle()) ||
			bits(vx.X) != bits(vy.X) || bits(vx.Y) != bits(vy.Y) || bits(x.body.GetAngularVelocity()) != bits(y.body.GetAngularVelocity()) ||
			x.body.IsAwake() != y.body.IsAwake() {
			return fmt.Sprintf("body %d: (%v, %v) against (%v, %v)", i, px, vx, py, vy)
		}
	}
	return ""
}

// The fork's contact velocity solver (third_party/box2d/PATCHES.md) must give exactly the
// worlds upstream's gives: every body's position, angle and velocities, bit for bit, after
// every step, on the archived Unity levels, random toppling piles and the scale levels.
// Speed is the only thing the fork may change.
func TestFastSolverIsBitIdentical(t *testing.T) {
	type tcase struct {
		name  string
		lv    *Level
		steps int
	}
	var cases []tcase
	sample := 1 // every archived level; a fifth of them under -short or -race
	if testing.Short() || raceDetector {
		sample = 5
	}
	for i, c := range unityCases(t) {
		if i%sample != 0 {
			continue
		}
		lv := readLevelFile(t, c.level)
		cases = append(cases, tcase{"unity/" + c.name, lv, stabilitySteps + captureDelaySteps})
	}
	rng := rand.New(rand.NewPCG(17, 4))
	for i := 0; i < 12; {
		lv, err := mustConvert(t, randomProgram(rng, 5+rng.IntN(40)))
		if err != nil {
			continue // the converter rejects some random programs (a pile above the grid)
		}
		i++
		cases = append(cases, tcase{fmt.Sprintf("random/%d", i), lv, stabilitySteps + captureDelaySteps})
	}
	// The full grid collapses within its first seconds; 150 steps cover the collapse at a
	// fraction of the reference solver's cost.
	cases = append(cases, tcase{"grid/100", scaleLevel(t, 100), 150}, tcase{"grid/320", scaleLevel(t, 320), 150})

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			engineReady.Do(warmUpEngine)
			ref := DefaultSimConfig()
			ref.referenceSolver = true
			a, b := newSim(c.lv, DefaultSimConfig()), newSim(c.lv, ref)
			for step := 1; step <= c.steps; step++ {
				a.step, b.step = step, step
				if err := a.stepOnce(); err != nil {
					t.Fatal(err)
				}
				if err := b.stepOnce(); err != nil {
					t.Fatal(err)
				}
				if d := sameBits(a, b); d != "" {
					t.Fatalf("step %d: %s", step, d)
				}
			}
		})
	}
}

// readLevelFile reads and parses a level XML file.
func readLevelFile(t testing.TB, path string) *Level {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lv, err := ParseLevel(data)
	if err != nil {
		t.Fatal(err)
	}
	return lv
}

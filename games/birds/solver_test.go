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
// every step, on the archived Unity levels, random toppling piles (also with the evaluator's
// trial variations, which change the order of bodies and contacts) and the scale levels. Both
// of the fork's loops are checked: as shipped (serial passes, then paired ones on islands that
// keep changing) and paired from the first pass. Speed is the only thing the fork may change.
func TestFastSolverIsBitIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("steps every test world three ways (-short)")
	}
	type tcase struct {
		name      string
		lv        *Level
		steps     int
		variation uint64
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
		cases = append(cases, tcase{"unity/" + c.name, lv, stabilitySteps + captureDelaySteps, 0})
	}
	rng := rand.New(rand.NewPCG(17, 4))
	for i := 0; i < 12; {
		lv, err := mustConvert(t, randomProgram(rng, 5+rng.IntN(40)))
		if err != nil {
			continue // the converter rejects some random programs (a pile above the grid)
		}
		i++
		cases = append(cases, tcase{fmt.Sprintf("random/%d", i), lv, stabilitySteps + captureDelaySteps, 0})
		if i%4 == 0 {
			cases = append(cases, tcase{fmt.Sprintf("random/%d/trial", i), lv, stabilitySteps + captureDelaySteps, uint64(i)})
		}
	}
	// The full grid collapses within its first seconds; 150 steps cover the collapse at a
	// fraction of the reference solver's cost.
	cases = append(cases, tcase{"grid/100", scaleLevel(t, 100), 150, 0}, tcase{"grid/320", scaleLevel(t, 320), 150, 0},
		tcase{"grid/320/trial", scaleLevel(t, 320), 150, 3})

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			engineReady.Do(warmUpEngine)
			fork := DefaultSimConfig()
			fork.Variation = c.variation
			ref, paired := fork, fork
			ref.referenceSolver = true
			paired.pairAllPasses = true
			sims := []*sim{newSim(c.lv, ref), newSim(c.lv, fork), newSim(c.lv, paired)}
			names := []string{"upstream", "fork", "fork paired from the first pass"}
			for step := 1; step <= c.steps; step++ {
				for _, s := range sims {
					s.step = step
					if err := s.stepOnce(); err != nil {
						t.Fatal(err)
					}
				}
				for k := 1; k < len(sims); k++ {
					if d := sameBits(sims[k], sims[0]); d != "" {
						t.Fatalf("step %d, %s against upstream: %s", step, names[k], d)
					}
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

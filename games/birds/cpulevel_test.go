package birds

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"testing"
)

// physicsDigest is the SHA-256 of every body's state after the evaluator's steps on the
// levels physicsDigestOf simulates. It was recorded with the default build (GOAMD64=v1) and
// must come out the same under GOAMD64=v3, where Go may fuse a multiply and an add into one
// FMA instruction (and on arm64, where it always may): every floating-point product in the
// physics (third_party/box2d, this package) is rounded explicitly, float64(a*b), which forbids
// the fusion. Re-record it only for an intended change of the physics, and check that
//
//	GOAMD64=v3 go test ./games/birds -run 'TestPhysicsIsIndependentOfTheCPULevel|TestFastSolverIsBitIdentical'
//
// passes too.
const physicsDigest = "4d5266a24781e456999826687d783a47ad45a686b2d86b82c395ab30a1d15713"

func physicsDigestOf(t *testing.T) string {
	h := sha256.New()
	var buf [8]byte
	put := func(v float64) {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
		h.Write(buf[:])
	}
	var levels []*Level
	for i, c := range unityCases(t) {
		if i%7 == 0 {
			levels = append(levels, readLevelFile(t, c.level))
		}
	}
	levels = append(levels, scaleLevel(t, 100))
	for _, variation := range []uint64{0, 2} {
		for _, lv := range levels {
			cfg := DefaultSimConfig()
			cfg.Variation = variation
			s := newSim(lv, cfg)
			for step := 1; step <= stabilitySteps+captureDelaySteps; step++ {
				s.step = step
				if err := s.stepOnce(); err != nil {
					t.Fatal(err)
				}
			}
			for _, b := range s.bodies {
				put(b.life)
				if b.removed {
					put(-1)
					continue
				}
				p, v := b.body.GetPosition(), b.body.GetLinearVelocity()
				put(p.X)
				put(p.Y)
				put(b.body.GetAngle())
				put(v.X)
				put(v.Y)
				put(b.body.GetAngularVelocity())
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// The physics gives the same bits whatever CPU level the binary was built for.
func TestPhysicsIsIndependentOfTheCPULevel(t *testing.T) {
	if got := physicsDigestOf(t); got != physicsDigest {
		t.Fatalf("physics digest %s, recorded %s (see the comment at physicsDigest)", got, physicsDigest)
	}
}

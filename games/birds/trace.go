package birds

import (
	"fmt"
	"math"
	"slices"

	"github.com/ByteArena/box2d"
)

// StepSeconds is the game time of one simulation step: a viewer showing one step per 20 ms
// plays the simulation at the speed Unity runs it.
const StepSeconds = timeStep

// Animation is a level's simulation advanced one step at a time, for viewers. It runs the very
// steps Simulate runs (same world, damage, removal and snapshots), so after the last step its
// bodies are where the evaluator sees them; the verdict is computed up front with Simulate.
type Animation struct {
	lv      *Level
	cfg     SimConfig
	s       *sim
	total   int
	verdict *Result
	err     error
}

// Outline is a collider in its body's frame: a polygon, or a circle when Radius > 0.
type Outline struct {
	Points []Point
	Radius float64
}

// BodyState is one game object at the current step of an animation.
type BodyState struct {
	Object  Object
	Pose    Pose
	Outline Outline
	Static  bool    // platforms never move
	Dead    bool    // destroyed: invisible and without collider
	Moved   float64 // distance from the start position
}

// Moving reports whether the object has shifted by the evaluator's threshold.
func (b BodyState) Moving() bool { return !b.Static && float32(b.Moved) >= MovementThreshold }

// NewAnimation prepares the simulation of a level for stepping. It fails on the levels
// Simulate rejects, with the same errors.
func NewAnimation(lv *Level) (*Animation, error) {
	cfg := DefaultSimConfig()
	res, err := Simulate(lv, cfg)
	if err != nil {
		return nil, err
	}
	a := &Animation{lv: lv, cfg: cfg, verdict: res}
	a.Restart()
	return a, nil
}

// Restart puts every object back where the level places it.
func (a *Animation) Restart() {
	a.s = newSim(a.lv, a.cfg)
	a.s.step = 0
	a.total = max(a.cfg.StabilitySteps, a.cfg.ImageSteps+a.cfg.CaptureDelay)
	a.err = nil
}

// Verdict is the evaluator's result for the level (what Simulate returns).
func (a *Animation) Verdict() *Result { return a.verdict }

// Step is the number of steps done; StabilityStep is when the evaluator takes the positions it
// judges, and TotalSteps when the animation ends (the image capture).
func (a *Animation) Step() int          { return a.s.step }
func (a *Animation) StabilityStep() int { return a.cfg.StabilitySteps }
func (a *Animation) TotalSteps() int    { return a.total }

// Done reports whether the last step has been taken (or the engine failed).
func (a *Animation) Done() bool { return a.s.step >= a.total || a.err != nil }

// Err is the engine failure that stopped the animation, if any.
func (a *Animation) Err() error { return a.err }

// Advance takes one step, sim.stepOnce as sim.run takes it; it does nothing once Done.
func (a *Animation) Advance() (err error) {
	if a.Done() {
		return a.err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", ErrPhysics, p)
		}
		a.err = err
	}()
	a.s.step++
	return a.s.stepOnce()
}

// Result is the simulation's result once Done: equal to the Verdict (a test checks it).
func (a *Animation) Result() *Result {
	if a.s.step < a.total {
		return nil
	}
	return a.s.result()
}

// Bodies appends the state of every object, in level order, to dst.
func (a *Animation) Bodies(dst []BodyState) []BodyState {
	dst = dst[:0]
	byIndex := make(map[int]*simBody, len(a.s.bodies))
	for _, sb := range a.s.bodies {
		byIndex[sb.index] = sb
	}
	for i, o := range a.lv.Objects {
		pf := objectPrefab(o)
		st := BodyState{Object: o, Outline: outlineOf(pf), Pose: a.s.out[i].Start, Static: pf.static}
		if sb, ok := byIndex[i]; ok {
			st.Pose = sb.last
			st.Dead = sb.dying || sb.removed
			st.Moved = math.Hypot(f32(sb.last.X)-a.s.out[i].Start.X, f32(sb.last.Y)-a.s.out[i].Start.Y)
		}
		dst = append(dst, st)
	}
	return dst
}

// Ground returns the ground boxes (not the level's platforms) in world units.
func (a *Animation) Ground() []AABB {
	var statics []AABB
	for b := a.s.world.GetBodyList(); b != nil; b = b.GetNext() {
		if b.GetType() != box2d.B2BodyType.B2_staticBody {
			continue
		}
		for f := b.GetFixtureList(); f != nil; f = f.GetNext() {
			var ab box2d.B2AABB
			f.GetShape().ComputeAABB(&ab, b.GetTransform(), 0)
			statics = append(statics, AABB{ab.LowerBound.X, ab.LowerBound.Y, ab.UpperBound.X, ab.UpperBound.Y})
		}
	}
	// Box2D lists bodies newest first, and newSim creates the ground copies before the platforms.
	slices.Reverse(statics)
	return statics[:min(len(statics), min(max(a.lv.Width, 1), 64))]
}

func outlineOf(pf prefab) Outline {
	switch pf.shape {
	case shapeCircle:
		return Outline{Radius: math.Max(pf.w, pf.h) / 2}
	case shapePolygon:
		pts := make([]Point, len(pf.poly))
		for i, v := range pf.poly {
			pts[i] = Point{v.X, v.Y}
		}
		return Outline{Points: pts}
	}
	hw, hh := pf.w/2, pf.h/2
	return Outline{Points: []Point{{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}}}
}

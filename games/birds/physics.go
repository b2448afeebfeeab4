package birds

// Engine: ByteArena/box2d master (v1.0.3-0.20200713122713-acbde413692f), as pinned in go.mod.
// v1.0.2 was tried against the archived Unity run with this same code (disabling a dead block
// with a sensor, since v1.0.2 ignores collision filters): it agrees exactly as well — the same
// 103 of 105 legacy stability scores and the same images — because the two differ only in
// rounding details (polygon centroid reference point, sweep interpolation) and in the default
// contact filter. Master is kept for its fixes and because its working filter lets a dead block
// lose its collider the way Unity's does. On master the fixture filter must be set explicitly
// (MakeB2FixtureDef leaves it zeroed, which makes nothing collide).
//
// The module is replaced by third_party/box2d: the same code with a faster contact velocity
// solver that gives bit-identical worlds (PATCHES.md there; TestFastSolverIsBitIdentical), because
// the game's 100 velocity iterations made big collapsing answers slow.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/ByteArena/box2d"
)

// Unity and Science Birds constants (ProjectSettings, prefabs, ABGameObject/ABBlock scripts).
const (
	unityGravity       = -9.81
	blockGravityScale  = 0.5
	blockLinearDrag    = 1
	blockAngularDrag   = 0.05
	blockDensity       = 1
	defaultFriction    = 0.4 // Unity's default for colliders without a physics material (the ground)
	timeStep           = 0.02
	velocityIterations = 100
	positionIterations = 100
	blockLife          = 5
	// A dead block lingers, invisible and without collider, for its particle system's lifetime.
	dyingSteps = 25 // 0.5 s
	// The stability check records positions for 10 s of game time at one 0.02 s step per frame.
	stabilitySteps = 500
	// The image evaluator frames the structure after 10 s and captures 14 frames later.
	captureDelaySteps = 14
	// Blocks whose position changed by at least this much count as moving.
	MovementThreshold = 0.1
	// One landscape copy is 17.5 units wide; copies are placed 17.49 apart.
	landscapeWidth    = 17.5
	landscapeStep     = 17.49
	groundWidth       = 17.49
	groundHeight      = 4.4068956
	groundCentreY     = -5.7034476
	levelOriginalSize = 17.5
)

// material friction and life factor (ABBlock.SetMaterial, Resources/Materials).
func materialProps(m string) (friction, lifeFactor float64) {
	switch m {
	case "stone":
		return 4, 2
	case "ice":
		return 0.74, 0.5
	}
	return 4, 1 // wood, and what the game falls back to for competition files
}

type shapeKind int8

const (
	shapeBox shapeKind = iota
	shapeCircle
	shapePolygon
)

// prefab is the collider of a game object type and its evaluator sprite (collider + 0.02).
type prefab struct {
	shape        shapeKind
	w, h         float64 // box collider, or circle diameter
	poly         []box2d.B2Vec2
	life         float64
	gravityScale float64
	static       bool
	approximate  bool // collider not read from the prefab: only for the viewer
}

var blockPrefabs = map[string]prefab{
	"SquareTiny":  {shape: shapeBox, w: 0.22, h: 0.21},
	"RectSmall":   {shape: shapeBox, w: 0.70, h: 0.22},
	"RectTiny":    {shape: shapeBox, w: 0.43, h: 0.22},
	"RectMedium":  {shape: shapeBox, w: 1.68, h: 0.22},
	"RectBig":     {shape: shapeBox, w: 2.06, h: 0.22},
	"RectFat":     {shape: shapeBox, w: 0.85, h: 0.43},
	"SquareSmall": {shape: shapeBox, w: 0.43, h: 0.43},
	"SquareHole":  {shape: shapeBox, w: 0.84, h: 0.84},
	// Polygon colliders in Unity; Box2D polygons have at most 8 vertices, so the round ones are
	// circles of the same extent and the hollow triangle is its outline.
	"Circle":       {shape: shapeCircle, w: 0.76, h: 0.75, approximate: true},
	"CircleSmall":  {shape: shapeCircle, w: 0.42, h: 0.42, approximate: true},
	"Triangle":     {shape: shapePolygon, w: 0.82, h: 0.82, poly: []box2d.B2Vec2{{X: -0.41, Y: -0.41}, {X: 0.41, Y: -0.41}, {X: -0.41, Y: 0.41}}},
	"TriangleHole": {shape: shapePolygon, w: 0.84, h: 0.84, poly: []box2d.B2Vec2{{X: -0.42, Y: -0.42}, {X: 0.42, Y: -0.42}, {X: 0.04, Y: 0.42}, {X: -0.04, Y: 0.42}}, approximate: true},
}

// objectPrefab returns the physics of any game object; unknown block types behave like
// SquareSmall so that a viewer can still show a level with blocks from newer game versions.
func objectPrefab(o Object) prefab {
	switch o.Kind {
	case KindPig:
		// Pig colliders are not in the shared sources: circles of the sprites' size.
		switch o.Type {
		case "BasicBig":
			return prefab{shape: shapeCircle, w: 0.94, h: 0.94, life: 6, gravityScale: 1, approximate: true}
		case "BasicMedium":
			return prefab{shape: shapeCircle, w: 0.7, h: 0.7, life: 4, gravityScale: 1, approximate: true}
		}
		return prefab{shape: shapeCircle, w: 0.46, h: 0.46, life: 2, gravityScale: blockGravityScale, approximate: true}
	case KindTNT:
		return prefab{shape: shapeBox, w: 0.66, h: 0.66, life: 2, gravityScale: 1}
	case KindPlatform:
		sx, sy := o.ScaleX, o.ScaleY
		if sx == 0 {
			sx = 1
		}
		if sy == 0 {
			sy = 1
		}
		return prefab{shape: shapeBox, w: float64(0.64 * math.Abs(sx)), h: float64(0.64 * math.Abs(sy)), static: true}
	}
	p, ok := blockPrefabs[o.Type]
	if !ok {
		p = blockPrefabs["SquareSmall"]
		p.approximate = true
	}
	_, factor := materialProps(o.Material)
	p.life = float64(blockLife * factor)
	p.gravityScale = blockGravityScale
	return p
}

// SimConfig holds the knobs of a simulation; DefaultSimConfig is the evaluator's.
type SimConfig struct {
	// StabilitySteps is the number of 0.02 s steps before the stability positions are taken.
	StabilitySteps int
	// ImageSteps is when the image is framed; the capture happens CaptureDelay steps later.
	ImageSteps, CaptureDelay int
	// Continuous enables Box2D's time-of-impact pass against static bodies. Unity's blocks use
	// discrete collision detection, so it is off by default.
	Continuous bool
	// NoDamage disables the game's damage and destruction (for experiments).
	NoDamage bool
	// KeepAwake disables sleeping and the early exit once everything sleeps (for experiments).
	KeepAwake bool
	// ContactKeep (for experiments) keeps a collider pair in contact, so that Box2D touching
	// again raises no new collision event, until the gap between the colliders' skins exceeds
	// it. Zero is Unity's documented rule, the evaluator's: a pair is in contact while its
	// colliders are within the sum of their contact offsets (contact.go). Unity's contact
	// offset, 0.01, gives the reading of issue #31 that a rocking pair stays in contact across
	// one more offset; docs/science-birds.md has what each does to the agreement with Unity.
	ContactKeep float64
	// Variation, when non-zero, simulates one of the evaluator's trials as Unity would vary it
	// (see TrialConfig): the order in which the blocks enter the physics world is shuffled and
	// the stability window and image capture move by up to one step, seeded by Variation. Zero is
	// the canonical trial: level order, exact 10 s.
	Variation uint64
	// referenceSolver runs upstream Box2D's contact velocity loop instead of the fork's fast one
	// (third_party/box2d/PATCHES.md); tests use it to show both give bit-identical worlds.
	referenceSolver bool
	// pairAllPasses makes the fork solve contacts in pairs from the first velocity pass on
	// (normally only islands still changing after a few passes do); tests use it to show that
	// the paired loop, too, gives upstream's bits.
	pairAllPasses bool
	// box2dBegins damages at every Box2D BeginContact, the model before Unity's collision
	// events were modelled (contact.go); tests and docs compare the two.
	box2dBegins bool
}

// DefaultSimConfig is the Unity evaluator: 500 steps for stability, frame at 500, capture at 514.
func DefaultSimConfig() SimConfig {
	return SimConfig{StabilitySteps: stabilitySteps, ImageSteps: stabilitySteps, CaptureDelay: captureDelaySteps}
}

// Pose is a body's position (centre, world units) and angle (radians, counter-clockwise).
type Pose struct {
	X, Y, Angle float64
}

// BodyResult is what happened to one game object.
type BodyResult struct {
	Object Object
	Start  Pose // as loaded
	Last   Pose // at the end of the stability window, or where it was last seen before removal
	// Image is the pose at the capture; Visible is false for objects dead or removed by then.
	Image   Pose
	Visible bool
	// Framed is whether the object's collider takes part in the image framing.
	Framed bool
	Bounds AABB // collider bounds at framing time (when Framed)
	// Destroyed is true when damage (or leaving the world) removed the object within the
	// stability window; DiedAt is the step of death (0 = never).
	Destroyed bool
	DiedAt    int
	Moved     float64 // distance between Start and Last
}

// AABB is an axis-aligned box in world units.
type AABB struct{ MinX, MinY, MaxX, MaxY float64 }

// Result of one simulation. Score is the stability score of the final evaluator (1 − moving /
// total, single precision like Unity's), Legacy the pre-2023-03-23 metric (fraction of objects
// not destroyed). Both are 0 for a level without objects (Unity would produce NaN).
type Result struct {
	Bodies []BodyResult
	Total  int
	Moving int
	Score  float64
	Legacy float64
	// Steps is the number of steps simulated before everything slept (or the full count).
	Steps int
}

// ErrPhysics wraps a panic of the physics engine (Box2D asserts on degenerate shapes).
var ErrPhysics = errors.New("physics engine failure")

// Bounds for hostile levels. A converted level has at most 320 blocks with a few contacts each;
// hundreds of objects piled on one spot would make every step quadratic.
const (
	MaxSimObjects  = 1000
	MaxSimContacts = 4000
	maxCoordinate  = 1e4
	maxObjectSize  = 100
)

type simBody struct {
	index   int
	body    *box2d.B2Body
	fixture *box2d.B2Fixture
	pf      prefab
	life    float64
	dying   bool
	diedAt  int
	removed bool
	last    Pose
}

type contactEvent struct {
	a, b  *simBody // nil for static bodies
	speed float64
}

type contactRecorder struct {
	events []contactEvent
	// unity turns Box2D's contact events into Unity's collision events (nil: every
	// BeginContact is one).
	unity *unityContacts
}

func bodyOf(f *box2d.B2Fixture) *simBody {
	sb, _ := f.GetBody().GetUserData().(*simBody)
	return sb
}

// BeginContact captures the relative linear velocity of the two bodies when they start to
// touch, before the solver changes it — what Unity reports as Collision2D.relativeVelocity —
// when Unity raises OnCollisionEnter2D for it: once per contact of a collider pair
// (unityContacts).
func (r *contactRecorder) BeginContact(contact box2d.B2ContactInterface) {
	fa, fb := contact.GetFixtureA(), contact.GetFixtureB()
	if fa.IsSensor() || fb.IsSensor() {
		return
	}
	if r.unity != nil && !r.unity.begin(fa, fb) {
		return
	}
	va, vb := fa.GetBody().GetLinearVelocity(), fb.GetBody().GetLinearVelocity()
	dx, dy := va.X-vb.X, va.Y-vb.Y
	r.events = append(r.events, contactEvent{a: bodyOf(fa), b: bodyOf(fb), speed: math.Hypot(dx, dy)})
}

// EndContact lets unityContacts decide whether the pair is still in contact.
func (r *contactRecorder) EndContact(contact box2d.B2ContactInterface) {
	fa, fb := contact.GetFixtureA(), contact.GetFixtureB()
	if r.unity == nil || fa.IsSensor() || fb.IsSensor() {
		return
	}
	r.unity.end(fa, fb)
}
func (r *contactRecorder) PreSolve(box2d.B2ContactInterface, box2d.B2Manifold) {
}
func (r *contactRecorder) PostSolve(box2d.B2ContactInterface, *box2d.B2ContactImpulse) {}

// Simulate runs a level for the stability window and the image capture, deterministically.
// Engine panics (degenerate input) and runaway states are returned as ErrPhysics.
func Simulate(lv *Level, cfg SimConfig) (*Result, error) {
	return SimulateContext(context.Background(), lv, cfg)
}

// SimulateContext is Simulate that stops when the context is cancelled.
func SimulateContext(ctx context.Context, lv *Level, cfg SimConfig) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("%w: %v", ErrPhysics, p)
		}
	}()
	if len(lv.Objects) > MaxSimObjects {
		return nil, fmt.Errorf("%w: %d objects (limit %d)", ErrTooLarge, len(lv.Objects), MaxSimObjects)
	}
	for _, o := range lv.Objects {
		pf := objectPrefab(o)
		if math.Abs(o.X) > maxCoordinate || math.Abs(o.Y) > maxCoordinate || pf.w > maxObjectSize || pf.h > maxObjectSize || pf.w < 0.01 || pf.h < 0.01 {
			return nil, fmt.Errorf("%w: %s at (%g, %g) of size %g×%g is out of range", ErrPhysics, o.Kind, o.X, o.Y, pf.w, pf.h)
		}
	}
	// The bounding circles are generous, so allow more pairs than contacts.
	if n := overlappingPairs(lv, 3*MaxSimContacts); n > 3*MaxSimContacts {
		return nil, fmt.Errorf("%w: more than %d nearby pairs: too many overlapping objects", ErrPhysics, 3*MaxSimContacts)
	}
	if cfg.StabilitySteps <= 0 {
		cfg = DefaultSimConfig()
	}
	engineReady.Do(warmUpEngine)
	s := newSim(lv, cfg)
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	return s.result(), nil
}

type sim struct {
	cfg SimConfig
	lv  *Level
	// contactLimit is the most contacts a step may have (see contactLimitOf).
	contactLimit int
	world        *box2d.B2World
	rec          *contactRecorder
	bodies       []*simBody
	out          []BodyResult
	halfSpan     float64 // objects beyond ±LevelWidth/2 are destroyed
	step         int
	steps        int
}

// ByteArena/box2d fills its table of contact constructors lazily, on the first contact, without
// a lock; simulations run in parallel, so one contact is made once, alone, before any of them.
var engineReady sync.Once

func warmUpEngine() {
	lv := &Level{Width: 1, Objects: []Object{{Kind: KindBlock, Type: "SquareTiny", X: 0, Y: -3.39}}}
	s := newSim(lv, SimConfig{StabilitySteps: 1, ImageSteps: 1})
	s.world.Step(timeStep, 1, 1)
}

func f32(v float64) float64 { return float64(float32(v)) }

func newSim(lv *Level, cfg SimConfig) *sim {
	w := box2d.MakeB2World(box2d.MakeB2Vec2(0, unityGravity))
	s := &sim{cfg: cfg, lv: lv, world: &w, rec: &contactRecorder{}, contactLimit: contactLimitOf(lv)}
	if !cfg.box2dBegins {
		s.rec.unity = newUnityContacts(cfg.ContactKeep)
	}
	s.world.SetContactListener(s.rec)
	s.world.SetAllowSleeping(!cfg.KeepAwake)
	s.world.ReferenceSolver = cfg.referenceSolver
	s.world.PairAllPasses = cfg.pairAllPasses
	s.world.M_continuousPhysics = cfg.Continuous

	width := lv.Width
	if width < 1 {
		width = 1
	}
	width = min(width, 64)
	levelWidth := float64(float64(width) * levelOriginalSize)
	s.halfSpan = levelWidth / 2
	x := 0.0
	if width > 1 {
		x -= levelWidth / 4
	}
	for i := 0; i < width; i++ {
		s.addStatic(f32(x), groundCentreY, groundWidth, groundHeight, 0, defaultFriction)
		x += landscapeStep
	}

	s.out = make([]BodyResult, len(lv.Objects))
	for _, i := range creationOrder(len(lv.Objects), cfg.Variation) {
		o := lv.Objects[i]
		s.out[i].Object = o
		pf := objectPrefab(o)
		pose := Pose{X: f32(o.X), Y: f32(o.Y), Angle: f32(float64(o.Rotation*math.Pi) / 180)}
		s.out[i].Start = pose
		if pf.static {
			s.addStatic(pose.X, pose.Y, pf.w, pf.h, pose.Angle, defaultFriction)
			s.out[i].Last, s.out[i].Image = pose, pose
			continue
		}
		s.bodies = append(s.bodies, s.addDynamic(i, o, pf, pose))
	}
	return s
}

// contactLimitOf is the contact limit of a level's steps: twice its own count of nearby pairs,
// at least MaxSimContacts. Box2D keeps a contact for each pair of fixtures whose fattened
// bounding boxes overlap, so blocks that touch without overlapping make about as many contacts
// as they have neighbours, and a collapse rearranges them rather than multiplying them: a dense
// grid of 999 touching blocks needs some 4,000 and runs, while objects piled on one spot are
// refused before the first step (SimulateContext's pair bound), so every step stays bounded.
func contactLimitOf(lv *Level) int {
	return max(MaxSimContacts, 2*overlappingPairs(lv, 3*MaxSimContacts))
}

// overlappingPairs counts pairs of objects whose bounding boxes (grown a little) overlap, up to
// limit+1, with a sweep along x: a cheap bound on the contacts the first step would create.
func overlappingPairs(lv *Level, limit int) int {
	type span struct{ x0, x1, y0, y1 float64 }
	spans := make([]span, 0, len(lv.Objects))
	for _, o := range lv.Objects {
		pf := objectPrefab(o)
		r := math.Hypot(pf.w, pf.h)/2 + 0.05
		spans = append(spans, span{o.X - r, o.X + r, o.Y - r, o.Y + r})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].x0 < spans[j].x0 })
	n := 0
	for i := range spans {
		for j := i + 1; j < len(spans) && spans[j].x0 <= spans[i].x1; j++ {
			if spans[j].y0 <= spans[i].y1 && spans[i].y0 <= spans[j].y1 {
				if n++; n > limit {
					return n
				}
			}
		}
	}
	return n
}

func (s *sim) addStatic(x, y, w, h, angle, friction float64) {
	bd := box2d.MakeB2BodyDef()
	bd.Type = box2d.B2BodyType.B2_staticBody
	bd.Position = box2d.MakeB2Vec2(x, y)
	bd.Angle = angle
	body := s.world.CreateBody(&bd)
	shape := box2d.MakeB2PolygonShape()
	shape.SetAsBox(w/2, h/2)
	fd := box2d.MakeB2FixtureDef()
	fd.Shape = &shape
	fd.Friction = friction
	fd.Filter = box2d.MakeB2Filter()
	body.CreateFixtureFromDef(&fd)
}

func (s *sim) addDynamic(index int, o Object, pf prefab, pose Pose) *simBody {
	bd := box2d.MakeB2BodyDef()
	bd.Type = box2d.B2BodyType.B2_dynamicBody
	bd.Position = box2d.MakeB2Vec2(pose.X, pose.Y)
	bd.Angle = pose.Angle
	bd.LinearDamping = blockLinearDrag
	bd.AngularDamping = blockAngularDrag
	bd.GravityScale = pf.gravityScale
	bd.AllowSleep = !s.cfg.KeepAwake
	body := s.world.CreateBody(&bd)
	fd := box2d.MakeB2FixtureDef()
	switch pf.shape {
	case shapeCircle:
		c := box2d.MakeB2CircleShape()
		c.M_radius = math.Max(pf.w, pf.h) / 2
		fd.Shape = &c
	case shapePolygon:
		p := box2d.MakeB2PolygonShape()
		p.Set(pf.poly, len(pf.poly))
		fd.Shape = &p
	default:
		p := box2d.MakeB2PolygonShape()
		p.SetAsBox(pf.w/2, pf.h/2)
		fd.Shape = &p
	}
	fd.Density = blockDensity
	fd.Friction, _ = materialProps(o.Material)
	if o.Kind != KindBlock {
		fd.Friction = defaultFriction
	}
	fd.Filter = box2d.MakeB2Filter()
	sb := &simBody{index: index, body: body, pf: pf, life: pf.life, last: pose}
	body.SetUserData(sb)
	sb.fixture = body.CreateFixtureFromDef(&fd)
	return sb
}

func (s *sim) pose(sb *simBody) Pose {
	p := sb.body.GetPosition()
	return Pose{X: p.X, Y: p.Y, Angle: sb.body.GetAngle()}
}

func (s *sim) run(ctx context.Context) error {
	total := max(s.cfg.StabilitySteps, s.cfg.ImageSteps+s.cfg.CaptureDelay)
	for s.step = 1; s.step <= total; s.step++ {
		if s.step%50 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := s.stepOnce(); err != nil {
			return err
		}
		if !s.cfg.KeepAwake && s.frozen() {
			// Nothing can wake a sleeping world: every later snapshot equals this one.
			for step := s.step + 1; step <= total; step++ {
				s.snapshot(step)
			}
			return nil
		}
	}
	return nil
}

// stepOnce simulates step s.step (the caller advances the counter): one world step, damage,
// out-of-world and dead-body removal, the bodies' poses, and the step's snapshot. It is the one
// step that both sim.run and Animation.Advance take, so a viewer sees what the evaluator judges.
func (s *sim) stepOnce() error {
	s.rec.events = s.rec.events[:0]
	s.world.Step(timeStep, velocityIterations, positionIterations)
	if n := s.world.GetContactCount(); n > s.contactLimit {
		return fmt.Errorf("%w: %d contacts (limit %d for this level): too many overlapping objects", ErrPhysics, n, s.contactLimit)
	}
	s.steps = s.step
	if s.rec.unity != nil {
		s.rec.unity.step()
	}
	if !s.cfg.NoDamage {
		s.applyDamage()
	}
	s.checkOutOfWorld()
	s.removeDead()
	for _, sb := range s.bodies {
		if !sb.removed {
			sb.last = s.pose(sb)
			if math.IsNaN(sb.last.X) || math.IsNaN(sb.last.Y) || math.IsInf(sb.last.X, 0) || math.IsInf(sb.last.Y, 0) {
				return fmt.Errorf("%w: the simulation diverged", ErrPhysics)
			}
		}
	}
	s.snapshot(s.step)
	return nil
}

// frozen reports whether every dynamic body sleeps and no dead body is still pending removal.
func (s *sim) frozen() bool {
	for _, sb := range s.bodies {
		if sb.removed {
			continue
		}
		if sb.dying || sb.body.IsAwake() {
			return false
		}
	}
	return true
}

func (s *sim) applyDamage() {
	for _, e := range s.rec.events {
		for _, sb := range [2]*simBody{e.a, e.b} {
			if sb == nil || sb.dying {
				continue
			}
			// Science Birds keeps life in single precision.
			sb.life = float64(float32(sb.life) - float32(e.speed))
			if sb.life <= 0 {
				s.die(sb)
			}
		}
	}
}

// die is ABGameObject.Die: stop, become invisible, lose the collider (so the body falls through
// everything), and disappear 0.5 s later.
func (s *sim) die(sb *simBody) {
	sb.dying = true
	sb.diedAt = s.step
	sb.body.SetLinearVelocity(box2d.MakeB2Vec2(0, 0))
	sb.fixture.SetFilterData(box2d.B2Filter{CategoryBits: 0x0001, MaskBits: 0})
	sb.body.SetAwake(true)
}

func (s *sim) checkOutOfWorld() {
	for _, sb := range s.bodies {
		if sb.dying || sb.removed {
			continue
		}
		b := s.colliderBounds(sb)
		if b.MinX > s.halfSpan || b.MaxX < -s.halfSpan {
			s.die(sb)
		}
	}
}

func (s *sim) removeDead() {
	for _, sb := range s.bodies {
		if sb.dying && !sb.removed && s.step-sb.diedAt >= dyingSteps {
			sb.last = s.pose(sb)
			sb.removed = true
			s.world.DestroyBody(sb.body)
		}
	}
}

// colliderBounds is the collider's AABB without Box2D's skin, as Unity's Collider2D.bounds.
func (s *sim) colliderBounds(sb *simBody) AABB {
	p := s.pose(sb)
	c, sn := box2d.B2Cos(p.Angle), box2d.B2Sin(p.Angle)
	switch sb.pf.shape {
	case shapeCircle:
		r := math.Max(sb.pf.w, sb.pf.h) / 2
		return AABB{p.X - r, p.Y - r, p.X + r, p.Y + r}
	case shapePolygon:
		b := AABB{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
		for _, v := range sb.pf.poly {
			x, y := p.X+float64(c*v.X)-float64(sn*v.Y), p.Y+float64(sn*v.X)+float64(c*v.Y)
			b.MinX, b.MaxX = math.Min(b.MinX, x), math.Max(b.MaxX, x)
			b.MinY, b.MaxY = math.Min(b.MinY, y), math.Max(b.MaxY, y)
		}
		return b
	}
	hx := (float64(math.Abs(c)*sb.pf.w) + float64(math.Abs(sn)*sb.pf.h)) / 2
	hy := (float64(math.Abs(sn)*sb.pf.w) + float64(math.Abs(c)*sb.pf.h)) / 2
	return AABB{p.X - hx, p.Y - hy, p.X + hx, p.Y + hy}
}

func (s *sim) snapshot(step int) {
	if step == s.cfg.StabilitySteps {
		for _, sb := range s.bodies {
			r := &s.out[sb.index]
			r.Last = sb.last
			r.Destroyed = sb.removed
			if sb.dying {
				r.DiedAt = sb.diedAt
			}
		}
	}
	if step == s.cfg.ImageSteps {
		for _, sb := range s.bodies {
			r := &s.out[sb.index]
			// Only blocks frame the image, and a dead block's collider is disabled. (Unity would
			// report a disabled collider's bounds as an empty box at the origin, which would
			// stretch the frame; the archive has no such capture to confirm it, so it is left out.)
			r.Framed = !sb.dying && r.Object.Kind == KindBlock
			if r.Framed {
				r.Bounds = s.colliderBounds(sb)
			}
		}
	}
	if step == s.cfg.ImageSteps+s.cfg.CaptureDelay {
		for _, sb := range s.bodies {
			r := &s.out[sb.index]
			r.Visible = !sb.dying && r.Object.Kind == KindBlock
			if r.Visible {
				r.Image = s.pose(sb)
			}
		}
	}
}

func (s *sim) result() *Result {
	res := &Result{Bodies: s.out, Steps: s.steps}
	destroyed := 0
	for i := range res.Bodies {
		r := &res.Bodies[i]
		if objectPrefab(r.Object).static {
			r.Visible = false // platforms are not blocks: the evaluator neither frames nor draws them
			continue
		}
		res.Total++
		r.Moved = math.Hypot(f32(r.Last.X)-r.Start.X, f32(r.Last.Y)-r.Start.Y)
		if float32(r.Moved) >= MovementThreshold {
			res.Moving++
		}
		if r.Destroyed {
			destroyed++
		}
	}
	res.Score = StabilityScore(res.Total, res.Moving)
	res.Legacy = StabilityScore(res.Total, destroyed)
	return res
}

// StabilityScore is the evaluator's stability of a level with total blocks of which moving
// moved: the single-precision fraction of blocks that did not move, float32(total-moving) /
// float32(total), widened to float64 — exactly the number Unity writes (1 of 3 moving gives
// float32(2/3) = 0.6666666865348816, not 1 − float32(1/3)). A level without blocks scores 0
// (Unity would write NaN).
func StabilityScore(total, moving int) float64 {
	if total <= 0 {
		return 0
	}
	return float64(float32(total-moving) / float32(total))
}

package birds

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ByteArena/box2d"
)

// twoBoxes is a world with two 0.70 × 0.22 boxes, b resting on a with its collider gap cores
// apart (the skins overlap while gap < 2 × B2_polygonRadius = 0.02).
type twoBoxes struct {
	world  box2d.B2World
	fa, fb *box2d.B2Fixture
}

func newTwoBoxes() *twoBoxes {
	tb := &twoBoxes{world: box2d.MakeB2World(box2d.MakeB2Vec2(0, 0))}
	box := func(y float64) *box2d.B2Fixture {
		bd := box2d.MakeB2BodyDef()
		bd.Type = box2d.B2BodyType.B2_dynamicBody
		bd.Position = box2d.MakeB2Vec2(0, y)
		body := tb.world.CreateBody(&bd)
		shape := box2d.MakeB2PolygonShape()
		shape.SetAsBox(0.35, 0.11)
		fd := box2d.MakeB2FixtureDef()
		fd.Shape = &shape
		fd.Density = 1
		fd.Filter = box2d.MakeB2Filter()
		return body.CreateFixtureFromDef(&fd)
	}
	tb.fa, tb.fb = box(0), box(0.22)
	return tb
}

// at puts b with its bottom face gap above a's top face, tilted by angle.
func (tb *twoBoxes) at(gap, angle float64) {
	tb.fb.GetBody().SetTransform(box2d.MakeB2Vec2(0, 0.22+gap), angle)
}

// Unity's rule: one enter event per contact of a collider pair; the pair stays in contact while
// its colliders are within the sum of their contact offsets (the skins overlap), whatever
// Box2D's touching flag does; it enters again only after the skins parted.
func TestUnityContactRule(t *testing.T) {
	tb := newTwoBoxes()
	u := newUnityContacts(0)
	tb.at(0.015, 0)
	if !u.begin(tb.fa, tb.fb) {
		t.Fatal("the first touch of a pair is an enter event")
	}
	u.end(tb.fa, tb.fb) // Box2D's manifold emptied, but the skins still overlap
	if len(u.lapsed) != 1 {
		t.Fatalf("a pair within its offsets stays in contact (lapsed %d)", len(u.lapsed))
	}
	tb.at(0.019, 0.01)
	u.step()
	if u.begin(tb.fb, tb.fa) { // either fixture order names the same pair
		t.Fatal("touching again while the skins overlapped raised a second enter event")
	}
	if u.repeats != 1 || len(u.lapsed) != 0 {
		t.Fatalf("repeats %d, lapsed %d", u.repeats, len(u.lapsed))
	}
	u.end(tb.fa, tb.fb)
	tb.at(0.0201, 0) // the skins part by 0.0001
	u.step()
	if len(u.pairs) != 0 {
		t.Fatal("a pair whose skins parted is still in contact")
	}
	if !u.begin(tb.fa, tb.fb) {
		t.Fatal("touching after the skins parted is a new enter event")
	}
	// Parted already when Box2D ends the contact.
	tb.at(0.05, 0)
	u.end(tb.fa, tb.fb)
	if len(u.pairs) != 0 || len(u.lapsed) != 0 {
		t.Fatal("a pair apart at its EndContact is still in contact")
	}

	// A dead block's collider is disabled: its pairs leave contact at once.
	u.begin(tb.fa, tb.fb)
	tb.at(0.01, 0)
	u.end(tb.fa, tb.fb)
	tb.fb.GetBody().SetUserData(&simBody{dying: true})
	u.step()
	if len(u.pairs) != 0 {
		t.Fatal("a dead block's pair is still in contact")
	}
	tb.fb.GetBody().SetUserData(nil)

	// ContactKeep widens the band: 0.01 keeps the pair until the skins are 0.01 apart.
	u = newUnityContacts(0.01)
	u.begin(tb.fa, tb.fb)
	tb.at(0.029, 0)
	u.end(tb.fa, tb.fb)
	if u.begin(tb.fa, tb.fb) {
		t.Fatal("with ContactKeep 0.01 a gap of 0.009 between the skins is still contact")
	}
	u.end(tb.fa, tb.fb)
	tb.at(0.031, 0)
	u.step()
	if !u.begin(tb.fa, tb.fb) {
		t.Fatal("with ContactKeep 0.01 a gap of 0.011 between the skins ends the contact")
	}
}

// skinGap is the distance between two colliders' skins (0 while they overlap).
func skinGap(fa, fb *box2d.B2Fixture) float64 {
	var ca, cb core
	a, ra := ca.of(fa)
	b, rb := cb.of(fb)
	d2, overlap := coreDistance2(a, b)
	if overlap {
		return 0
	}
	return max(0, math.Sqrt(d2)-ra-rb)
}

// rebeginProbe wraps a simulation's contact listener and records, for every BeginContact of a
// pair that had touched before, how long the pair was apart and the largest gap between the
// skins meanwhile.
type rebeginProbe struct {
	*contactRecorder
	s       *sim
	endedAt map[pairKey]int
	widest  map[pairKey]float64
	// rebegins, of them after one step apart, and the widest gap over those one-step lapses.
	rebegins, oneStep int
	oneStepWidest     float64
}

func (p *rebeginProbe) key(c box2d.B2ContactInterface) pairKey {
	fa, fb := c.GetFixtureA(), c.GetFixtureB()
	if _, ok := p.endedAt[pairKey{fb, fa}]; ok {
		return pairKey{fb, fa}
	}
	return pairKey{fa, fb}
}

func (p *rebeginProbe) BeginContact(c box2d.B2ContactInterface) {
	k := p.key(c)
	if end, ok := p.endedAt[k]; ok {
		p.rebegins++
		if p.s.step-end == 1 {
			p.oneStep++
			p.oneStepWidest = math.Max(p.oneStepWidest, p.widest[k])
		}
		delete(p.endedAt, k)
		delete(p.widest, k)
	}
	p.contactRecorder.BeginContact(c)
}

func (p *rebeginProbe) EndContact(c box2d.B2ContactInterface) {
	k := p.key(c)
	p.endedAt[k] = p.s.step
	p.widest[k] = p.gap(k)
	p.contactRecorder.EndContact(c)
}

func (p *rebeginProbe) gap(k pairKey) float64 {
	for _, f := range k {
		if sb := bodyOf(f); sb != nil && (sb.dying || sb.removed) {
			return math.Inf(1)
		}
	}
	return skinGap(k[0], k[1])
}

// afterStep widens the recorded gaps of the pairs apart, on the positions the next narrow
// phase sees.
func (p *rebeginProbe) afterStep() {
	for k := range p.endedAt {
		p.widest[k] = math.Max(p.widest[k], p.gap(k))
	}
}

// sameResult reports where two results of one level differ, bit for bit (Steps aside: a
// stepped simulation does not stop early once everything sleeps).
func sameResult(a, b *Result) string {
	if a.Moving != b.Moving || a.Legacy != b.Legacy || a.Score != b.Score {
		return fmt.Sprintf("moving %d/%d legacy %v/%v", a.Moving, b.Moving, a.Legacy, b.Legacy)
	}
	for i := range a.Bodies {
		x, y := a.Bodies[i], b.Bodies[i]
		if x.Last != y.Last || x.Image != y.Image || x.Destroyed != y.Destroyed || x.Visible != y.Visible || x.Bounds != y.Bounds {
			return fmt.Sprintf("body %d differs", i)
		}
	}
	return ""
}

// On every shared Unity run, Unity's collision events are Box2D's BeginContacts: for the
// competition's box colliders Box2D never empties a manifold while the skins overlap, so no
// BeginContact comes while a pair is still in contact, and the results are bit for bit those
// of damage at every BeginContact. The repeated BeginContacts of one pair (a rocking or
// sliding block) all follow a real parting of the skins — often by a hair, for one step.
func TestCollisionEventsOnSharedRuns(t *testing.T) {
	repeats, rebegins, oneStep, widest := 0, 0, 0, 0.0
	runs := sharedUnityRuns(t)
	for _, r := range runs {
		lv := readLevelFile(t, r.level)
		s := newSim(lv, DefaultSimConfig())
		probe := &rebeginProbe{contactRecorder: s.rec, s: s, endedAt: map[pairKey]int{}, widest: map[pairKey]float64{}}
		s.world.SetContactListener(probe)
		for s.step = 1; s.step <= stabilitySteps+captureDelaySteps; s.step++ {
			if err := s.stepOnce(); err != nil {
				t.Fatal(err)
			}
			probe.afterStep()
		}
		repeats += s.rec.unity.repeats
		rebegins, oneStep, widest = rebegins+probe.rebegins, oneStep+probe.oneStep, math.Max(widest, probe.oneStepWidest)

		old := DefaultSimConfig()
		old.box2dBegins = true
		before, err := Simulate(lv, old)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameResult(s.result(), before); d != "" {
			t.Errorf("%s: Unity's events change the result: %s", r.name, d)
		}
	}
	t.Logf("%d runs: %d BeginContacts of a pair still in contact; %d repeated BeginContacts of a pair after its skins parted, %d of them after one step apart (skins at most %.4f apart)",
		len(runs), repeats, rebegins, oneStep, widest)
	if repeats != 0 {
		t.Errorf("%d BeginContacts came while a pair was in contact (the measured figure was 0; docs/science-birds.md)", repeats)
	}
	if rebegins == 0 || oneStep == 0 {
		t.Error("the archive's rocking blocks raise repeated BeginContacts; the probe saw none")
	}
}

// The reading of issue #31 that Unity keeps a rocking pair in contact across one more contact
// offset (ContactKeep 0.01) is measured here against the shared Unity runs and the published
// template trials. The recorded figures are what it gives; the evaluator does not use it.
func TestContactKeepOneOffset(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the shared runs and the template levels again")
	}
	keep := DefaultSimConfig()
	keep.ContactKeep = 0.01
	runs := sharedUnityRuns(t)
	archive := measureAgreement(t, runs[:105], keep)
	pooled := measureAgreement(t, runs[105:], keep).plus(archive)
	base, _ := measureDefaultAgreement(t)
	for _, m := range pooled.legacyMisses {
		t.Log(m)
	}
	for _, m := range pooled.imageOutliers {
		t.Log(m)
	}
	agree, total := templateAgreement(t, keep, func(string, ...any) {})
	t.Logf("ContactKeep 0.01, archive: %s; %s", archive.legacySummary(), archive.imageSummary())
	t.Logf("ContactKeep 0.01, pooled:  %s; %s", pooled.legacySummary(), pooled.imageSummary())
	t.Logf("ContactKeep 0.01: template levels %d of %d; archive legacy %+d runs, mean IoU %+.4f against the evaluator's rule",
		agree, total, archive.legacy-base.legacy, archive.meanIoU()-base.meanIoU())
	if archive.legacy != 102 || pooled.legacy != 106 || math.Abs(archive.meanIoU()-0.9462) > 5e-5 || agree != 36 {
		t.Errorf("the recorded figures of ContactKeep 0.01 changed (archive 102, pooled 106, mean IoU 0.9462, templates 36): update docs/science-birds.md")
	}
}

// coreDistance2 agrees with Box2D's GJK (B2Distance without radii) on random pairs of boxes
// and circles: overlapping or not, and the distance within 1e-9.
func TestCoreDistanceIsGJKs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	world := box2d.MakeB2World(box2d.MakeB2Vec2(0, 0))
	fixture := func(circle bool) *box2d.B2Fixture {
		bd := box2d.MakeB2BodyDef()
		bd.Position = box2d.MakeB2Vec2(rng.Float64()*2-1, rng.Float64()*2-1)
		bd.Angle = rng.Float64() * 2 * math.Pi
		fd := box2d.MakeB2FixtureDef()
		if circle {
			c := box2d.MakeB2CircleShape()
			c.M_radius = 0.1 + rng.Float64()*0.3
			fd.Shape = &c
		} else {
			p := box2d.MakeB2PolygonShape()
			p.SetAsBox(0.05+rng.Float64()*0.5, 0.05+rng.Float64()*0.5)
			fd.Shape = &p
		}
		return world.CreateBody(&bd).CreateFixtureFromDef(&fd)
	}
	overlaps := 0
	for i := 0; i < 2000; i++ {
		fa, fb := fixture(i%7 == 0), fixture(i%5 == 0)
		var ca, cb core
		a, _ := ca.of(fa)
		b, _ := cb.of(fb)
		d2, overlap := coreDistance2(a, b)
		in := box2d.MakeB2DistanceInput()
		in.ProxyA.Set(fa.GetShape(), 0)
		in.ProxyB.Set(fb.GetShape(), 0)
		in.TransformA, in.TransformB = fa.GetBody().GetTransform(), fb.GetBody().GetTransform()
		var cache box2d.B2SimplexCache
		var out box2d.B2DistanceOutput
		box2d.B2Distance(&out, &cache, &in)
		got := 0.0
		if !overlap {
			got = math.Sqrt(d2)
		} else {
			overlaps++
		}
		if math.Abs(got-out.Distance) > 1e-9 {
			t.Fatalf("pair %d: distance %v (overlap %v), GJK %v", i, got, overlap, out.Distance)
		}
		world.DestroyBody(fa.GetBody())
		world.DestroyBody(fb.GetBody())
	}
	if overlaps == 0 || overlaps == 2000 {
		t.Fatalf("%d of 2000 pairs overlap: the sample does not test both cases", overlaps)
	}
}

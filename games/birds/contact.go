package birds

import (
	"math"

	"github.com/ByteArena/box2d"
)

// Unity's collision events, modelled on top of Box2D's.
//
// Science Birds damages a block in OnCollisionEnter2D. Unity documents when that event comes:
// colliders "whose distance is less than the sum of their contactOffset values will generate
// contacts" (Physics2D.defaultContactOffset; the default offset, 0.01, is Box2D's polygon skin
// B2_polygonRadius, spec §6.3), and "once a given collider pair has overlapped (collided),
// contacts are immediately generated and an OnCollisionEnter2D event is sent. While the
// collider pair is still active, the distance between the colliders can be greater than zero"
// (ContactPoint2D.separation). So a collider pair has one contact, entered once, for as long
// as the two colliders stay within the sum of their offsets, i.e. while their skins overlap.
//
// Box2D's BeginContact is a different event: it fires when a contact's manifold gains its
// first point, and the manifold keeps only clipped points within the skins; a pair could lose
// its last point while the skins still overlap and gain one again later. The model: a pair
// enters contact at Box2D's first BeginContact (the damage event); it stays in contact while
// Box2D says touching, and while Box2D says not touching as long as the distance between
// the two colliders, skins included, is at most SimConfig.ContactKeep (0: the skins overlap).
// It leaves contact when that distance is larger, when Box2D destroys the contact (the
// bounding boxes parted) or when a collider is disabled (a dead block). A BeginContact of a
// pair still in contact raises no event. Touching implies overlapping skins, so only pairs
// Box2D calls not touching ("lapsed") are measured — at the EndContact itself, on the
// positions the narrow phase judged, and after every later step, on the positions the next
// narrow phase will judge.
//
// Measured (contact_test.go, docs/science-birds.md): for the box colliders of the competition
// the manifold never empties while the skins overlap, so with ContactKeep 0 every Box2D
// BeginContact is a Unity enter event and nothing changes; a repeated BeginContact of one
// pair always follows a real parting of the skins (by 0.0000–0.002 in one-step flickers).

// pairKey names one collider pair; every collider here is one fixture.
type pairKey [2]*box2d.B2Fixture

// find is the pair of two fixtures in either order, and its key as stored (or as given).
func (u *unityContacts) find(fa, fb *box2d.B2Fixture) (pairKey, *unityPair) {
	k := pairKey{fa, fb}
	if p := u.pairs[k]; p != nil {
		return k, p
	}
	if p := u.pairs[pairKey{fb, fa}]; p != nil {
		return pairKey{fb, fa}, p
	}
	return k, nil
}

// unityPair is a collider pair in contact in Unity's sense.
type unityPair struct {
	key      pairKey
	touching bool // Box2D's manifold has a point
	lapsed   int  // index in unityContacts.lapsed, or -1
}

// unityContacts tracks which collider pairs are in contact and turns Box2D's BeginContact
// into Unity's OnCollisionEnter2D.
type unityContacts struct {
	pairs  map[pairKey]*unityPair
	lapsed []*unityPair
	// keep is SimConfig.ContactKeep: how far apart the skins may be for a pair to stay in contact.
	keep float64
	// repeats counts the BeginContacts that raised no event (the pair was still in contact).
	repeats int
	a, b    core // scratch for apart
}

func newUnityContacts(keep float64) *unityContacts {
	return &unityContacts{pairs: map[pairKey]*unityPair{}, keep: keep}
}

// begin is Box2D's BeginContact of a pair; it reports whether Unity raises OnCollisionEnter2D.
func (u *unityContacts) begin(fa, fb *box2d.B2Fixture) bool {
	k, p := u.find(fa, fb)
	if p != nil {
		p.touching = true
		u.unlapse(p)
		u.repeats++
		return false
	}
	u.pairs[k] = &unityPair{key: k, touching: true, lapsed: -1}
	return true
}

// end is Box2D's EndContact of a pair (the manifold emptied, or the contact was destroyed):
// the pair stays in contact only while its colliders are enabled and within their offsets.
func (u *unityContacts) end(fa, fb *box2d.B2Fixture) {
	k, p := u.find(fa, fb)
	if p == nil {
		return
	}
	p.touching = false
	if u.apart(k) {
		delete(u.pairs, k)
		return
	}
	p.lapsed = len(u.lapsed)
	u.lapsed = append(u.lapsed, p)
}

// step ends the contact of every lapsed pair whose colliders have parted; it runs after each
// world step, on the positions the next step's narrow phase will see.
func (u *unityContacts) step() {
	for i := 0; i < len(u.lapsed); {
		p := u.lapsed[i]
		if !u.apart(p.key) {
			i++
			continue
		}
		u.unlapse(p)
		delete(u.pairs, p.key)
	}
}

func (u *unityContacts) unlapse(p *unityPair) {
	i := p.lapsed
	if i < 0 {
		return
	}
	last := u.lapsed[len(u.lapsed)-1]
	u.lapsed[i], last.lapsed = last, i
	u.lapsed = u.lapsed[:len(u.lapsed)-1]
	p.lapsed = -1
}

// apart reports whether a pair is out of contact: a collider is disabled (a dead block) or
// the distance between the colliders, skins included, is more than keep.
func (u *unityContacts) apart(k pairKey) bool {
	for _, f := range k {
		if sb := bodyOf(f); sb != nil && (sb.dying || sb.removed) {
			return true
		}
	}
	a, ra := u.a.of(k[0])
	b, rb := u.b.of(k[1])
	r := ra + rb + u.keep
	d2, overlap := coreDistance2(a, b)
	return !overlap && d2 > float64(r*r)
}

// core is a collider's core in world coordinates: a convex polygon in counter-clockwise
// order, or one point (a circle's centre).
type core struct {
	v [box2d.B2_maxPolygonVertices]box2d.B2Vec2
	n int
}

// of fills c with a fixture's core and returns its skin (the polygon radius) or the circle's
// radius.
func (c *core) of(f *box2d.B2Fixture) (*core, float64) {
	xf := f.GetBody().GetTransform()
	switch sh := f.GetShape().(type) {
	case *box2d.B2PolygonShape:
		c.n = sh.M_count
		for i := 0; i < sh.M_count; i++ {
			c.v[i] = box2d.B2TransformVec2Mul(xf, sh.M_vertices[i])
		}
		return c, sh.M_radius
	case *box2d.B2CircleShape:
		c.n = 1
		c.v[0] = box2d.B2TransformVec2Mul(xf, sh.M_p)
		return c, sh.M_radius
	}
	c.n = 0
	return c, math.Inf(1) // no other shapes are made; never apart
}

// coreDistance2 is the squared distance between two cores, or overlap when they intersect.
// Box2D's GJK (B2Distance) would give the same, but it counts its calls in package globals,
// which parallel simulations would race on. Two disjoint convex polygons are closest at a
// vertex of one and an edge of the other; the separating-axis test over both polygons' edges
// decides whether they are disjoint. Every product is rounded explicitly (no FMA fusion).
func coreDistance2(a, b *core) (d2 float64, overlap bool) {
	if a.n == 0 || b.n == 0 {
		return 0, true
	}
	if a.n == 1 && b.n == 1 {
		dx, dy := a.v[0].X-b.v[0].X, a.v[0].Y-b.v[0].Y
		return float64(dx*dx) + float64(dy*dy), false
	}
	if !separated(a, b) && !separated(b, a) {
		return 0, true
	}
	d2 = math.Inf(1)
	for _, pair := range [2][2]*core{{a, b}, {b, a}} {
		p, poly := pair[0], pair[1]
		if poly.n < 2 {
			continue
		}
		for i := 0; i < p.n; i++ {
			for j := 0; j < poly.n; j++ {
				d2 = math.Min(d2, segmentDistance2(p.v[i], poly.v[j], poly.v[(j+1)%poly.n]))
			}
		}
	}
	return d2, false
}

// separated reports whether an edge of polygon a has every point of b strictly outside it (a
// point core has no edges).
func separated(a, b *core) bool {
	if a.n < 3 {
		return false
	}
	for i := 0; i < a.n; i++ {
		p, q := a.v[i], a.v[(i+1)%a.n]
		nx, ny := q.Y-p.Y, p.X-q.X // outward normal of a counter-clockwise edge
		out := true
		for j := 0; j < b.n && out; j++ {
			out = float64(nx*(b.v[j].X-p.X))+float64(ny*(b.v[j].Y-p.Y)) > 0
		}
		if out {
			return true
		}
	}
	return false
}

// segmentDistance2 is the squared distance from p to the segment ab.
func segmentDistance2(p, a, b box2d.B2Vec2) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	px, py := p.X-a.X, p.Y-a.Y
	t := 0.0
	if l2 := float64(dx*dx) + float64(dy*dy); l2 > 0 {
		t = min(max((float64(px*dx)+float64(py*dy))/l2, 0), 1)
	}
	ex, ey := px-float64(t*dx), py-float64(t*dy)
	return float64(ex*ex) + float64(ey*ey)
}

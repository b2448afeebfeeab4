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
// Box2D says touching, and while Box2D says not touching as long as the GJK distance between
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
	input   box2d.B2DistanceInput
	cache   box2d.B2SimplexCache
	output  box2d.B2DistanceOutput
}

func newUnityContacts(keep float64) *unityContacts {
	return &unityContacts{pairs: map[pairKey]*unityPair{}, input: box2d.MakeB2DistanceInput(), keep: keep}
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
// the distance between the colliders, skins included, is positive.
func (u *unityContacts) apart(k pairKey) bool {
	for _, f := range k {
		if sb := bodyOf(f); sb != nil && (sb.dying || sb.removed) {
			return true
		}
	}
	u.input.ProxyA.Set(k[0].GetShape(), 0)
	u.input.ProxyB.Set(k[1].GetShape(), 0)
	u.input.TransformA = k[0].GetBody().GetTransform()
	u.input.TransformB = k[1].GetBody().GetTransform()
	u.input.UseRadii = true
	u.cache.Count = 0
	box2d.B2Distance(&u.output, &u.cache, &u.input)
	return u.output.Distance > u.keep || math.IsNaN(u.output.Distance)
}

package box2d

// PCG Workbench local change (see third_party/box2d/PATCHES.md): a faster contact velocity
// solver that computes bit for bit what SolveVelocityConstraints computes.
//
// Why it is faster:
//   - B2FloatClamp and math.Max/math.Min are not inlined (math.Max is an assembly routine on
//     amd64), and they were a third of the solver's time; maxf/minf below are inlinable and
//     return exactly what math.Max/math.Min return for every input (NaN, ±Inf, ±0).
//   - The arithmetic is written on scalars, in the same order and with the same operations as
//     the B2Vec2 helpers, so every intermediate rounds exactly as before.
//   - It reports whether the pass changed anything. One pass is a pure function of the body
//     velocities and the accumulated impulses (everything else in the constraints is fixed
//     during the velocity iterations), so once a pass leaves every one of them bitwise
//     unchanged, all later passes would too: the remaining iterations can be skipped without
//     changing a single bit of the result.

import "math"

// maxf is math.Max, inlinable.
func maxf(x, y float64) float64 {
	if x > y {
		return x
	}
	if y > x {
		return y
	}
	if x != x || y != y {
		return math.NaN()
	}
	if x == 0 {
		// Max(+0, -0) = +0; the sign bit survives only when both are -0.
		return math.Float64frombits(math.Float64bits(x) & math.Float64bits(y))
	}
	return x
}

// minf is math.Min, inlinable.
func minf(x, y float64) float64 {
	if x < y {
		return x
	}
	if y < x {
		return y
	}
	if x != x || y != y {
		return math.NaN()
	}
	if x == 0 {
		// Min(+0, -0) = -0; the sign bit survives when either is -0.
		return math.Float64frombits(math.Float64bits(x) | math.Float64bits(y))
	}
	return x
}

// validf is B2IsValid, inlinable.
func validf(x float64) bool { return x-x == 0 }

func same(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

func positiveZero(x float64) bool { return math.Float64bits(x) == 0 }

// solveVelocityConstraintsFast is one pass of SolveVelocityConstraints (with the block solver
// on, as upstream) that returns whether any velocity or accumulated impulse changed.
func (solver *B2ContactSolver) solveVelocityConstraintsFast() bool {
	changed := false
	vel := solver.M_velocities
	for i := 0; i < solver.M_count; i++ {
		vc := &solver.M_velocityConstraints[i]

		mA, iA := vc.InvMassA, vc.InvIA
		mB, iB := vc.InvMassB, vc.InvIB
		pointCount := vc.PointCount

		velA, velB := &vel[vc.IndexA], &vel[vc.IndexB]
		vAX0, vAY0, wA0 := velA.V.X, velA.V.Y, velA.W
		vBX0, vBY0, wB0 := velB.V.X, velB.V.Y, velB.W
		vAX, vAY, wA := vAX0, vAY0, wA0
		vBX, vBY, wB := vBX0, vBY0, wB0

		nX, nY := vc.Normal.X, vc.Normal.Y
		// B2Vec2CrossVectorScalar(normal, 1.0) = (1.0*n.Y, -1.0*n.X), both exact.
		tX, tY := float64(1.0*nY), float64(-1.0*nX)
		friction := vc.Friction

		B2Assert(pointCount == 1 || pointCount == 2)

		// Tangent constraints first: non-penetration is more important than friction.
		for j := 0; j < pointCount; j++ {
			vcp := &vc.Points[j]
			rAX, rAY := vcp.RA.X, vcp.RA.Y
			rBX, rBY := vcp.RB.X, vcp.RB.Y

			// dv = vB + ((wB × rB − vA) − wA × rA)
			dvX := vBX + ((float64(-wB*rBY) - vAX) - float64(-wA*rAY))
			dvY := vBY + ((float64(wB*rBX) - vAY) - float64(wA*rAX))

			vt := float64(dvX*tX) + float64(dvY*tY)
			if ts := vc.TangentSpeed; !positiveZero(ts) {
				// x − (+0) is x for every x (−0 and NaN included), so the subtraction is
				// only done for the conveyor-belt contacts that have a tangent speed.
				vt -= ts
			}
			lambda := float64(vcp.TangentMass * (-vt))

			maxFriction := float64(friction * vcp.NormalImpulse)
			old := vcp.TangentImpulse
			// B2FloatClamp(old+lambda, -maxFriction, maxFriction), written out so it
			// inlines. Each bound is applied only when it is finite; −maxFriction is finite
			// exactly when maxFriction is, so one test serves both.
			newImpulse := old + lambda
			if validf(maxFriction) {
				newImpulse = maxf(minf(newImpulse, maxFriction), -maxFriction)
			}
			lambda = newImpulse - old
			if !same(newImpulse, old) {
				changed = true
			}
			vcp.TangentImpulse = newImpulse

			pX, pY := float64(lambda*tX), float64(lambda*tY)
			vAX -= float64(mA * pX)
			vAY -= float64(mA * pY)
			wA -= float64(iA * (float64(rAX*pY) - float64(rAY*pX)))
			vBX += float64(mB * pX)
			vBY += float64(mB * pY)
			wB += float64(iB * (float64(rBX*pY) - float64(rBY*pX)))
		}

		if pointCount == 1 || !g_blockSolve {
			for j := 0; j < pointCount; j++ {
				vcp := &vc.Points[j]
				rAX, rAY := vcp.RA.X, vcp.RA.Y
				rBX, rBY := vcp.RB.X, vcp.RB.Y

				dvX := vBX + ((float64(-wB*rBY) - vAX) - float64(-wA*rAY))
				dvY := vBY + ((float64(wB*rBX) - vAY) - float64(wA*rAX))

				vn := float64(dvX*nX) + float64(dvY*nY)
				lambda := float64(-vcp.NormalMass * (vn - vcp.VelocityBias))

				old := vcp.NormalImpulse
				newImpulse := maxf(old+lambda, 0.0)
				lambda = newImpulse - old
				if !same(newImpulse, old) {
					changed = true
				}
				vcp.NormalImpulse = newImpulse

				pX, pY := float64(lambda*nX), float64(lambda*nY)
				vAX -= float64(mA * pX)
				vAY -= float64(mA * pY)
				wA -= float64(iA * (float64(rAX*pY) - float64(rAY*pX)))
				vBX += float64(mB * pX)
				vBY += float64(mB * pY)
				wB += float64(iB * (float64(rBX*pY) - float64(rBY*pX)))
			}
		} else {
			// The block solver of upstream (total enumeration of the 2×2 LCP), same cases in
			// the same order.
			cp1, cp2 := &vc.Points[0], &vc.Points[1]
			aX, aY := cp1.NormalImpulse, cp2.NormalImpulse
			B2Assert(aX >= 0.0 && aY >= 0.0)

			r1AX, r1AY, r1BX, r1BY := cp1.RA.X, cp1.RA.Y, cp1.RB.X, cp1.RB.Y
			r2AX, r2AY, r2BX, r2BY := cp2.RA.X, cp2.RA.Y, cp2.RB.X, cp2.RB.Y

			dv1X := vBX + ((float64(-wB*r1BY) - vAX) - float64(-wA*r1AY))
			dv1Y := vBY + ((float64(wB*r1BX) - vAY) - float64(wA*r1AX))
			dv2X := vBX + ((float64(-wB*r2BY) - vAX) - float64(-wA*r2AY))
			dv2Y := vBY + ((float64(wB*r2BX) - vAY) - float64(wA*r2AX))

			vn1 := float64(dv1X*nX) + float64(dv1Y*nY)
			vn2 := float64(dv2X*nX) + float64(dv2Y*nY)

			bX := vn1 - cp1.VelocityBias
			bY := vn2 - cp2.VelocityBias
			K := &vc.K
			bX -= float64(K.Ex.X*aX) + float64(K.Ey.X*aY)
			bY -= float64(K.Ex.Y*aX) + float64(K.Ey.Y*aY)

			var xX, xY float64
			solved := true
			NM := &vc.NormalMass
			xX = -(float64(NM.Ex.X*bX) + float64(NM.Ey.X*bY))
			xY = -(float64(NM.Ex.Y*bX) + float64(NM.Ey.Y*bY))
			if !(xX >= 0.0 && xY >= 0.0) {
				xX = float64(-cp1.NormalMass * bX)
				xY = 0.0
				vn2 = float64(K.Ex.Y*xX) + bY
				if !(xX >= 0.0 && vn2 >= 0.0) {
					xX = 0.0
					xY = float64(-cp2.NormalMass * bY)
					vn1 = float64(K.Ey.X*xY) + bX
					if !(xY >= 0.0 && vn1 >= 0.0) {
						xX, xY = 0.0, 0.0
						if !(bX >= 0.0 && bY >= 0.0) {
							// No solution: upstream gives up and changes nothing.
							solved = false
						}
					}
				}
			}
			if solved {
				dX, dY := xX-aX, xY-aY
				p1X, p1Y := float64(dX*nX), float64(dX*nY)
				p2X, p2Y := float64(dY*nX), float64(dY*nY)
				sX, sY := p1X+p2X, p1Y+p2Y
				vAX -= float64(mA * sX)
				vAY -= float64(mA * sY)
				wA -= float64(iA * ((float64(r1AX*p1Y) - float64(r1AY*p1X)) + (float64(r2AX*p2Y) - float64(r2AY*p2X))))
				vBX += float64(mB * sX)
				vBY += float64(mB * sY)
				wB += float64(iB * ((float64(r1BX*p1Y) - float64(r1BY*p1X)) + (float64(r2BX*p2Y) - float64(r2BY*p2X))))
				if !same(xX, aX) || !same(xY, aY) {
					changed = true
				}
				cp1.NormalImpulse = xX
				cp2.NormalImpulse = xY
			}
		}

		if !changed && !(same(vAX, vAX0) && same(vAY, vAY0) && same(wA, wA0) && same(vBX, vBX0) && same(vBY, vBY0) && same(wB, wB0)) {
			changed = true
		}
		velA.V.X, velA.V.Y, velA.W = vAX, vAY, wA
		velB.V.X, velB.V.Y, velB.W = vBX, vBY, wB
	}
	return changed
}

// pairedAfterPasses is the number of passes B2Island.Solve runs with
// solveVelocityConstraintsFast before it switches to solveVelocityConstraintsPaired. Most
// islands of a level reach their fixed point within a few passes, where ordering the contacts
// would cost more than it saves; the islands that run long (a collapsing pile runs all 100)
// are where pairing pays. Only speed depends on it: both passes compute the same bits.
const pairedAfterPasses = 8

// solveVelocityConstraintsPaired is solveVelocityConstraintsFast over the contacts in the given
// order (see wavefrontOrder). Neighbouring entries of the order that share no body are solved
// as a pair, stage by stage (first tangent point, second tangent point, normal), so that the
// processor runs two independent dependency chains side by side; each contact still goes
// through exactly upstream's operations in upstream's order. The stages are calls, which costs
// a little when there is nothing to pair, so B2Island.Solve uses it only for islands that are
// still changing after a few passes (see pairedAfterPasses).
func (solver *B2ContactSolver) solveVelocityConstraintsPaired(order []int32) bool {
	changed := false
	vel := solver.M_velocities
	vcs := solver.M_velocityConstraints
	var c, d contactSolve
	for k := 0; k < len(order); {
		c.load(vel, &vcs[order[k]])
		if k+1 < len(order) {
			e := &vcs[order[k+1]]
			if e.IndexA != c.vc.IndexA && e.IndexA != c.vc.IndexB && e.IndexB != c.vc.IndexA && e.IndexB != c.vc.IndexB {
				d.load(vel, e)
				c.tangent(0)
				d.tangent(0)
				if c.vc.PointCount == 2 {
					c.tangent(1)
				}
				if d.vc.PointCount == 2 {
					d.tangent(1)
				}
				c.normal()
				d.normal()
				if c.store(vel) {
					changed = true
				}
				if d.store(vel) {
					changed = true
				}
				k += 2
				continue
			}
		}
		c.tangent(0)
		if c.vc.PointCount == 2 {
			c.tangent(1)
		}
		c.normal()
		if c.store(vel) {
			changed = true
		}
		k++
	}
	return changed
}

// contactSolve is one contact's velocity solve in progress: the velocities of its two bodies
// (local copies, written back by store) and whether an impulse changed.
type contactSolve struct {
	vc                         *B2ContactVelocityConstraint
	vAX, vAY, wA, vBX, vBY, wB float64
	changed                    bool
}

func (s *contactSolve) load(vel []B2Velocity, vc *B2ContactVelocityConstraint) {
	B2Assert(vc.PointCount == 1 || vc.PointCount == 2)
	s.vc = vc
	a, b := &vel[vc.IndexA], &vel[vc.IndexB]
	s.vAX, s.vAY, s.wA = a.V.X, a.V.Y, a.W
	s.vBX, s.vBY, s.wB = b.V.X, b.V.Y, b.W
	s.changed = false
}

// store writes the velocities back and reports whether the solve changed any velocity or
// impulse, bitwise.
func (s *contactSolve) store(vel []B2Velocity) bool {
	a, b := &vel[s.vc.IndexA], &vel[s.vc.IndexB]
	changed := s.changed || !(same(s.vAX, a.V.X) && same(s.vAY, a.V.Y) && same(s.wA, a.W) &&
		same(s.vBX, b.V.X) && same(s.vBY, b.V.Y) && same(s.wB, b.W))
	a.V.X, a.V.Y, a.W = s.vAX, s.vAY, s.wA
	b.V.X, b.V.Y, b.W = s.vBX, s.vBY, s.wB
	return changed
}

// tangent solves friction at point j. Tangent constraints come first: non-penetration is more
// important than friction.
func (s *contactSolve) tangent(j int) {
	vc := s.vc
	vAX, vAY, wA := s.vAX, s.vAY, s.wA
	vBX, vBY, wB := s.vBX, s.vBY, s.wB
	mA, iA := vc.InvMassA, vc.InvIA
	mB, iB := vc.InvMassB, vc.InvIB
	nX, nY := vc.Normal.X, vc.Normal.Y
	// B2Vec2CrossVectorScalar(normal, 1.0) = (1.0*n.Y, -1.0*n.X), both exact.
	tX, tY := float64(1.0*nY), float64(-1.0*nX)

	vcp := &vc.Points[j]
	rAX, rAY := vcp.RA.X, vcp.RA.Y
	rBX, rBY := vcp.RB.X, vcp.RB.Y

	// dv = vB + ((wB × rB − vA) − wA × rA)
	dvX := vBX + ((float64(-wB*rBY) - vAX) - float64(-wA*rAY))
	dvY := vBY + ((float64(wB*rBX) - vAY) - float64(wA*rAX))

	vt := float64(dvX*tX) + float64(dvY*tY)
	if ts := vc.TangentSpeed; !positiveZero(ts) {
		// x − (+0) is x for every x (−0 and NaN included), so the subtraction is only done
		// for the conveyor-belt contacts that have a tangent speed.
		vt -= ts
	}
	lambda := float64(vcp.TangentMass * (-vt))

	maxFriction := float64(vc.Friction * vcp.NormalImpulse)
	old := vcp.TangentImpulse
	// B2FloatClamp(old+lambda, -maxFriction, maxFriction), written out so it inlines. Each
	// bound is applied only when it is finite; −maxFriction is finite exactly when
	// maxFriction is, so one test serves both.
	newImpulse := old + lambda
	if validf(maxFriction) {
		newImpulse = maxf(minf(newImpulse, maxFriction), -maxFriction)
	}
	lambda = newImpulse - old
	if !same(newImpulse, old) {
		s.changed = true
	}
	vcp.TangentImpulse = newImpulse

	pX, pY := float64(lambda*tX), float64(lambda*tY)
	s.vAX = vAX - float64(mA*pX)
	s.vAY = vAY - float64(mA*pY)
	s.wA = wA - float64(iA*(float64(rAX*pY)-float64(rAY*pX)))
	s.vBX = vBX + float64(mB*pX)
	s.vBY = vBY + float64(mB*pY)
	s.wB = wB + float64(iB*(float64(rBX*pY)-float64(rBY*pX)))
}

// normal solves non-penetration: point by point for one point, with upstream's block solver
// (total enumeration of the 2×2 LCP, same cases in the same order) for two.
func (s *contactSolve) normal() {
	vc := s.vc
	vAX, vAY, wA := s.vAX, s.vAY, s.wA
	vBX, vBY, wB := s.vBX, s.vBY, s.wB
	mA, iA := vc.InvMassA, vc.InvIA
	mB, iB := vc.InvMassB, vc.InvIB
	nX, nY := vc.Normal.X, vc.Normal.Y

	if vc.PointCount == 1 || !g_blockSolve {
		for j := 0; j < vc.PointCount; j++ {
			vcp := &vc.Points[j]
			rAX, rAY := vcp.RA.X, vcp.RA.Y
			rBX, rBY := vcp.RB.X, vcp.RB.Y

			dvX := vBX + ((float64(-wB*rBY) - vAX) - float64(-wA*rAY))
			dvY := vBY + ((float64(wB*rBX) - vAY) - float64(wA*rAX))

			vn := float64(dvX*nX) + float64(dvY*nY)
			lambda := float64(-vcp.NormalMass * (vn - vcp.VelocityBias))

			old := vcp.NormalImpulse
			newImpulse := maxf(old+lambda, 0.0)
			lambda = newImpulse - old
			if !same(newImpulse, old) {
				s.changed = true
			}
			vcp.NormalImpulse = newImpulse

			pX, pY := float64(lambda*nX), float64(lambda*nY)
			vAX -= float64(mA * pX)
			vAY -= float64(mA * pY)
			wA -= float64(iA * (float64(rAX*pY) - float64(rAY*pX)))
			vBX += float64(mB * pX)
			vBY += float64(mB * pY)
			wB += float64(iB * (float64(rBX*pY) - float64(rBY*pX)))
		}
		s.vAX, s.vAY, s.wA = vAX, vAY, wA
		s.vBX, s.vBY, s.wB = vBX, vBY, wB
		return
	}

	cp1, cp2 := &vc.Points[0], &vc.Points[1]
	aX, aY := cp1.NormalImpulse, cp2.NormalImpulse
	B2Assert(aX >= 0.0 && aY >= 0.0)

	r1AX, r1AY, r1BX, r1BY := cp1.RA.X, cp1.RA.Y, cp1.RB.X, cp1.RB.Y
	r2AX, r2AY, r2BX, r2BY := cp2.RA.X, cp2.RA.Y, cp2.RB.X, cp2.RB.Y

	dv1X := vBX + ((float64(-wB*r1BY) - vAX) - float64(-wA*r1AY))
	dv1Y := vBY + ((float64(wB*r1BX) - vAY) - float64(wA*r1AX))
	dv2X := vBX + ((float64(-wB*r2BY) - vAX) - float64(-wA*r2AY))
	dv2Y := vBY + ((float64(wB*r2BX) - vAY) - float64(wA*r2AX))

	vn1 := float64(dv1X*nX) + float64(dv1Y*nY)
	vn2 := float64(dv2X*nX) + float64(dv2Y*nY)

	bX := vn1 - cp1.VelocityBias
	bY := vn2 - cp2.VelocityBias
	K := &vc.K
	bX -= float64(K.Ex.X*aX) + float64(K.Ey.X*aY)
	bY -= float64(K.Ex.Y*aX) + float64(K.Ey.Y*aY)

	var xX, xY float64
	NM := &vc.NormalMass
	xX = -(float64(NM.Ex.X*bX) + float64(NM.Ey.X*bY))
	xY = -(float64(NM.Ex.Y*bX) + float64(NM.Ey.Y*bY))
	if !(xX >= 0.0 && xY >= 0.0) {
		xX = float64(-cp1.NormalMass * bX)
		xY = 0.0
		vn2 = float64(K.Ex.Y*xX) + bY
		if !(xX >= 0.0 && vn2 >= 0.0) {
			xX = 0.0
			xY = float64(-cp2.NormalMass * bY)
			vn1 = float64(K.Ey.X*xY) + bX
			if !(xY >= 0.0 && vn1 >= 0.0) {
				xX, xY = 0.0, 0.0
				if !(bX >= 0.0 && bY >= 0.0) {
					// No solution: upstream gives up and changes nothing.
					return
				}
			}
		}
	}
	dX, dY := xX-aX, xY-aY
	p1X, p1Y := float64(dX*nX), float64(dX*nY)
	p2X, p2Y := float64(dY*nX), float64(dY*nY)
	sX, sY := p1X+p2X, p1Y+p2Y
	s.vAX = vAX - float64(mA*sX)
	s.vAY = vAY - float64(mA*sY)
	s.wA = wA - float64(iA*((float64(r1AX*p1Y)-float64(r1AY*p1X))+(float64(r2AX*p2Y)-float64(r2AY*p2X))))
	s.vBX = vBX + float64(mB*sX)
	s.vBY = vBY + float64(mB*sY)
	s.wB = wB + float64(iB*((float64(r1BX*p1Y)-float64(r1BY*p1X))+(float64(r2BX*p2Y)-float64(r2BY*p2X))))
	if !same(xX, aX) || !same(xY, aY) {
		s.changed = true
	}
	cp1.NormalImpulse = xX
	cp2.NormalImpulse = xY
}

// wavefrontOrder returns an order of the contacts that gives bit for bit the same passes as
// upstream's order 0, 1, …, n−1, but lets the processor overlap the solves of neighbouring
// contacts; nil when there is no such order (every contact shares a body with the one before,
// as in a single stack).
//
// Why it is the same: a contact's solve reads and writes only the velocities of its two bodies
// and its own impulses. So a pass's result depends only on, for each body, the order in which
// the contacts touching it are solved. Give contact c the level 1 + the largest level of the
// contacts before it (in upstream's order) that share a body with it; sorting by level, ties in
// upstream's order, keeps every body's contacts in upstream's order (a later contact on the same
// body always has a higher level), and the same order is used for every pass, so every body
// sees exactly upstream's sequence of solves across the passes too.
//
// Why it is faster: upstream's order lists a body's contacts together (the island is built body
// by body), so each solve waits for the one before it to finish — a chain of ~50 dependent
// floating-point operations per contact. Contacts of one level share no body, so consecutive
// solves in this order are independent and run side by side in the processor's pipeline.
func (solver *B2ContactSolver) wavefrontOrder(scratch *solverScratch) []int32 {
	if scratch == nil {
		scratch = &solverScratch{}
	}
	n := solver.M_count
	// level[b] is the level of the last contact of body b so far; lv[c] is contact c's level
	// and count[l] how many contacts have level l.
	level := grow(scratch.level, len(solver.M_velocities))
	lv := grow(scratch.contactLevel, n)
	count := append(scratch.count[:0], 0)
	for c := 0; c < n; c++ {
		vc := &solver.M_velocityConstraints[c]
		l := level[vc.IndexA]
		if lb := level[vc.IndexB]; lb > l {
			l = lb
		}
		l++
		level[vc.IndexA], level[vc.IndexB] = l, l
		lv[c] = l
		for int(l) >= len(count) {
			count = append(count, 0)
		}
		count[l]++
	}
	if len(count)-1 == n {
		// Every level holds one contact: upstream's order is the only one, nothing pairs.
		scratch.level, scratch.contactLevel, scratch.count = level, lv, count
		return nil
	}
	// Counting sort by level, stable (ties keep upstream's order).
	start := int32(0)
	for l := range count {
		start, count[l] = start+count[l], start
	}
	order := grow(scratch.order, n)
	for c := 0; c < n; c++ {
		order[count[lv[c]]] = int32(c)
		count[lv[c]]++
	}
	scratch.level, scratch.contactLevel, scratch.count, scratch.order = level, lv, count, order
	return order
}

// solverScratch keeps the island's and the contact solver's buffers from one step to the next.
type solverScratch struct {
	position                          []B2ContactPositionConstraint
	velocity                          []B2ContactVelocityConstraint
	level, contactLevel, count, order []int32
	// The island's arrays (B2World.Solve).
	bodies     []*B2Body
	contacts   []B2ContactInterface
	joints     []B2JointInterface
	velocities []B2Velocity
	positions  []B2Position
}

// island is MakeB2Island on the kept buffers: the same island, its arrays zeroed as make
// would give them.
func (s *solverScratch) island(bodyCapacity, contactCapacity, jointCapacity int, listener B2ContactListenerInterface) B2Island {
	if cap(s.bodies) < bodyCapacity {
		s.bodies = make([]*B2Body, bodyCapacity)
		s.velocities = make([]B2Velocity, bodyCapacity)
		s.positions = make([]B2Position, bodyCapacity)
	}
	if cap(s.contacts) < contactCapacity {
		s.contacts = make([]B2ContactInterface, contactCapacity)
	}
	if cap(s.joints) < jointCapacity {
		s.joints = make([]B2JointInterface, jointCapacity)
	}
	island := B2Island{
		M_bodyCapacity:    bodyCapacity,
		M_contactCapacity: contactCapacity,
		M_jointCapacity:   jointCapacity,
		M_listener:        listener,
		M_bodies:          s.bodies[:bodyCapacity],
		M_contacts:        s.contacts[:contactCapacity],
		M_joints:          s.joints[:jointCapacity],
		M_velocities:      s.velocities[:bodyCapacity],
		M_positions:       s.positions[:bodyCapacity],
	}
	for i := range island.M_bodies {
		island.M_bodies[i] = nil
	}
	for i := range island.M_contacts {
		island.M_contacts[i] = nil
	}
	for i := range island.M_joints {
		island.M_joints[i] = nil
	}
	for i := range island.M_velocities {
		island.M_velocities[i] = B2Velocity{}
	}
	for i := range island.M_positions {
		island.M_positions[i] = B2Position{}
	}
	return island
}

// constraints returns n zeroed position and velocity constraints.
func (s *solverScratch) constraints(n int) ([]B2ContactPositionConstraint, []B2ContactVelocityConstraint) {
	if cap(s.position) < n {
		s.position = make([]B2ContactPositionConstraint, n)
		s.velocity = make([]B2ContactVelocityConstraint, n)
	}
	p, v := s.position[:n], s.velocity[:n]
	for i := range p {
		p[i] = B2ContactPositionConstraint{}
	}
	for i := range v {
		v[i] = B2ContactVelocityConstraint{}
	}
	return p, v
}

// grow returns buf resized to n zeroed elements, reusing its array when it is big enough.
func grow(buf []int32, n int) []int32 {
	if cap(buf) < n {
		return make([]int32, n)
	}
	buf = buf[:n]
	for i := range buf {
		buf[i] = 0
	}
	return buf
}

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
		tX, tY := 1.0*nY, -1.0*nX
		friction := vc.Friction

		B2Assert(pointCount == 1 || pointCount == 2)

		// Tangent constraints first: non-penetration is more important than friction.
		for j := 0; j < pointCount; j++ {
			vcp := &vc.Points[j]
			rAX, rAY := vcp.RA.X, vcp.RA.Y
			rBX, rBY := vcp.RB.X, vcp.RB.Y

			// dv = vB + ((wB × rB − vA) − wA × rA)
			dvX := vBX + ((-wB*rBY - vAX) - -wA*rAY)
			dvY := vBY + ((wB*rBX - vAY) - wA*rAX)

			vt := (dvX*tX + dvY*tY) - vc.TangentSpeed
			lambda := vcp.TangentMass * (-vt)

			maxFriction := friction * vcp.NormalImpulse
			old := vcp.TangentImpulse
			// B2FloatClamp(old+lambda, -maxFriction, maxFriction), written out so it inlines.
			newImpulse := old + lambda
			if validf(maxFriction) {
				newImpulse = minf(newImpulse, maxFriction)
			}
			if low := -maxFriction; validf(low) {
				newImpulse = maxf(newImpulse, low)
			}
			lambda = newImpulse - old
			if !same(newImpulse, old) {
				changed = true
			}
			vcp.TangentImpulse = newImpulse

			pX, pY := lambda*tX, lambda*tY
			vAX -= mA * pX
			vAY -= mA * pY
			wA -= iA * (rAX*pY - rAY*pX)
			vBX += mB * pX
			vBY += mB * pY
			wB += iB * (rBX*pY - rBY*pX)
		}

		if pointCount == 1 || !g_blockSolve {
			for j := 0; j < pointCount; j++ {
				vcp := &vc.Points[j]
				rAX, rAY := vcp.RA.X, vcp.RA.Y
				rBX, rBY := vcp.RB.X, vcp.RB.Y

				dvX := vBX + ((-wB*rBY - vAX) - -wA*rAY)
				dvY := vBY + ((wB*rBX - vAY) - wA*rAX)

				vn := dvX*nX + dvY*nY
				lambda := -vcp.NormalMass * (vn - vcp.VelocityBias)

				old := vcp.NormalImpulse
				newImpulse := maxf(old+lambda, 0.0)
				lambda = newImpulse - old
				if !same(newImpulse, old) {
					changed = true
				}
				vcp.NormalImpulse = newImpulse

				pX, pY := lambda*nX, lambda*nY
				vAX -= mA * pX
				vAY -= mA * pY
				wA -= iA * (rAX*pY - rAY*pX)
				vBX += mB * pX
				vBY += mB * pY
				wB += iB * (rBX*pY - rBY*pX)
			}
		} else {
			// The block solver of upstream (total enumeration of the 2×2 LCP), same cases in
			// the same order.
			cp1, cp2 := &vc.Points[0], &vc.Points[1]
			aX, aY := cp1.NormalImpulse, cp2.NormalImpulse
			B2Assert(aX >= 0.0 && aY >= 0.0)

			r1AX, r1AY, r1BX, r1BY := cp1.RA.X, cp1.RA.Y, cp1.RB.X, cp1.RB.Y
			r2AX, r2AY, r2BX, r2BY := cp2.RA.X, cp2.RA.Y, cp2.RB.X, cp2.RB.Y

			dv1X := vBX + ((-wB*r1BY - vAX) - -wA*r1AY)
			dv1Y := vBY + ((wB*r1BX - vAY) - wA*r1AX)
			dv2X := vBX + ((-wB*r2BY - vAX) - -wA*r2AY)
			dv2Y := vBY + ((wB*r2BX - vAY) - wA*r2AX)

			vn1 := dv1X*nX + dv1Y*nY
			vn2 := dv2X*nX + dv2Y*nY

			bX := vn1 - cp1.VelocityBias
			bY := vn2 - cp2.VelocityBias
			K := &vc.K
			bX -= K.Ex.X*aX + K.Ey.X*aY
			bY -= K.Ex.Y*aX + K.Ey.Y*aY

			var xX, xY float64
			solved := true
			NM := &vc.NormalMass
			xX = -(NM.Ex.X*bX + NM.Ey.X*bY)
			xY = -(NM.Ex.Y*bX + NM.Ey.Y*bY)
			if !(xX >= 0.0 && xY >= 0.0) {
				xX = -cp1.NormalMass * bX
				xY = 0.0
				vn2 = K.Ex.Y*xX + bY
				if !(xX >= 0.0 && vn2 >= 0.0) {
					xX = 0.0
					xY = -cp2.NormalMass * bY
					vn1 = K.Ey.X*xY + bX
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
				p1X, p1Y := dX*nX, dX*nY
				p2X, p2Y := dY*nX, dY*nY
				sX, sY := p1X+p2X, p1Y+p2Y
				vAX -= mA * sX
				vAY -= mA * sY
				wA -= iA * ((r1AX*p1Y - r1AY*p1X) + (r2AX*p2Y - r2AY*p2X))
				vBX += mB * sX
				vBY += mB * sY
				wB += iB * ((r1BX*p1Y - r1BY*p1X) + (r2BX*p2Y - r2BY*p2X))
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

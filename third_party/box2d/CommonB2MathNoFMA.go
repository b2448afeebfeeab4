package box2d

// Sine, cosine and arctangent that give the same bits on every build.
//
// Go may fuse a multiplication and an addition into one FMA instruction (always on arm64,
// ppc64 and s390x; on amd64 when built with GOAMD64=v3 or higher), and the standard library's
// math.Sin, math.Cos and math.Atan2 are plain Go polynomials, so their last bit depends on the
// build: with GOAMD64=v3 they differ from the default build for many arguments, and a rotation
// that differs in its last bit changes a whole simulation. These functions evaluate the same
// Cephes polynomials as the standard library (Go's math/sin.go and math/atan.go, BSD licence)
// with every product rounded explicitly, float64(a*b), which the Go specification says forbids
// fusion. On a build that does not fuse they are bit-identical to math.Sin, math.Cos and
// math.Atan2 (TestTrigMatchesMath), so adopting them changed no result of the default build.

import "math"

var b2SinCoef = [...]float64{
	1.58962301576546568060e-10,
	-2.50507477628578072866e-8,
	2.75573136213857245213e-6,
	-1.98412698295895385996e-4,
	8.33333333332211858878e-3,
	-1.66666666666666307295e-1,
}

var b2CosCoef = [...]float64{
	-1.13585365213876817300e-11,
	2.08757008419747316778e-9,
	-2.75573141792967388112e-7,
	2.48015872888517045348e-5,
	-1.38888888888730564116e-3,
	4.16666666666665929218e-2,
}

// b2TrigReduceLimit is where the standard library switches to Payne–Hanek reduction; beyond
// it (2^29 radians, never an angle of a body here) these functions call the standard library.
const b2TrigReduceLimit = 1 << 29

// b2Octant reduces |x| < b2TrigReduceLimit to z in [-π/4, π/4] and its octant j (0..7), with
// π/4 split in three parts for extended precision.
func b2Octant(x float64) (j uint64, z float64) {
	const (
		pi4A = 7.85398125648498535156e-1
		pi4B = 3.77489470793079817668e-8
		pi4C = 2.69515142907905952645e-15
	)
	j = uint64(float64(x * (4 / math.Pi)))
	y := float64(j)
	if j&1 == 1 {
		j++
		y++
	}
	j &= 7
	z = ((x - float64(y*pi4A)) - float64(y*pi4B)) - float64(y*pi4C)
	return j, z
}

func b2SinPoly(z, zz float64) float64 {
	c := b2SinCoef
	p := float64(float64(float64(float64(float64(float64(c[0]*zz)+c[1])*zz)+c[2])*zz) + c[3])
	p = float64(float64(float64(float64(p*zz)+c[4])*zz) + c[5])
	return z + float64(float64(z*zz)*p)
}

func b2CosPoly(zz float64) float64 {
	c := b2CosCoef
	p := float64(float64(float64(float64(float64(float64(c[0]*zz)+c[1])*zz)+c[2])*zz) + c[3])
	p = float64(float64(float64(float64(p*zz)+c[4])*zz) + c[5])
	return 1.0 - float64(0.5*zz) + float64(float64(zz*zz)*p)
}

// B2Sin is math.Sin, the same bits on every build.
func B2Sin(x float64) float64 {
	switch {
	case x == 0 || math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		return math.NaN()
	}
	sign := false
	if x < 0 {
		x = -x
		sign = true
	}
	if x >= b2TrigReduceLimit {
		if sign {
			return -math.Sin(x)
		}
		return math.Sin(x)
	}
	j, z := b2Octant(x)
	if j > 3 {
		sign = !sign
		j -= 4
	}
	zz := float64(z * z)
	var y float64
	if j == 1 || j == 2 {
		y = b2CosPoly(zz)
	} else {
		y = b2SinPoly(z, zz)
	}
	if sign {
		y = -y
	}
	return y
}

// B2Cos is math.Cos, the same bits on every build.
func B2Cos(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN()
	}
	x = math.Abs(x)
	if x >= b2TrigReduceLimit {
		return math.Cos(x)
	}
	j, z := b2Octant(x)
	sign := false
	if j > 3 {
		j -= 4
		sign = !sign
	}
	if j > 1 {
		sign = !sign
	}
	zz := float64(z * z)
	var y float64
	if j == 1 || j == 2 {
		y = b2SinPoly(z, zz)
	} else {
		y = b2CosPoly(zz)
	}
	if sign {
		y = -y
	}
	return y
}

// b2Xatan is atan(x) for 0 <= x <= 0.66.
func b2Xatan(x float64) float64 {
	const (
		p0 = -8.750608600031904122785e-01
		p1 = -1.615753718733365076637e+01
		p2 = -7.500855792314704667340e+01
		p3 = -1.228866684490136173410e+02
		p4 = -6.485021904942025371773e+01
		q0 = +2.485846490142306297962e+01
		q1 = +1.650270098316988542046e+02
		q2 = +4.328810604912902668951e+02
		q3 = +4.853903996359136964868e+02
		q4 = +1.945506571482613964425e+02
	)
	z := float64(x * x)
	num := float64(float64(float64(float64(float64(float64(float64(float64(p0*z)+p1)*z)+p2)*z)+p3)*z) + p4)
	den := float64(float64(float64(float64(float64(float64(float64(float64(z+q0)*z)+q1)*z)+q2)*z)+q3)*z) + q4
	z = float64(z*num) / den
	return float64(x*z) + x
}

// b2Satan reduces x >= 0 to the range of b2Xatan.
func b2Satan(x float64) float64 {
	const (
		morebits = 6.123233995736765886130e-17
		tan3pio8 = 2.41421356237309504880
	)
	if x <= 0.66 {
		return b2Xatan(x)
	}
	if x > tan3pio8 {
		return math.Pi/2 - b2Xatan(1/x) + morebits
	}
	return math.Pi/4 + b2Xatan((x-1)/(x+1)) + 0.5*morebits
}

// B2Atan2 is math.Atan2, the same bits on every build.
func B2Atan2(y, x float64) float64 {
	switch {
	case math.IsNaN(y) || math.IsNaN(x), y == 0, x == 0, math.IsInf(x, 0), math.IsInf(y, 0):
		return math.Atan2(y, x) // special cases: no arithmetic that could be fused
	}
	var q float64
	switch t := y / x; {
	case t == 0:
		q = t
	case t > 0:
		q = b2Satan(t)
	default:
		q = -b2Satan(-t)
	}
	if x < 0 {
		if q <= 0 {
			return q + math.Pi
		}
		return q - math.Pi
	}
	return q
}

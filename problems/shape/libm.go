package shape

import (
	"math"
	"math/big"
	"sync"
)

// The reference runs on glibc, whose log, sin, cos and atan2 return the correctly rounded
// result for practically every argument. Go's math package is only faithful (within one ulp):
// math.Log(3) and math.Log(14) already differ from glibc in the last bit. Where a last bit can
// change a decision (an argmax over UCB values, a bullet crossing a bucket boundary), problems
// use the functions below: each evaluates in double-double arithmetic (about 104 bits) and
// rounds once, which gives the correctly rounded double except when the exact value lies within
// about 2^-100 relative of a rounding midpoint.

// dd is the unevaluated sum hi + lo with |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

// fastTwoSum needs |a| >= |b| (or a == 0).
func fastTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

func twoProd(a, b float64) dd {
	p := a * b
	return dd{p, math.FMA(a, b, -p)}
}

func ddAdd(a, b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	s.lo += t.hi
	s = fastTwoSum(s.hi, s.lo)
	s.lo += t.lo
	return fastTwoSum(s.hi, s.lo)
}

func ddNeg(a dd) dd { return dd{-a.hi, -a.lo} }

func ddSub(a, b dd) dd { return ddAdd(a, ddNeg(b)) }

func ddMul(a, b dd) dd {
	p := twoProd(a.hi, b.hi)
	p.lo += float64(a.hi*b.lo) + float64(a.lo*b.hi)
	return fastTwoSum(p.hi, p.lo)
}

func ddMulF(a dd, b float64) dd {
	p := twoProd(a.hi, b)
	p.lo += float64(a.lo * b)
	return fastTwoSum(p.hi, p.lo)
}

func ddDiv(a, b dd) dd {
	q1 := a.hi / b.hi
	r := ddSub(a, ddMulF(b, q1))
	q2 := r.hi / b.hi
	r = ddSub(r, ddMulF(b, q2))
	q3 := r.hi / b.hi
	return ddAdd(fastTwoSum(q1, q2), dd{q3, 0})
}

// horner evaluates c[0] + t*(c[1] + t*(c[2] + ...)).
func horner(c []dd, t dd) dd {
	p := c[len(c)-1]
	for i := len(c) - 2; i >= 0; i-- {
		p = ddAdd(c[i], ddMul(p, t))
	}
	return p
}

const bigPrec = 320

var (
	ddPi, ddHalfPi, ddLn2 dd
	// halfPiParts splits π/2 for Cody–Waite reduction: the first two parts have 30 significant
	// bits, so k·part is exact for |k| < 2^23.
	halfPiParts [4]float64
	// sinCoef[n] = (-1)^n/(2n+1)!, cosCoef[n] = (-1)^n/(2n)!: enough terms for |r| <= π/4.
	sinCoef, cosCoef [16]dd
	// logCoef[k] = 1/(2k+1), the series of atanh(s)/s for |s| <= 0.1716.
	logCoef [24]dd
	// atanCoef[n] = (-1)^n/(2n+1) for |v| <= 1/32; atanTable[j] = atan(j/16).
	atanCoef  [13]dd
	atanTable [17]dd
)

func newBig() *big.Float { return new(big.Float).SetPrec(bigPrec) }

func ddFromBig(x *big.Float) dd {
	hi, _ := x.Float64()
	rest := newBig().Sub(x, newBig().SetFloat64(hi))
	lo, _ := rest.Float64()
	return dd{hi, lo}
}

// libmTables fills the constants on first use, so programs that never call these functions
// do not pay the 2 ms of big-float set-up at start.
var libmTables sync.Once

func initLibm() {
	pi, _, _ := newBig().Parse("3.14159265358979323846264338327950288419716939937510"+
		"58209749445923078164062862089986280348253421170679", 10)
	ln2, _, _ := newBig().Parse("0.69314718055994530941723212145817656807550013436025"+
		"52541206800094933936219696947156058633269964186875", 10)
	ddPi = ddFromBig(pi)
	halfPi := newBig().Quo(pi, newBig().SetInt64(2))
	ddHalfPi = ddFromBig(halfPi)
	ddLn2 = ddFromBig(ln2)

	rest := newBig().Set(halfPi)
	for i, bits := range []uint{30, 30, 53, 53} {
		part, _ := new(big.Float).SetPrec(bits).SetMode(big.ToNearestEven).Set(rest).Float64()
		halfPiParts[i] = part
		rest.Sub(rest, newBig().SetFloat64(part))
	}

	fact := newBig().SetInt64(1)
	for n := 0; n < 2*len(sinCoef)+2; n++ {
		if n > 0 {
			fact.Mul(fact, newBig().SetInt64(int64(n)))
		}
		inv := newBig().Quo(newBig().SetInt64(1), fact)
		if (n/2)%2 == 1 {
			inv.Neg(inv)
		}
		if n%2 == 0 && n/2 < len(cosCoef) {
			cosCoef[n/2] = ddFromBig(inv)
		}
		if n%2 == 1 && n/2 < len(sinCoef) {
			sinCoef[n/2] = ddFromBig(inv)
		}
	}
	for k := range logCoef {
		logCoef[k] = ddFromBig(newBig().Quo(newBig().SetInt64(1), newBig().SetInt64(int64(2*k+1))))
	}
	for n := range atanCoef {
		c := newBig().Quo(newBig().SetInt64(1), newBig().SetInt64(int64(2*n+1)))
		if n%2 == 1 {
			c.Neg(c)
		}
		atanCoef[n] = ddFromBig(c)
	}
	for j := range atanTable {
		atanTable[j] = ddFromBig(bigAtan(newBig().Quo(newBig().SetInt64(int64(j)), newBig().SetInt64(16))))
	}
}

// bigAtan is atan(x) for 0 <= x <= 1 at bigPrec bits: three argument halvings
// (atan x = 2 atan(x / (1 + sqrt(1 + x²)))), then the Taylor series.
func bigAtan(x *big.Float) *big.Float {
	one := newBig().SetInt64(1)
	x = newBig().Set(x)
	for i := 0; i < 3; i++ {
		s := newBig().Mul(x, x)
		s.Add(s, one)
		s.Sqrt(s)
		s.Add(s, one)
		x.Quo(x, s)
	}
	x2 := newBig().Mul(x, x)
	term := newBig().Set(x)
	sum := newBig()
	eps := newBig().SetMantExp(one, -bigPrec)
	for n := 0; ; n++ {
		t := newBig().Quo(term, newBig().SetInt64(int64(2*n+1)))
		if n%2 == 1 {
			t.Neg(t)
		}
		sum.Add(sum, t)
		if newBig().Abs(t).Cmp(eps) < 0 {
			break
		}
		term.Mul(term, x2)
	}
	return sum.Mul(sum, newBig().SetInt64(8))
}

// Log is the correctly rounded natural logarithm (glibc's log): logApprox's result when the
// rounding test proves it equal to logSlow's (logfast.go), else logSlow's.
func Log(x float64) float64 {
	if y, ok := logApprox(x); ok && logRounds(y) {
		return y.hi
	}
	return logSlow(x)
}

// logSlow evaluates log x in double-double arithmetic and rounds once.
func logSlow(x float64) float64 {
	libmTables.Do(initLibm)
	if !(x > 0) || math.IsInf(x, 1) || x == 1 {
		return math.Log(x)
	}
	return logDD(x).hi
}

// logDD is log x in double-double for a positive finite x ≠ 1; its hi is the rounded sum
// hi + lo (the last step is a fastTwoSum).
func logDD(x float64) dd {
	m, e := math.Frexp(x)
	m, e = 2*m, e-1
	if m > math.Sqrt2 {
		m, e = m/2, e+1
	}
	// log m = 2 atanh(s) with s = (m-1)/(m+1); m-1 is exact.
	s := ddDiv(dd{m - 1, 0}, twoSum(m, 1))
	l := ddMul(s, horner(logCoef[:], ddMul(s, s)))
	l = dd{2 * l.hi, 2 * l.lo}
	return ddAdd(ddMulF(ddLn2, float64(e)), l)
}

// reduceLimit bounds the Cody–Waite reduction (k < 2^23); larger arguments fall back to Go.
const reduceLimit = 1 << 22

// reduce returns r = x - k·π/2 in double-double and k mod 4.
func reduce(x float64) (dd, int) {
	k := math.RoundToEven(x * (2 / math.Pi))
	t := x - k*halfPiParts[0]
	r := twoSum(t, -k*halfPiParts[1])
	r = ddSub(r, twoProd(k, halfPiParts[2]))
	r = ddSub(r, dd{k * halfPiParts[3], 0})
	return r, int(int64(k) & 3)
}

func sinPoly(r dd) dd { return ddMul(r, horner(sinCoef[:], ddMul(r, r))) }
func cosPoly(r dd) dd { return horner(cosCoef[:], ddMul(r, r)) }

// Sin is the correctly rounded sine (glibc's sin) for |x| < 2^22·π/2.
func Sin(x float64) float64 {
	libmTables.Do(initLibm)
	if x == 0 || math.IsNaN(x) || math.Abs(x) > reduceLimit {
		return math.Sin(x)
	}
	r, q := reduce(x)
	switch q {
	case 0:
		return sinPoly(r).hi
	case 1:
		return cosPoly(r).hi
	case 2:
		return -sinPoly(r).hi
	}
	return -cosPoly(r).hi
}

// Cos is the correctly rounded cosine (glibc's cos) for |x| < 2^22·π/2.
func Cos(x float64) float64 {
	libmTables.Do(initLibm)
	if math.IsNaN(x) || math.Abs(x) > reduceLimit {
		return math.Cos(x)
	}
	r, q := reduce(x)
	switch q {
	case 0:
		return cosPoly(r).hi
	case 1:
		return -sinPoly(r).hi
	case 2:
		return -cosPoly(r).hi
	}
	return sinPoly(r).hi
}

// atanDD is atan(u) for 0 <= u <= 1: atan(j/16) from the table plus the series of
// atan((u - c)/(1 + u·c)), |·| <= 1/32.
func atanDD(u dd) dd {
	j := math.RoundToEven(u.hi * 16)
	c := j / 16
	v := ddDiv(ddSub(u, dd{c, 0}), ddAdd(dd{1, 0}, ddMulF(u, c)))
	return ddAdd(atanTable[int(j)], ddMul(v, horner(atanCoef[:], ddMul(v, v))))
}

// Atan2 is the correctly rounded atan2 (glibc's). Zeros, infinities, NaNs and quotients
// beyond 2^±500 take Go's math.Atan2, which follows the same C99 special-case rules.
func Atan2(y, x float64) float64 {
	libmTables.Do(initLibm)
	if y == 0 || x == 0 || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return math.Atan2(y, x)
	}
	a, b := math.Abs(y), math.Abs(x)
	_, ea := math.Frexp(a)
	_, eb := math.Frexp(b)
	if ea-eb > 500 || eb-ea > 500 {
		return math.Atan2(y, x)
	}
	var r dd
	if a <= b {
		r = atanDD(ddDiv(dd{a, 0}, dd{b, 0}))
	} else {
		r = ddSub(ddHalfPi, atanDD(ddDiv(dd{b, 0}, dd{a, 0})))
	}
	if x < 0 {
		r = ddSub(ddPi, r)
	}
	if y < 0 {
		return -r.hi
	}
	return r.hi
}

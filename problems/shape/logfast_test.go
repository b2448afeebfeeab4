package shape

import (
	"flag"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

var logExhaustive = flag.Bool("log.exhaustive", false, "compare Log with logSlow on some 10^8 arguments")

// logTableC is the c of interval i: 1 for the two intervals next to 1, else the multiple of
// 2^-8 that minimises max |z·c - 1| over the interval.
func logTableC(i int) float64 {
	if i < 2 {
		return 1
	}
	a, b := 1+float64(i-1)/128, 1+float64(i)/128
	best, bestErr := 0.0, math.Inf(1)
	mid := math.Floor(256 * 2 / (a + b))
	for C := mid - 2; C <= mid+2; C++ {
		c := C / 256
		if e := max(math.Abs(a*c-1), math.Abs(b*c-1)); e < bestErr { // a·c, b·c are exact
			best, bestErr = c, e
		}
	}
	return best
}

// bigLn is log c for 1/2 < c <= 1 at bigPrec bits.
func bigLn(c float64) *big.Float {
	X := newBig().SetFloat64(c)
	s := newBig().Quo(newBig().Sub(X, newBig().SetInt64(1)), newBig().Add(X, newBig().SetInt64(1)))
	s2, term, sum := newBig().Mul(s, s), newBig().Set(s), newBig()
	for k := 0; k < 400; k++ {
		sum.Add(sum, newBig().Quo(term, newBig().SetInt64(int64(2*k+1))))
		term.Mul(term, s2)
	}
	return sum.Mul(sum, newBig().SetInt64(2))
}

func splitBig(x *big.Float) (hi, lo float64) {
	hi, _ = x.Float64()
	lo, _ = newBig().Sub(x, newBig().SetFloat64(hi)).Float64()
	return hi, lo
}

// TestLogTable rebuilds logTable and the ln2 split and checks the facts logfast.go's proof
// uses: the intervals the bits select, c a multiple of 2^-8, |r| <= R (|r| < 2^-7 next to 1).
func TestLogTable(t *testing.T) {
	ln2, _, _ := newBig().Parse("0.69314718055994530941723212145817656807550013436025"+
		"52541206800094933936219696947156058633269964186875", 10)
	hi := math.Float64frombits(math.Float64bits(0.6931471805599453) &^ (1<<11 - 1))
	if got, _ := new(big.Float).SetPrec(42).Set(ln2).Float64(); ln2Hi != got || ln2Hi != hi {
		t.Errorf("ln2Hi = %x, want %x (ln2 to 42 bits)", ln2Hi, got)
	}
	if lo, _ := newBig().Sub(ln2, newBig().SetFloat64(ln2Hi)).Float64(); ln2Lo != lo {
		t.Errorf("ln2Lo = %x, want %x", ln2Lo, lo)
	}
	for i, e := range logTable {
		c := logTableC(i)
		thi, tlo := splitBig(newBig().Neg(bigLn(c)))
		if e.c != c || e.hi != thi || e.lo != tlo {
			t.Errorf("logTable[%d] = {%x, %x, %x}, want {%x, %x, %x}", i, e.c, e.hi, e.lo, c, thi, tlo)
		}
		if c*256 != math.Trunc(c*256) {
			t.Errorf("logTable[%d].c = %x is not a multiple of 2^-8", i, c)
		}
		a, b := 1-0x1p-8, 1.0
		if i > 0 {
			a, b = 1+float64(i-1)/128, 1+float64(i)/128
		}
		R := 0.005585
		if i < 2 {
			R = 0x1p-7
			if i == 0 {
				R = 0x1p-8
			}
		}
		if r := max(math.Abs(a*c-1), math.Abs(b*c-1)); r > R {
			t.Errorf("interval %d: |r| up to %v > %v", i, r, R)
		}
		// The bits select interval i for its first and last z (in every binade of x).
		for _, z := range []float64{a, math.Nextafter(b, 0)} {
			for _, k := range []int{-1022, -1, 0, 1, 1023} {
				x := math.Ldexp(z, k)
				if z < 1 && k == -1022 || z >= 1 && k == 1023 && z > 1.99 {
					continue
				}
				tmp := math.Float64bits(x) - logOff
				gi, gk := int(tmp>>45&127), int(int64(tmp)>>52)
				gz := math.Float64frombits(math.Float64bits(x) - tmp&(0xFFF<<52))
				if gi != i || gk != k || gz != z {
					t.Errorf("x = %x: interval %d, k %d, z %x; want %d, %d, %x", x, gi, gk, gz, i, k, z)
				}
			}
		}
	}
}

// bigLogRef is log x at about bigPrec bits, also near 1 (m in [√½, √2), so e = 0 there).
func bigLogRef(x float64) *big.Float {
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m, e = 2*m, e-1
	}
	ln2, _, _ := newBig().Parse("0.69314718055994530941723212145817656807550013436025"+
		"52541206800094933936219696947156058633269964186875", 10)
	X := newBig().SetFloat64(m)
	s := newBig().Quo(newBig().Sub(X, newBig().SetInt64(1)), newBig().Add(X, newBig().SetInt64(1)))
	s2, term, sum := newBig().Mul(s, s), newBig().Set(s), newBig()
	for k := 0; k < 100; k++ {
		sum.Add(sum, newBig().Quo(term, newBig().SetInt64(int64(2*k+1))))
		term.Mul(term, s2)
	}
	sum.Mul(sum, newBig().SetInt64(2))
	return sum.Add(sum, ln2.Mul(ln2, newBig().SetInt64(int64(e))))
}

// relErr is |(y.hi + y.lo) - L| / |L| with L = log x at bigPrec bits.
func relErr(x float64, y dd) float64 {
	L := bigLogRef(x)
	d := newBig().Sub(newBig().Add(newBig().SetFloat64(y.hi), newBig().SetFloat64(y.lo)), L)
	f, _ := d.Quo(d, L).Float64()
	return math.Abs(f)
}

// TestLogErrorBounds measures the relative errors the proof in logfast.go bounds: below
// 2^-65.8 for logApprox and 2^-90 for logDD.
func TestLogErrorBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	libmTables.Do(initLibm) // logDD needs it
	var worstFast, worstSlow float64
	for j := 0; j < n; j++ {
		var x float64
		switch j % 4 {
		case 0: // any positive normal
			x = math.Float64frombits(0x0010000000000000 + r.Uint64N(0x7FE0000000000000))
		case 1: // (0, 1)
			x = r.Float64()
		case 2: // near 1
			x = 1 + (r.Float64()-0.5)*0x1p-5
		default: // near the interval boundaries, where |r| is largest
			x = math.Ldexp(1+float64(r.IntN(128))/128, r.IntN(9)-4) * (1 + (r.Float64()-0.5)*0x1p-40)
		}
		if x == 1 || x < 0x1p-1022 {
			continue
		}
		y, ok := logApprox(x)
		if !ok {
			t.Fatalf("logApprox(%x) not ok", x)
		}
		worstFast = max(worstFast, relErr(x, y))
		worstSlow = max(worstSlow, relErr(x, logDD(x)))
	}
	t.Logf("worst relative error: logApprox 2^%.2f, logDD 2^%.2f", math.Log2(worstFast), math.Log2(worstSlow))
	if worstFast > math.Exp2(-65.8) || worstSlow > 0x1p-90 {
		t.Errorf("worst relative error: logApprox 2^%.2f, logDD 2^%.2f", math.Log2(worstFast), math.Log2(worstSlow))
	}
}

// checkLog fails the test when Log(x) and logSlow(x) differ in any bit (NaNs aside).
func checkLog(t testing.TB, x float64) {
	got, want := Log(x), logSlow(x)
	if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
		t.Fatalf("Log(%x) = %x, logSlow gives %x", x, got, want)
	}
}

// logHardCases are arguments whose log lies close to a rounding midpoint (so that logApprox's
// rounding test must fail), or at which the reduction or the test changes case.
var logHardCases = []float64{
	1, 0, -0.0, -1, math.Inf(1), math.Inf(-1), math.NaN(), 0x1p-1074, 0x1p-1023, 0x1p-1022,
	math.Nextafter(0x1p-1022, 0), math.MaxFloat64, math.Nextafter(1, 0), math.Nextafter(1, 2),
	1 - 0x1p-8, math.Nextafter(1-0x1p-8, 0), 1 + 0x1p-7, math.Nextafter(1+0x1p-7, 0), 2 - 0x1p-7,
	math.Nextafter(2-0x1p-7, 0), 2, 0.5, math.E, 1 / math.E, math.Sqrt2, math.Sqrt2 / 2,
	3, 14, 48, 0.0029129566059952834, 0.08762070257498973, 0.4532763874592346,
	0.6984654660479822, 42.15778609343845, 651.117045683278,
}

// TestLogHardCases checks logHardCases, and arguments near rounding boundaries found by a
// search: logDD's lo at least 0.99 of half an ulp, or its hi a power of two's neighbour.
func TestLogHardCases(t *testing.T) {
	for _, x := range logHardCases {
		checkLog(t, x)
	}
	libmTables.Do(initLibm)
	r := rand.New(rand.NewPCG(5, 6))
	near, fast := 0, 0
	for near < 2000 {
		x := math.Float64frombits(0x0010000000000000 + r.Uint64N(0x7FE0000000000000))
		if r.IntN(2) == 0 {
			x = r.Float64()
		}
		if x == 0 || x == 1 {
			continue
		}
		y := logDD(x)
		h := math.Float64frombits(math.Float64bits(y.hi)&(0x7FF<<52) - 53<<52)
		if math.Abs(y.lo) < 0.99*h {
			continue
		}
		near++
		if a, ok := logApprox(x); ok && logRounds(a) {
			fast++
		}
		checkLog(t, x)
	}
	t.Logf("%d arguments within 1%% of half an ulp of a midpoint: %d took the fast path", near, fast)
}

// TestLogMatchesSlow compares Log with logSlow bit for bit on the arguments Talakat and the
// arcade agents feed it (ratios k/n and coverage-like sums of ratios, integers) and on random
// arguments of every binade, near 1 and near the table's interval boundaries. With
// -log.exhaustive it runs some 10^8 arguments (minutes); by default some 3·10^6.
func TestLogMatchesSlow(t *testing.T) {
	scale := 1
	if *logExhaustive {
		scale = 100
	} else if testing.Short() {
		scale = 0
	}
	n := 300 + 1700*min(scale, 1)
	for d := 1; d <= n*max(scale/100, 1); d++ {
		for k := 1; k <= min(d, n); k++ {
			checkLog(t, float64(k)/float64(d))
		}
	}
	for k := 1; k <= 100000*max(scale, 1); k++ {
		checkLog(t, float64(k))
	}
	r := rand.New(rand.NewPCG(7, 8))
	for j := 0; j < 200000*max(scale, 1); j++ {
		// a coverage cell: a sum of ratios divided by the fight length
		s := 0.0
		for m := r.IntN(6); m >= 0; m-- {
			s += float64(1+r.IntN(40)) / float64(1+r.IntN(400))
		}
		checkLog(t, s/float64(1+r.IntN(3000)))
		checkLog(t, math.Float64frombits(r.Uint64()))
		checkLog(t, math.Float64frombits(0x0010000000000000+r.Uint64N(0x7FE0000000000000)))
		checkLog(t, r.Float64())
		checkLog(t, 1+(r.Float64()-0.5)*math.Ldexp(1, -r.IntN(52)))
		checkLog(t, math.Ldexp(1+float64(r.IntN(129))/128, r.IntN(2100)-1050)*(1+(r.Float64()-0.5)*math.Ldexp(1, -r.IntN(53))))
	}
}

// FuzzLog compares Log with logSlow bit for bit (seed corpus under testdata/fuzz/FuzzLog).
func FuzzLog(f *testing.F) {
	for _, x := range logHardCases {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		checkLog(t, x)
	})
}

func BenchmarkLog(b *testing.B) {
	xs := make([]float64, 1024)
	r := rand.New(rand.NewPCG(9, 10))
	for i := range xs {
		xs[i] = r.Float64()
	}
	b.ResetTimer()
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += Log(xs[i&1023])
	}
	sink = s
}

func BenchmarkLogSlow(b *testing.B) {
	xs := make([]float64, 1024)
	r := rand.New(rand.NewPCG(9, 10))
	for i := range xs {
		xs[i] = r.Float64()
	}
	b.ResetTimer()
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += logSlow(xs[i&1023])
	}
	sink = s
}

var sink float64

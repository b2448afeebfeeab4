package shape

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// glibcValues are results of Debian 12's glibc 2.36 (through CPython's math module) for
// arguments where Go's math package returns a different last bit.
var glibcValues = []struct {
	fn   string
	args []float64
	want float64
}{
	{"log", []float64{3}, 1.0986122886681098},
	{"log", []float64{14}, 2.6390573296152584},
	{"log", []float64{48}, 3.871201010907891},
	{"log", []float64{0.0029129566059952834}, -5.838586697787515},
	{"log", []float64{0.08762070257498973}, -2.4347379781967846},
	{"log", []float64{0.4532763874592346}, -0.7912532127092341},
	{"log", []float64{0.6984654660479822}, -0.35886954166769464},
	{"log", []float64{42.15778609343845}, 3.7414193908390856},
	{"log", []float64{651.117045683278}, 6.478689419723934},
	{"sin", []float64{-18.71909507199146}, 0.1300910896873578},
	{"sin", []float64{-51.39593864852317}, -0.9046067336646635},
	{"sin", []float64{-54.462999308483056}, 0.8703556959399004},
	{"sin", []float64{1.1693705988362006}, 0.9205048534524403},
	{"sin", []float64{18.203784098300858}, -0.6018150231520479},
	{"sin", []float64{30.211649352021844}, -0.9335804264972021},
	{"cos", []float64{-27.139869868511823}, -0.42261826174069805},
	{"cos", []float64{-48.74434108107844}, 0.04963454796102509},
	{"cos", []float64{1.1693705988362006}, 0.39073112848927394},
	{"cos", []float64{24.02273070780364}, 0.44465209314762216},
	{"cos", []float64{25.67379329683659}, 0.8571673007021119},
	{"cos", []float64{4.485496177625427}, -0.22495105434386525},
	{"cos", []float64{math.Pi / 2}, 6.123233995736766e-17},
	{"atan2", []float64{0.13033371286485362, -243.65558761122838}, 3.1410577440409835},
	{"atan2", []float64{100.92900912826718, -314.6536340461081}, 2.8311984118534794},
	{"atan2", []float64{194.6793303989641, -285.55930149844824}, 2.543222035466908},
	{"atan2", []float64{321.5340238112391, -237.92339804344226}, 2.2078429831608513},
	{"atan2", []float64{42.42638133633142, 123.43966823299803}, 0.3310525724569908},
	{"atan2", []float64{513.3825324297836, 365.21016771477804}, 0.9524734087389903},
}

func call(fn string, a []float64) float64 {
	switch fn {
	case "log":
		return Log(a[0])
	case "sin":
		return Sin(a[0])
	case "cos":
		return Cos(a[0])
	}
	return Atan2(a[0], a[1])
}

func TestLibmMatchesGlibc(t *testing.T) {
	for _, tc := range glibcValues {
		if got := call(tc.fn, tc.args); got != tc.want {
			t.Errorf("%s%v = %v, glibc gives %v", tc.fn, tc.args, got, tc.want)
		}
	}
}

func TestLibmSpecialCases(t *testing.T) {
	tests := []struct {
		got, want float64
	}{
		{Log(1), 0}, {Log(math.Inf(1)), math.Inf(1)}, {Log(0), math.Inf(-1)},
		{Sin(0), 0}, {Cos(0), 1}, {Sin(math.Pi / 2), 1}, {Cos(math.Pi), -1},
		{Atan2(0, -1), math.Pi}, {Atan2(1, 0), math.Pi / 2}, {Atan2(-1, 0), -math.Pi / 2},
		{Atan2(1, 1), math.Pi / 4}, {Atan2(-1, -1), -3 * math.Pi / 4},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("case %d: %v, want %v", i, tc.got, tc.want)
		}
	}
	if !math.IsNaN(Log(-1)) || !math.IsNaN(Sin(math.NaN())) || !math.IsNaN(Atan2(math.NaN(), 1)) {
		t.Error("NaN cases")
	}
}

// The results are the correctly rounded values: check random arguments against a 300-bit
// evaluation (glibc agrees with these except for rare arguments within about 0.05 ulp of a
// rounding midpoint, where its own error bound lets it round the other way).
func TestLibmCorrectlyRounded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := 0; i < n; i++ {
		x := (r.Float64() - 0.5) * 100
		y := (r.Float64() - 0.5) * 600
		p := r.Float64() * 1000
		checkCR(t, "sin", x, Sin(x), bigSinCos(x, false))
		checkCR(t, "cos", x, Cos(x), bigSinCos(x, true))
		checkCR(t, "log", p, Log(p), bigLog(p))
		checkCR(t, "atan2", y, Atan2(y, x), bigAtan2(y, x))
	}
}

func checkCR(t *testing.T, fn string, x, got float64, exact *big.Float) {
	t.Helper()
	want, _ := exact.Float64()
	if got != want {
		t.Errorf("%s(%v) = %v, correctly rounded %v", fn, x, got, want)
	}
}

func bigPiValue() *big.Float {
	p, _, _ := newBig().Parse("3.14159265358979323846264338327950288419716939937510"+
		"58209749445923078164062862089986280348253421170679", 10)
	return p
}

func bigSinCos(x float64, cos bool) *big.Float {
	X := newBig().SetFloat64(x)
	if cos {
		X.Sub(newBig().Quo(bigPiValue(), newBig().SetInt64(2)), X)
	}
	twoPi := newBig().Mul(bigPiValue(), newBig().SetInt64(2))
	k, _ := newBig().Quo(X, twoPi).Int(nil)
	X.Sub(X, newBig().Mul(twoPi, newBig().SetInt(k)))
	term, sum, x2 := newBig().Set(X), newBig(), newBig().Mul(X, X)
	for n := 1; n < 200; n += 2 {
		sum.Add(sum, term)
		term.Mul(term, x2)
		term.Quo(term, newBig().SetInt64(int64((n+1)*(n+2))))
		term.Neg(term)
	}
	return sum
}

func bigLog(x float64) *big.Float {
	libmTables.Do(initLibm)
	m, e := math.Frexp(x)
	ln2 := newBig().SetFloat64(ddLn2.hi)
	ln2.Add(ln2, newBig().SetFloat64(ddLn2.lo))
	M := newBig().SetFloat64(m)
	s := newBig().Quo(newBig().Sub(M, newBig().SetInt64(1)), newBig().Add(M, newBig().SetInt64(1)))
	s2, term, sum := newBig().Mul(s, s), newBig().Set(s), newBig()
	for k := 0; k < 200; k++ {
		sum.Add(sum, newBig().Quo(term, newBig().SetInt64(int64(2*k+1))))
		term.Mul(term, s2)
	}
	sum.Mul(sum, newBig().SetInt64(2))
	return sum.Add(sum, newBig().Mul(ln2, newBig().SetInt64(int64(e))))
}

func bigAtan2(y, x float64) *big.Float {
	a, b := newBig().SetFloat64(math.Abs(y)), newBig().SetFloat64(math.Abs(x))
	var r *big.Float
	if a.Cmp(b) <= 0 {
		r = bigAtan(newBig().Quo(a, b))
	} else {
		r = newBig().Sub(newBig().Quo(bigPiValue(), newBig().SetInt64(2)), bigAtan(newBig().Quo(b, a)))
	}
	if x < 0 {
		r = newBig().Sub(bigPiValue(), r)
	}
	if y < 0 {
		r.Neg(r)
	}
	return r
}

func BenchmarkLibm(b *testing.B) {
	for i := 0; i < b.N; i++ {
		x := float64(i%1000) * 0.01
		Sin(x)
		Cos(x)
		Log(x + 1)
		Atan2(x, 3)
	}
}

package shape

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

func TestRewardResolvesArgumentsLikeTheReference(t *testing.T) {
	cases := []struct {
		name string
		got  float64
		want float64
	}{
		{"plateau wins over the lower bound", Reward3(0, 0, 0), 1},
		{"single point above is 0", Reward3(5, 0, 4), 0},
		{"below plateau ramps with 1e-8", Reward3(1, 0, 3), 1 / (3 + 0.00000001)},
		{"four-argument form: above ph is 0", Reward4(9, 0, 2, 5), 0},
		{"inside plateau", Reward4(3, 0, 2, 5), 1},
		{"descending side", Reward(7, 0, 2, 5, 10), (10.0 - 7) / (10 - 5 + 0.00000001)},
		{"at hi", Reward(10, 0, 2, 5, 10), 0},
		{"at lo", Reward(0, 0, 2, 5, 10), 0},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
}

func TestRatioMatchesDifflib(t *testing.T) {
	// Expected values from CPython 3.11 difflib.SequenceMatcher(None, a, b).ratio().
	cases := []struct {
		a, b string
		want float64
	}{
		{"abcd", "bcde", 0.75},
		{"hello", "yellow", 0.7272727272727273},
		{"", "", 1},
		{"abc", "", 0},
		{"1,2|1,3|2,3|", "1,2|2,2|2,3|3,3|", 0.7142857142857143},
		// len(b) >= 200: popular characters are dropped from the index (autojunk) but still
		// extend matches found through the others.
		{strings.Repeat("xxxxabcdexxxxqrs", 3), strings.Repeat("x", 195) + "abcde" + "qrs" + strings.Repeat("x", 10), 0.12260536398467432},
	}
	for _, c := range cases {
		if got := Ratio(c.a, c.b); got != c.want {
			t.Errorf("Ratio(%.20q, %.20q) = %.17g, want %.17g", c.a, c.b, got, c.want)
		}
	}
}

func TestPairwiseSumOrder(t *testing.T) {
	// Below 8 elements: plain left-to-right sum.
	small := []float64{1e16, 1, -1e16, 1}
	seq := 0.0
	for _, v := range small {
		seq += v
	}
	if got := PairwiseSum(small); got != seq || got != 1 {
		t.Errorf("small sum = %v", got)
	}
	// 8..128: eight interleaved partial sums, combined pairwise, then the tail.
	x := make([]float64, 19)
	for i := range x {
		x[i] = 1.0 / float64(i+3)
	}
	var r [8]float64
	copy(r[:], x[:8])
	for k := 0; k < 8; k++ {
		r[k] += x[8+k]
	}
	want := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
	want += x[16]
	want += x[17]
	want += x[18]
	if got := PairwiseSum(x); got != want {
		t.Errorf("blocked sum = %.17g, want %.17g", got, want)
	}
	big := make([]float64, 1000)
	for i := range big {
		big[i] = math.Sqrt(float64(i))
	}
	if got := PairwiseSum(big); got != PairwiseSum(big[:496])+PairwiseSum(big[496:]) {
		t.Error("large sums must split at half rounded down to a multiple of 8")
	}
}

func TestGridHelpers(t *testing.T) {
	// 0 wall, 1 floor.
	g := Grid{W: 5, H: 3, Cells: []int{
		1, 1, 0, 1, 1,
		0, 1, 0, 1, 0,
		1, 1, 1, 1, 0,
	}}
	floor := TilesOf(1)
	if n := Regions(g, floor); n != 1 {
		t.Errorf("regions = %d", n)
	}
	if n := Count(g, floor); n != 10 {
		t.Errorf("count = %d", n)
	}
	d := BFS(g, 0, 0, floor)
	if d[4] != 8 || d[2] != -1 {
		t.Errorf("bfs distances: to (4,0) %d, to wall %d", d[4], d[2])
	}
	path := Backtrack(g.W, g.H, d, 4, 0)
	if len(path) != 9 || path[0] != (Point{0, 0}) || path[8] != (Point{4, 0}) {
		t.Errorf("path = %v", path)
	}
	if lp := LongestPath(g, floor); lp != 8 {
		t.Errorf("longest path = %d", lp)
	}
	if s := RegionSizes(g, []Point{{0, 0}, {1, 1}, {2, 0}}, floor); len(s) != 1 || s[0] != 10 {
		t.Errorf("region sizes = %v (fills that colour nothing are skipped)", s)
	}
	if p := g.Padded(0); p.W != 7 || p.H != 5 || p.At(1, 1) != 1 || p.At(0, 0) != 0 {
		t.Error("padding")
	}
}

func TestRowsCopiesIntoCappedRows(t *testing.T) {
	g := Grid{W: 3, H: 2, Cells: []int{1, 2, 3, 4, 5, 6}}
	rows := g.Rows()
	if len(rows) != 2 || len(rows[0]) != 3 || rows[0][2] != 3 || rows[1][0] != 4 {
		t.Fatalf("rows = %v", rows)
	}
	rows[0][0] = 9
	if g.Cells[0] != 1 {
		t.Error("Rows shares the grid's cells")
	}
	if cap(rows[0]) != 3 {
		t.Errorf("row capacity %d: appending would overwrite the next row", cap(rows[0]))
	}
	if _ = append(rows[0], 7); rows[1][0] != 4 {
		t.Error("appending to a row changed the next one")
	}
	if rows := (Grid{}).Rows(); len(rows) != 0 {
		t.Errorf("empty grid rows = %v", rows)
	}
}

func TestAbsSign(t *testing.T) {
	for _, tc := range []struct{ v, abs, sign int }{{-3, 3, -1}, {0, 0, 0}, {5, 5, 1}} {
		if Abs(tc.v) != tc.abs || Sign(tc.v) != tc.sign {
			t.Errorf("Abs(%d) = %d, Sign = %d", tc.v, Abs(tc.v), Sign(tc.v))
		}
	}
}

// ratioReference is the first port of difflib's matching blocks (a fresh b2j map and j2len
// rows per call): the oracle for RatioSet.
func ratioReference(a, b string) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	var b2j [256][]int
	for j := 0; j < len(b); j++ {
		b2j[b[j]] = append(b2j[b[j]], j)
	}
	if n := len(b); n >= 200 {
		limit := n/100 + 1
		for c := range b2j {
			if len(b2j[c]) > limit {
				b2j[c] = nil
			}
		}
	}
	type span struct{ alo, ahi, blo, bhi int }
	total := 0
	queue := []span{{0, len(a), 0, len(b)}}
	for len(queue) > 0 {
		s := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		bi, bj, bk := s.alo, s.blo, 0
		j2len := map[int]int{}
		for i := s.alo; i < s.ahi; i++ {
			next := map[int]int{}
			for _, j := range b2j[a[i]] {
				if j < s.blo {
					continue
				}
				if j >= s.bhi {
					break
				}
				k := j2len[j-1] + 1
				next[j] = k
				if k > bk {
					bi, bj, bk = i-k+1, j-k+1, k
				}
			}
			j2len = next
		}
		for bi > s.alo && bj > s.blo && a[bi-1] == b[bj-1] {
			bi, bj, bk = bi-1, bj-1, bk+1
		}
		for bi+bk < s.ahi && bj+bk < s.bhi && a[bi+bk] == b[bj+bk] {
			bk++
		}
		if bk > 0 {
			total += bk
			if s.alo < bi && s.blo < bj {
				queue = append(queue, span{s.alo, bi, s.blo, bj})
			}
			if bi+bk < s.ahi && bj+bk < s.bhi {
				queue = append(queue, span{bi + bk, s.ahi, bj + bk, s.bhi})
			}
		}
	}
	return 2 * float64(total) / float64(len(a)+len(b))
}

func TestRatioSetMatchesTheReferencePort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	cases := []struct {
		name      string
		n, maxLen int
		alphabet  string
	}{
		{"short, two letters", 40, 12, "ab"},
		{"routes", 40, 60, "rlduRLDU"},
		{"long with popular bytes", 25, 450, "rrrrrrrrllllduek"},
		{"empty and one letter", 10, 1, "x"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			strs := make([]string, tc.n)
			for i := range strs {
				b := make([]byte, r.IntN(tc.maxLen+1))
				for k := range b {
					b[k] = tc.alphabet[r.IntN(len(tc.alphabet))]
				}
				strs[i] = string(b)
			}
			set := NewRatioSet(strs)
			sc := set.NewScratch()
			for i := range strs {
				for j := range strs {
					want := ratioReference(strs[i], strs[j])
					if got := set.Ratio(i, j, sc); math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("set Ratio(%q, %q) = %v, want %v", strs[i], strs[j], got, want)
					}
					if got := Ratio(strs[i], strs[j]); math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("Ratio(%q, %q) = %v, want %v", strs[i], strs[j], got, want)
					}
				}
			}
		})
	}
}
func TestSparsePairwiseSumIsPairwiseSum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 8, 9, 127, 128, 129, 300, 1000} {
		x := make([]float64, n)
		var pos []int32
		var val []float64
		for i := range x {
			if r.IntN(3) > 0 {
				x[i] = r.Float64() * math.Pow(10, float64(r.IntN(6)))
				pos, val = append(pos, int32(i)), append(val, x[i])
			}
		}
		if a, b := PairwiseSum(x), SparsePairwiseSum(pos, val, n); math.Float64bits(a) != math.Float64bits(b) && !(a == 0 && b == 0) {
			t.Errorf("n=%d: dense %v sparse %v", n, a, b)
		}
	}
}

// routeStrings are Zelda-like route keys: n random walks of up to maxLen points on an 11×7
// room, as "x,y|" per point.
func routeStrings(n, maxLen int) []string {
	r := rand.New(rand.NewPCG(9, 4))
	out := make([]string, n)
	for i := range out {
		x, y := r.IntN(11), r.IntN(7)
		var b []byte
		for range 1 + r.IntN(maxLen) {
			b = fmt.Appendf(b, "%d,%d|", x, y)
			switch r.IntN(4) {
			case 0:
				x = min(x+1, 10)
			case 1:
				x = max(x-1, 0)
			case 2:
				y = min(y+1, 6)
			default:
				y = max(y-1, 0)
			}
		}
		out[i] = string(b)
	}
	return out
}

// BenchmarkRatioRoutes is difflib's ratio of every ordered pair of 100 Zelda-like routes, as
// the plain Ratio (an index per pair) and through one RatioSet.
func BenchmarkRatioRoutes(b *testing.B) {
	strs := routeStrings(100, 20)
	b.Run("Ratio", func(b *testing.B) {
		for range b.N {
			for _, x := range strs {
				for _, y := range strs {
					Ratio(x, y)
				}
			}
		}
	})
	b.Run("RatioSet", func(b *testing.B) {
		set := NewRatioSet(strs)
		sc := set.NewScratch()
		for range b.N {
			for i := range strs {
				for j := range strs {
					set.Ratio(i, j, sc)
				}
			}
		}
	})
}

// FuzzRatio checks the pooled Ratio and a RatioSet (dense and sparse rows, reused scratch)
// against the reference port, bit for bit.
func FuzzRatio(f *testing.F) {
	f.Add("1,2|1,3|2,3|", "1,3|2,3|2,4|")
	f.Add("aabababb", "abaaabbaabb")
	f.Add(strings.Repeat("rl", 120)+"du", strings.Repeat("lr", 90)+"ud")
	f.Fuzz(func(t *testing.T, a, b string) {
		want := ratioReference(a, b)
		if got := Ratio(a, b); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Ratio(%q, %q) = %v, want %v", a, b, got, want)
		}
		set := NewRatioSet([]string{a, b})
		sc := set.NewScratch()
		for k := range 2 { // twice: the scratch must come back clean
			if got := set.Ratio(0, 1, sc); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("pass %d: set Ratio(%q, %q) = %v, want %v", k, a, b, got, want)
			}
		}
	})
}

// A set whose strings repeat memoizes the ratios of distinct strings; goroutines sharing it
// (one scratch each) still get the reference's ratios, bit for bit, in any order.
func TestRatioSetMemoIsExactUnderConcurrency(t *testing.T) {
	base := routeStrings(30, 12)
	strs := append(append(append([]string{}, base...), base[:20]...), base[5:25]...)
	set := NewRatioSet(strs)
	if set.memo == nil {
		t.Fatal("a set with repeated strings has no memo")
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := set.NewScratch()
			for n := range len(strs) * len(strs) {
				k := (n*11 + g*131) % (len(strs) * len(strs)) // a permutation (11 is prime to 70²), each goroutine its own
				i, j := k/len(strs), k%len(strs)
				want := ratioReference(strs[i], strs[j])
				if got := set.Ratio(i, j, sc); math.Float64bits(got) != math.Float64bits(want) {
					errs <- fmt.Sprintf("Ratio(%q, %q) = %v, want %v", strs[i], strs[j], got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if NewRatioSet(base).memo != nil {
		t.Error("a set of distinct strings keeps a memo it cannot use")
	}
}

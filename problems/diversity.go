package problems

import (
	"context"
	"math"
	"math/bits"
	"pcgwb/problems/shape"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// The reference's set diversity removes, one at a time, the item whose row of the similarity
// matrix S = 1 - D (restricted to the items still present) has the largest numpy pairwise sum,
// and stops when that sum is at most 1. Done literally this is O(n³) time and O(n²) memory.
//
// greedy below gives bit-identical results in O(n²) time without the matrix:
//   - rows are kept sparse (only S's non-zero entries; zeros change no partial sum, so a sparse
//     pairwise sum that follows numpy's blocking over the live positions gives the same bits),
//     or, past a memory budget, recomputed from the infos when needed;
//   - each row's sum is followed approximately (one column of S per removal) with a proven
//     rounding bound, and only the rows whose bound reaches the maximum get their exact numpy
//     sum computed, which decides the maximum and its ties;
//   - identical rows (duplicate items) have identical sums under every removal, so only the
//     earliest live member of each group of identical rows is ever a candidate.
// A matrix with a negative similarity breaks the bound: it falls back to the literal algorithm.
// The pairwise diversities come from the problem's DiversityKernel when it has one (features
// prepared once per item, no allocation per pair), else from Diversity.

// maxStoredSimilarities bounds the non-zero similarities kept in memory (12 bytes each); past
// it rows are recomputed from the infos instead.
var maxStoredSimilarities int64 = 24 << 20

// ProgressFunc receives done of total steps of a long computation; it may be nil.
type ProgressFunc func(done, total int)

// simRows gives the entries of S.
type simRows interface {
	// row appends row r's non-zero similarities (columns ascending) to cols and vals.
	row(r int, cols []int32, vals []float64) ([]int32, []float64)
	// column sets dst[k] = S[rows[k]][c].
	column(c int, rows []int32, dst []float64)
}

// matrixRows reads a diversity matrix.
type matrixRows [][]float64

func (m matrixRows) row(r int, cols []int32, vals []float64) ([]int32, []float64) {
	for j, d := range m[r] {
		if s := 1.0 - d; s != 0 {
			cols, vals = append(cols, int32(j)), append(vals, s)
		}
	}
	return cols, vals
}

func (m matrixRows) column(c int, rows []int32, dst []float64) {
	for k, r := range rows {
		dst[k] = 1.0 - m[r][c]
	}
}

// infoRows computes rows from the infos on demand, each worker with its own kernel.
type infoRows struct {
	n       int
	kernels *sync.Pool // of PairKernel
	// symmetric: the kernels are proven to give d(i, j) bit-equal to d(j, i), so the first
	// pass may compute the upper triangle only and mirror it (see scanSymmetric).
	symmetric bool
}

func newInfoRows(p Problem, infos []Info) infoRows {
	mk := Kernels(p, infos)
	sym := false
	if sk, ok := p.(SymmetricDiversityKerneler); ok {
		if _, hasKernel := p.(DiversityKerneler); hasKernel {
			sym = sk.SymmetricDiversityKernel()
		}
	}
	return infoRows{n: len(infos), kernels: &sync.Pool{New: func() any { return mk() }}, symmetric: sym}
}

func (m infoRows) row(r int, cols []int32, vals []float64) ([]int32, []float64) {
	d := m.kernels.Get().(PairKernel)
	for j := 0; j < m.n; j++ {
		if s := 1.0 - d(r, j); s != 0 {
			cols, vals = append(cols, int32(j)), append(vals, s)
		}
	}
	m.kernels.Put(d)
	return cols, vals
}

// columnChunk is the smallest share of a column worth a goroutine of its own.
var columnChunk = 2048

func (m infoRows) column(c int, rows []int32, dst []float64) {
	parts := min(runtime.GOMAXPROCS(0), len(rows)/columnChunk)
	if parts <= 1 {
		d := m.kernels.Get().(PairKernel)
		for k, r := range rows {
			dst[k] = 1.0 - d(int(r), c)
		}
		m.kernels.Put(d)
		return
	}
	var wg sync.WaitGroup
	for w := range parts {
		lo, hi := w*len(rows)/parts, (w+1)*len(rows)/parts
		wg.Go(func() {
			d := m.kernels.Get().(PairKernel)
			for k := lo; k < hi; k++ {
				dst[k] = 1.0 - d(int(rows[k]), c)
			}
			m.kernels.Put(d)
		})
	}
	wg.Wait()
}

// eachIndex runs work on min(GOMAXPROCS, n) goroutines and waits for them to return. They
// share out the indices 0..n-1 through take: each index goes to one goroutine, in increasing
// order, and take reports false once all are taken, ctx is done or stop (when not nil)
// reports true; an index already taken is finished by its goroutine.
//
// Each goroutine keeps its state (a kernel, scratch rows) across the indices it takes. That is
// why errgroup does not serve here: its goroutine per task would make that state per row (or
// pool it). Done so in scanRows, it made 3 times the bytes and 4 times the allocations of
// BenchmarkSetDiversity/n=2000; and these loops return no error for a group to carry.
func eachIndex(ctx context.Context, n int, stop func() bool, work func(take func() (int, bool))) {
	var next atomic.Int64
	take := func() (int, bool) {
		if ctx.Err() != nil || stop != nil && stop() {
			return 0, false
		}
		i := next.Add(1) - 1
		return int(i), i < int64(n)
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() { work(take) })
	}
	wg.Wait()
}

// SymmetricDiversityKerneler is implemented by a DiversityKerneler whose kernels are proven to
// return bit-identical values for (i, j) and (j, i), NaN payloads included, on every set. The
// set diversity then computes each unordered pair once when the rows fit the memory budget,
// halving the first pass; its result is unchanged bit for bit because the mirrored entries
// are exactly the values the full scan would have computed. Declare it only with a proof
// (a reading of the kernel) and a test on random pairs: a kernel that is symmetric only up to
// rounding would silently change results.
type SymmetricDiversityKerneler interface {
	SymmetricDiversityKernel() bool
}

// PairKernel returns Diversity(infos[i], infos[j]) of the set it was made for.
type PairKernel func(i, j int) float64

// Kernels returns a constructor of pair kernels over infos: the problem's DiversityKernel
// when it has one, else calls of Diversity. Each kernel is for one goroutine at a time.
func Kernels(p Problem, infos []Info) func() PairKernel {
	if dk, ok := p.(DiversityKerneler); ok {
		if mk := dk.DiversityKernel(infos); mk != nil {
			return func() PairKernel { return mk() }
		}
	}
	return func() PairKernel {
		return func(i, j int) float64 { return p.Diversity(infos[i], infos[j]) }
	}
}

// maxKeyedDiversities bounds the table of diversities between distinct keys (8 bytes each).
const maxKeyedDiversities = 2048 * 2048

// keyedRows reads rows from a table of the diversities between distinct DiversityKeys.
type keyedRows struct {
	key   []int32   // key index of each item
	table []float64 // k×k diversities between the keys' first items
	k     int
}

func (m *keyedRows) row(r int, cols []int32, vals []float64) ([]int32, []float64) {
	t := m.table[int(m.key[r])*m.k:]
	for j, kj := range m.key {
		if s := 1.0 - t[kj]; s != 0 {
			cols, vals = append(cols, int32(j)), append(vals, s)
		}
	}
	return cols, vals
}

func (m *keyedRows) column(c int, rows []int32, dst []float64) {
	kc := int(m.key[c])
	for k, r := range rows {
		dst[k] = 1.0 - m.table[int(m.key[r])*m.k+kc]
	}
}

// diversityRows picks how to read the similarity rows of infos: through a table of distinct
// keys when p has them and they are few enough, else pair by pair.
func diversityRows(ctx context.Context, p Problem, infos []Info) (simRows, error) {
	dk, ok := p.(DiversityKeyer)
	if !ok {
		return newInfoRows(p, infos), nil
	}
	ids := map[string]int32{}
	var reps []Info
	key := make([]int32, len(infos))
	for i, in := range infos {
		k := dk.DiversityKey(in)
		id, seen := ids[k]
		if !seen {
			id = int32(len(reps))
			ids[k] = id
			reps = append(reps, in)
		}
		key[i] = id
	}
	k := len(reps)
	if k*k > maxKeyedDiversities || k*2 > len(infos) {
		return newInfoRows(p, infos), nil
	}
	table := make([]float64, k*k)
	mk := Kernels(p, reps)
	eachIndex(ctx, k, nil, func(take func() (int, bool)) {
		d := mk()
		for a, ok := take(); ok; a, ok = take() {
			for b := range reps {
				table[a*k+b] = d(a, b)
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &keyedRows{key: key, table: table, k: k}, nil
}

// storedRows keeps every row's non-zero entries.
type storedRows struct {
	cols [][]int32
	vals [][]float64
}

func (m *storedRows) row(r int, cols []int32, vals []float64) ([]int32, []float64) {
	return append(cols, m.cols[r]...), append(vals, m.vals[r]...)
}

func (m *storedRows) column(c int, rows []int32, dst []float64) {
	for k, r := range rows {
		dst[k] = 0
		if i, ok := slices.BinarySearch(m.cols[r], int32(c)); ok {
			dst[k] = m.vals[r][i]
		}
	}
}

// rowScan is what the first pass learns of a row over all columns.
type rowScan struct {
	sum      float64
	positive int
	hash     [2]uint64
	negative bool
}

// rowHash is a 128-bit hash of a row's (column, value) entries: two independent 64-bit
// multiply-rotate chains over a splitmix64-finalized word per entry, inline because a
// hash.Hash call per entry cost more than the diversity kernels themselves.
type rowHash struct{ a, b uint64 }

func (h *rowHash) add(c int32, v float64) {
	x := math.Float64bits(v) ^ uint64(uint32(c))*0x9E3779B97F4A7C15
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	h.a = bits.RotateLeft64(h.a^x, 29)*0xFF51AFD7ED558CCD + 1
	h.b = bits.RotateLeft64(h.b+x, 41)*0xC4CEB9FE1A85EC53 ^ uint64(uint32(c))
}

// scanOf is what the first pass learns of one row: its numpy sum over n columns, its positive
// count and hash, and whether it holds a negative or NaN similarity.
func scanOf(cols []int32, vals []float64, n int) rowScan {
	sc := rowScan{}
	var h rowHash
	for k, c := range cols {
		if vals[k] > 0 {
			sc.positive++
		} else if vals[k] < 0 || math.IsNaN(vals[k]) {
			sc.negative = true
		}
		h.add(c, vals[k])
	}
	sc.hash = [2]uint64{h.a, h.b}
	sc.sum = shape.SparsePairwiseSum(cols, vals, n)
	return sc
}

// scanRows reads every row once (in parallel), returning each row's full pairwise sum, its
// positive count and hash, and, when they fit the budget, the rows themselves.
func scanRows(ctx context.Context, n int, src simRows, store bool, progress ProgressFunc) ([]rowScan, *storedRows, error) {
	if ir, ok := src.(infoRows); ok && ir.symmetric && store {
		scans, st, err := scanSymmetric(ctx, n, ir, progress)
		if err != nil || st != nil {
			return scans, st, err
		}
		// Over the budget: the rows cannot be kept, so mirroring has nothing to mirror into.
	}
	scans := make([]rowScan, n)
	var st *storedRows
	if store {
		st = &storedRows{cols: make([][]int32, n), vals: make([][]float64, n)}
	}
	var stored atomic.Int64
	var overBudget atomic.Bool
	var done int
	var mu sync.Mutex
	eachIndex(ctx, n, nil, func(take func() (int, bool)) {
		var cols []int32
		var vals []float64
		for r, ok := take(); ok; r, ok = take() {
			cols, vals = src.row(r, cols[:0], vals[:0])
			scans[r] = scanOf(cols, vals, n)
			if st != nil && !overBudget.Load() {
				if stored.Add(int64(len(cols))) > maxStoredSimilarities {
					overBudget.Store(true)
				} else {
					st.cols[r] = append([]int32(nil), cols...)
					st.vals[r] = append([]float64(nil), vals...)
				}
			}
			if progress != nil {
				// Counted under the lock that orders the calls, so the reports only rise.
				mu.Lock()
				done++
				progress(done, n)
				mu.Unlock()
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if overBudget.Load() {
		st = nil
	}
	return scans, st, nil
}

// scanSymmetric is scanRows for a symmetric kernel: it computes the diagonal and the upper
// triangle (each unordered pair once), mirrors it into full rows and scans those. The full
// rows are the same entries, in the same column order, that row-by-row reading gives, so
// the sums, counts and hashes are bit-identical. It returns a nil store (and no error) when
// the rows would exceed maxStoredSimilarities; the caller then scans row by row.
func scanSymmetric(ctx context.Context, n int, src infoRows, progress ProgressFunc) ([]rowScan, *storedRows, error) {
	upCols := make([][]int32, n)
	upVals := make([][]float64, n)
	diag := make([]float64, n)
	var stored atomic.Int64
	stored.Add(int64(n)) // a diagonal entry per row, at most
	var overBudget atomic.Bool
	var done int
	var mu sync.Mutex
	// Row r costs n-r pairs: rows r and n-1-r together cost about n, so the units are even.
	units := (n + 1) / 2
	eachIndex(ctx, units, overBudget.Load, func(take func() (int, bool)) {
		d := src.kernels.Get().(PairKernel)
		defer src.kernels.Put(d)
		var cols []int32
		var vals []float64
		for u, ok := take(); ok; u, ok = take() {
			for _, r := range [2]int{u, n - 1 - u} {
				if overBudget.Load() {
					break
				}
				cols, vals = cols[:0], vals[:0]
				diag[r] = 1.0 - d(r, r)
				for j := r + 1; j < n; j++ {
					if s := 1.0 - d(r, j); s != 0 {
						cols, vals = append(cols, int32(j)), append(vals, s)
					}
				}
				// Each upper entry is stored twice (in its row and mirrored).
				if stored.Add(2*int64(len(cols))) > maxStoredSimilarities {
					overBudget.Store(true)
					break
				}
				upCols[r] = slices.Clone(cols)
				upVals[r] = slices.Clone(vals)
				if progress != nil {
					mu.Lock()
					done++
					progress(done, n)
					mu.Unlock()
				}
				if u == n-1-u {
					break // the middle row of an odd n
				}
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if overBudget.Load() {
		return nil, nil, nil
	}
	// Row c's entries in column order: the mirrored (i, c) for i < c, then the diagonal, then
	// its upper part. Rows are sized exactly first so that no append reallocates.
	size := make([]int, n)
	for r := 0; r < n; r++ {
		size[r] += len(upCols[r])
		if diag[r] != 0 {
			size[r]++
		}
		for _, c := range upCols[r] {
			size[c]++
		}
	}
	st := &storedRows{cols: make([][]int32, n), vals: make([][]float64, n)}
	for r := 0; r < n; r++ {
		st.cols[r] = make([]int32, 0, size[r])
		st.vals[r] = make([]float64, 0, size[r])
	}
	for r := 0; r < n; r++ {
		// Every row i < r has already put its (i, r) entry into row r.
		if diag[r] != 0 {
			st.cols[r] = append(st.cols[r], int32(r))
			st.vals[r] = append(st.vals[r], diag[r])
		}
		st.cols[r] = append(st.cols[r], upCols[r]...)
		st.vals[r] = append(st.vals[r], upVals[r]...)
		for k, c := range upCols[r] {
			st.cols[c] = append(st.cols[c], int32(r))
			st.vals[c] = append(st.vals[c], upVals[r][k])
		}
		upCols[r], upVals[r] = nil, nil
	}
	scans := make([]rowScan, n)
	workers := min(runtime.GOMAXPROCS(0), max(units, 1))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for r := w; r < n; r += workers {
				scans[r] = scanOf(st.cols[r], st.vals[r], n)
			}
		})
	}
	wg.Wait()
	return scans, st, nil
}

// fenwick counts the live items below an index.
type fenwick []int32

func newFenwick(n int) fenwick {
	f := make(fenwick, n+1)
	for i := 1; i <= n; i++ {
		f[i]++
		if j := i + (i & -i); j <= n {
			f[j] += f[i]
		}
	}
	return f
}

func (f fenwick) remove(i int) {
	for i++; i < len(f); i += i & -i {
		f[i]--
	}
}

// rank is the number of live items with index < i.
func (f fenwick) rank(i int) int {
	s := int32(0)
	for ; i > 0; i -= i & -i {
		s += f[i]
	}
	return int(s)
}

// group is a set of identical rows; members are removed in order, so rep is the earliest
// live one. Identical rows have identical sums under every removal, so only rep is ever a
// candidate.
type group struct {
	members []int
	rep     int     // index into members
	approx  float64 // the row's sum over the live columns, within slack of the exact one
	base    float64 // the exact sum approx last started from: it bounds every later partial sum
	subs    int     // subtractions applied to approx since base
	exactAt int     // removals done when approx was the exact (numpy) sum; -1 when it is not
	amount  int     // positive entries among the live columns, valid when exact
}

// unitRoundoff is float64's u = 2⁻⁵³.
const unitRoundoff = 0x1p-53

// slack bounds |approx - exact| for a group whose approx is not exact at this epoch. numpy's
// pairwise sum of m non-negative terms is within (log2 m + 24)·u of their true sum (8
// sequential accumulators over blocks of at most 128, then halving), base bounds every term
// sum, and each subtraction adds at most u·base; the bound is doubled for safety.
func (g *group) slack(logN int) float64 {
	return 2 * float64(2*(logN+24)+g.subs+2) * unitRoundoff * g.base
}

// greedy is the reference's _recursiveDiversity over n items whose similarity rows src gives.
//
// Each live row keeps an approximate sum: its exact sum from the first pass, minus the
// similarity to each removed item (one column read per removal). The exact numpy sum is
// within slack of it, so each step computes the exact sum only of the rows whose interval can
// reach the best lower bound; those exact sums decide the maximum and its ties exactly as the
// reference's argmax does. The work is O(n) per removal plus one row per candidate.
func greedy(ctx context.Context, n int, src simRows, store bool, progress ProgressFunc) ([]float64, error) {
	if n == 0 {
		return []float64{}, nil
	}
	scans, st, err := scanRows(ctx, n, src, store, progress)
	if err != nil {
		return nil, err
	}
	for _, sc := range scans {
		if sc.negative {
			return greedyLiteral(n, src), nil
		}
	}
	if st != nil {
		src = st
	}
	// Groups of identical rows, in order of their first member.
	byHash := map[[2]uint64]int{}
	var groups []*group
	for r, sc := range scans {
		if id, ok := byHash[sc.hash]; ok {
			groups[id].members = append(groups[id].members, r)
			continue
		}
		byHash[sc.hash] = len(groups)
		groups = append(groups, &group{members: []int{r}, approx: sc.sum, base: sc.sum, amount: sc.positive})
	}
	live := make([]int, len(groups)) // group ids with a live member, ascending
	for i := range live {
		live[i] = i
	}
	logN := bits.Len(uint(n))
	alive := newFenwick(n)
	removed := make([]bool, n)
	epoch := 0
	var cols []int32
	var vals []float64
	var pos []int32
	var pv []float64
	exact := func(g *group) {
		r := g.members[g.rep]
		cols, vals = src.row(r, cols[:0], vals[:0])
		pos, pv = pos[:0], pv[:0]
		amount := 0
		for k, c := range cols {
			ci := int(c)
			if removed[ci] {
				continue
			}
			pos = append(pos, int32(alive.rank(ci)))
			pv = append(pv, vals[k])
			if vals[k] > 0 {
				amount++
			}
		}
		s := shape.SparsePairwiseSum(pos, pv, n-epoch)
		g.approx, g.base, g.subs, g.exactAt, g.amount = s, s, 0, epoch, amount
	}
	for _, g := range groups {
		g.exactAt = 0
	}
	type removal struct {
		at    int
		value float64
	}
	var removals []removal
	var reps []int32
	var column []float64
	var candidates []int
	for len(live) > 0 {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// The best exact sum is at least the largest lower bound; only rows whose upper bound
		// reaches it can be the maximum.
		lower := math.Inf(-1)
		for _, id := range live {
			g := groups[id]
			lo := g.approx
			if g.exactAt != epoch {
				lo -= g.slack(logN)
			}
			lower = max(lower, lo)
		}
		candidates = candidates[:0]
		for _, id := range live {
			g := groups[id]
			hi := g.approx
			if g.exactAt != epoch {
				hi += g.slack(logN)
			}
			if hi >= lower {
				candidates = append(candidates, id)
			}
		}
		best := -1
		for _, id := range candidates {
			g := groups[id]
			if g.exactAt != epoch {
				exact(g)
			}
			if best < 0 || g.approx > groups[best].approx ||
				g.approx == groups[best].approx && g.members[g.rep] < groups[best].members[groups[best].rep] {
				best = id
			}
		}
		b := groups[best]
		if b.approx <= 1 {
			break
		}
		r := b.members[b.rep]
		v := min(max(1-(b.approx-1)/float64(b.amount), 0.0), 1.0)
		removals = append(removals, removal{at: r, value: v})
		alive.remove(r)
		removed[r] = true
		epoch++
		b.rep++
		if b.rep == len(b.members) {
			k := 0
			for _, id := range live {
				if id != best {
					live[k] = id
					k++
				}
			}
			live = live[:k]
		}
		// Take the removed column out of every live row's sum.
		reps = reps[:0]
		for _, id := range live {
			g := groups[id]
			reps = append(reps, int32(g.members[g.rep]))
		}
		column = slices.Grow(column[:0], len(reps))[:len(reps)]
		src.column(r, reps, column)
		for k, id := range live {
			if s := column[k]; s != 0 {
				g := groups[id]
				g.approx -= s
				g.subs++
			}
		}
	}
	out := make([]float64, n-len(removals), n)
	for i := range out {
		out[i] = 1.0
	}
	for k := len(removals) - 1; k >= 0; k-- {
		at := removals[k].at
		if at >= len(out) {
			out = append(out, removals[k].value)
			continue
		}
		out = append(out, 0)
		copy(out[at+1:], out[at:])
		out[at] = removals[k].value
	}
	return out, nil
}

// greedyLiteral is the reference's algorithm step by step on the dense matrix (used only when
// a similarity is negative, where the rounding bounds of greedy do not hold).
func greedyLiteral(n int, src simRows) []float64 {
	sim := make([][]float64, n)
	var cols []int32
	var vals []float64
	for r := range sim {
		sim[r] = make([]float64, n)
		cols, vals = src.row(r, cols[:0], vals[:0])
		for k, c := range cols {
			sim[r][c] = vals[k]
		}
	}
	alive := make([]int, n)
	for i := range alive {
		alive[i] = i
	}
	type removal struct {
		at    int
		value float64
	}
	var removals []removal
	row := make([]float64, n)
	for len(alive) > 0 {
		best, bestR := 0.0, -1
		for r, ri := range alive {
			row = row[:0]
			for _, cj := range alive {
				row = append(row, sim[ri][cj])
			}
			if s := shape.PairwiseSum(row); bestR < 0 || s > best {
				best, bestR = s, r
			}
		}
		if best <= 1 {
			break
		}
		ri := alive[bestR]
		amount := 0
		for _, cj := range alive {
			if sim[ri][cj] > 0 {
				amount++
			}
		}
		removals = append(removals, removal{at: ri, value: min(max(1-(best-1)/float64(amount), 0.0), 1.0)})
		alive = append(alive[:bestR], alive[bestR+1:]...)
	}
	out := make([]float64, len(alive), n)
	for i := range out {
		out[i] = 1.0
	}
	for k := len(removals) - 1; k >= 0; k-- {
		at := removals[k].at
		if at >= len(out) {
			out = append(out, removals[k].value)
			continue
		}
		out = append(out, 0)
		copy(out[at+1:], out[at:])
		out[at] = removals[k].value
	}
	return out
}

// RatioKernel is a DiversityKernel for problems whose diversity of infos i and j is
// diversity(i, j, shape.Ratio(keys[i], keys[j])): each string's difflib index is built once
// for the set.
func RatioKernel(keys []string, diversity func(i, j int, ratio float64) float64) func() func(i, j int) float64 {
	set := shape.NewRatioSet(keys)
	return func() func(i, j int) float64 {
		sc := set.NewScratch()
		return func(i, j int) float64 { return diversity(i, j, set.Ratio(i, j, sc)) }
	}
}

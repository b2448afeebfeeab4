package problems

import (
	"container/heap"
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"pcgwb/problems/shape"
	"runtime"
	"sync"
	"sync/atomic"
)

// The reference's set diversity removes, one at a time, the item whose row of the similarity
// matrix S = 1 - D (restricted to the items still present) has the largest numpy pairwise sum,
// and stops when that sum is at most 1. Done literally this is O(n³) time and O(n²) memory.
//
// greedy below gives bit-identical results in far less:
//   - rows are kept sparse (only S's non-zero entries; zeros change no partial sum, so a sparse
//     pairwise sum that follows numpy's blocking over the live positions gives the same bits),
//     or, past a memory budget, recomputed from the infos when needed;
//   - a row's sum, once computed, bounds its later sums from above (S >= 0 and removals only
//     take terms away; the bound allows for rounding), so a max-heap of possibly stale sums
//     finds the maximum after recomputing only the rows that could reach it (lazy greedy);
//   - identical rows (duplicate items) have identical sums under every removal, so only the
//     earliest live member of each group of identical rows is ever a candidate.
// A matrix with a negative similarity breaks the bound: it falls back to the literal algorithm.

// maxStoredSimilarities bounds the non-zero similarities kept in memory (12 bytes each); past
// it rows are recomputed from the infos instead.
var maxStoredSimilarities int64 = 24 << 20

// staleSlack is the relative allowance for rounding between two pairwise sums of the same
// non-negative terms (numpy's error bound is well under 100 ulp for any realistic n).
const staleSlack = 1e-12

// ProgressFunc receives done of total steps of a long computation; it may be nil.
type ProgressFunc func(done, total int)

// simRows gives the non-zero entries of S's rows over all n columns.
type simRows interface {
	// row appends row r's non-zero similarities (columns ascending) to cols and vals.
	row(r int, cols []int32, vals []float64) ([]int32, []float64)
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

// infoRows computes rows from the infos on demand.
type infoRows struct {
	p     Problem
	infos []Info
}

func (m infoRows) row(r int, cols []int32, vals []float64) ([]int32, []float64) {
	for j, b := range m.infos {
		if s := 1.0 - m.p.Diversity(m.infos[r], b); s != 0 {
			cols, vals = append(cols, int32(j)), append(vals, s)
		}
	}
	return cols, vals
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

// diversityRows picks how to read the similarity rows of infos: through a table of distinct
// keys when p has them and they are few enough, else pair by pair.
func diversityRows(ctx context.Context, p Problem, infos []Info) (simRows, error) {
	dk, ok := p.(DiversityKeyer)
	if !ok {
		return infoRows{p: p, infos: infos}, nil
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
		return infoRows{p: p, infos: infos}, nil
	}
	table := make([]float64, k*k)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), k); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for a := range next {
				for b := range reps {
					table[a*k+b] = p.Diversity(reps[a], reps[b])
				}
			}
		}()
	}
feed:
	for a := 0; a < k; a++ {
		select {
		case <-ctx.Done():
			break feed
		case next <- a:
		}
	}
	close(next)
	wg.Wait()
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

// rowScan is what the first pass learns of a row over all columns.
type rowScan struct {
	sum      float64
	positive int
	hash     [2]uint64
	negative bool
}

// scanRows reads every row once (in parallel), returning each row's full pairwise sum, its
// positive count and hash, and, when they fit the budget, the rows themselves.
func scanRows(ctx context.Context, n int, src simRows, store bool, progress ProgressFunc) ([]rowScan, *storedRows, error) {
	scans := make([]rowScan, n)
	var st *storedRows
	if store {
		st = &storedRows{cols: make([][]int32, n), vals: make([][]float64, n)}
	}
	var stored atomic.Int64
	var overBudget atomic.Bool
	var done atomic.Int64
	var mu sync.Mutex
	next := make(chan int)
	workers := min(runtime.GOMAXPROCS(0), max(n, 1))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var cols []int32
			var vals []float64
			dense := make([]float64, n)
			for r := range next {
				cols, vals = src.row(r, cols[:0], vals[:0])
				clear(dense)
				sc := rowScan{}
				h := fnv.New128a()
				var buf [12]byte
				for k, c := range cols {
					dense[c] = vals[k]
					if vals[k] > 0 {
						sc.positive++
					} else if vals[k] < 0 || math.IsNaN(vals[k]) {
						sc.negative = true
					}
					binary.LittleEndian.PutUint32(buf[:4], uint32(c))
					binary.LittleEndian.PutUint64(buf[4:], math.Float64bits(vals[k]))
					_, _ = h.Write(buf[:])
				}
				sum := h.Sum(nil)
				sc.hash = [2]uint64{binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:])}
				sc.sum = shape.PairwiseSum(dense)
				scans[r] = sc
				if st != nil && !overBudget.Load() {
					if stored.Add(int64(len(cols))) > maxStoredSimilarities {
						overBudget.Store(true)
					} else {
						st.cols[r] = append([]int32(nil), cols...)
						st.vals[r] = append([]float64(nil), vals...)
					}
				}
				if progress != nil {
					d := int(done.Add(1))
					mu.Lock()
					progress(d, n)
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for r := 0; r < n; r++ {
		select {
		case <-ctx.Done():
			break feed
		case next <- r:
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if overBudget.Load() {
		st = nil
	}
	return scans, st, nil
}

// pairwiseSparse is shape.PairwiseSum of a length-n vector that is zero except at the ascending
// positions pos (relative to lo) with values val. Adding a zero changes no partial sum, so
// the result has the same bits.
func pairwiseSparse(pos []int, val []float64, lo, n int) float64 {
	if len(pos) == 0 {
		return 0
	}
	switch {
	case n < 8:
		s := 0.0
		for _, v := range val {
			s += v
		}
		return s
	case n <= 128:
		var r [8]float64
		full := n - n%8
		k := 0
		for ; k < len(pos) && pos[k]-lo < full; k++ {
			r[(pos[k]-lo)%8] += val[k]
		}
		s := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; k < len(pos); k++ {
			s += val[k]
		}
		return s
	}
	h := n / 2
	h -= h % 8
	k := 0
	for k < len(pos) && pos[k] < lo+h {
		k++
	}
	return pairwiseSparse(pos[:k], val[:k], lo, h) + pairwiseSparse(pos[k:], val[k:], lo+h, n-h)
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
// live one.
type group struct {
	members []int
	rep     int // index into members
	sum     float64
	epoch   int // removals done when sum was computed
	amount  int // positive entries among the live columns, valid when fresh
}

type groupHeap struct {
	g   []*group
	ids []int
}

func (h *groupHeap) Len() int { return len(h.ids) }
func (h *groupHeap) Less(a, b int) bool {
	ga, gb := h.g[h.ids[a]], h.g[h.ids[b]]
	if ga.sum != gb.sum {
		return ga.sum > gb.sum
	}
	return ga.members[ga.rep] < gb.members[gb.rep]
}
func (h *groupHeap) Swap(a, b int) { h.ids[a], h.ids[b] = h.ids[b], h.ids[a] }
func (h *groupHeap) Push(x any)    { h.ids = append(h.ids, x.(int)) }
func (h *groupHeap) Pop() any {
	x := h.ids[len(h.ids)-1]
	h.ids = h.ids[:len(h.ids)-1]
	return x
}

// greedy is the reference's _recursiveDiversity over n items whose similarity rows src gives.
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
		groups = append(groups, &group{members: []int{r}, sum: sc.sum, amount: sc.positive})
	}
	h := &groupHeap{g: groups, ids: make([]int, len(groups))}
	for i := range h.ids {
		h.ids[i] = i
	}
	heap.Init(h)
	live := newFenwick(n)
	removed := make([]bool, n)
	epoch := 0
	var cols []int32
	var vals []float64
	var pos []int
	var pv []float64
	refresh := func(g *group) {
		r := g.members[g.rep]
		cols, vals = src.row(r, cols[:0], vals[:0])
		pos, pv = pos[:0], pv[:0]
		amount := 0
		for k, c := range cols {
			ci := int(c)
			if removed[ci] {
				continue
			}
			pos = append(pos, live.rank(ci))
			pv = append(pv, vals[k])
			if vals[k] > 0 {
				amount++
			}
		}
		g.sum, g.epoch, g.amount = pairwiseSparse(pos, pv, 0, n-epoch), epoch, amount
	}
	type removal struct {
		at    int
		value float64
	}
	var removals []removal
	var fresh []int
	for h.Len() > 0 {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// Find the live group with the largest exact sum, the earliest row among ties.
		best := -1
		fresh = fresh[:0]
		for h.Len() > 0 {
			top := h.g[h.ids[0]]
			// A sum computed before later removals bounds the current one from above, up to
			// rounding; a fresh sum is exact. Popping fresh ones a little below is harmless.
			if best >= 0 && top.sum+math.Abs(top.sum)*staleSlack < groups[best].sum {
				break
			}
			id := heap.Pop(h).(int)
			g := groups[id]
			if g.epoch != epoch {
				refresh(g)
				heap.Push(h, id)
				continue
			}
			fresh = append(fresh, id)
			if best < 0 || g.sum > groups[best].sum || g.sum == groups[best].sum && g.members[g.rep] < groups[best].members[groups[best].rep] {
				best = id
			}
		}
		for _, id := range fresh {
			if id != best {
				heap.Push(h, id)
			}
		}
		b := groups[best]
		if b.sum <= 1 {
			heap.Push(h, best)
			break
		}
		r := b.members[b.rep]
		v := min(max(1-(b.sum-1)/float64(b.amount), 0.0), 1.0)
		removals = append(removals, removal{at: r, value: v})
		live.remove(r)
		removed[r] = true
		epoch++
		b.rep++
		if b.rep < len(b.members) {
			heap.Push(h, best) // its old sum still bounds the next member's
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
// a similarity is negative, where the lazy bounds do not hold).
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

package shape

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// Ratio is Python's difflib.SequenceMatcher(None, a, b).ratio() with autojunk on: 2*M/(|a|+|b|)
// where M is the total size of the matching blocks. The popular-element rule (|b| >= 200) is
// kept because path strings in Zelda regularly exceed 200 characters.
func Ratio(a, b string) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	w := ratioPool.Get().(*ratioWork)
	w.strs[0] = b
	w.set.index(w.strs[:])
	w.sc.fit(&w.set)
	m := w.set.matches(a, 0, &w.sc)
	w.strs[0] = ""
	ratioPool.Put(w)
	return 2 * float64(m) / float64(len(a)+len(b))
}

// ratioWork is one Ratio call's index and scratch, pooled: a fresh index per call (its tables,
// allocated and then collected) cost more than the matching itself for the short strings
// Zelda and MiniDungeons compare.
type ratioWork struct {
	set  RatioSet
	sc   RatioScratch
	strs [1]string
}

var ratioPool = sync.Pool{New: func() any { return new(ratioWork) }}

// RatioSet holds difflib's index of the second sequence (b2j: the positions of each byte,
// popular bytes dropped) for each of a set of strings. difflib caches it per second sequence
// too (set_seq2); built once per string, the n² ratios of a set cost no index and no
// allocation each.
type RatioSet struct {
	strs  []string
	alpha [256]int32 // byte → symbol; symbol 0 is "in no string" and has no positions
	syms  int        // symbols, including 0
	off   []int32    // string i's symbol c has the positions pos[off[i*(syms+1)+c] : off[i*(syms+1)+c+1]]
	pos   []int32
	long  int      // the longest string's length
	bytes []uint64 // per string, the symbols it holds (when there are at most 64)
	// count and next are index's working rows, kept for reuse.
	count, next []int32
	// When strings repeat, uid numbers the distinct ones and memo keeps the ratio of each
	// ordered pair of distinct strings once computed (its float bits + 1; 0 is "not yet").
	// A GA's population repeats many strings (Zelda's routes, MiniDungeons' event strings).
	uid  []int32
	nuid int
	memo []atomic.Uint64
}

// maxRatioMemo bounds the memo of a set (8 bytes an entry).
const maxRatioMemo = 1 << 20

// NewRatioSet indexes strs.
func NewRatioSet(strs []string) *RatioSet {
	s := &RatioSet{}
	s.index(strs)
	ids := make(map[string]int32, len(strs))
	s.uid = make([]int32, len(strs))
	for i, b := range strs {
		id, ok := ids[b]
		if !ok {
			id = int32(len(ids))
			ids[b] = id
		}
		s.uid[i] = id
	}
	if s.nuid = len(ids); s.nuid < len(strs) && s.nuid*s.nuid <= maxRatioMemo {
		s.memo = make([]atomic.Uint64, s.nuid*s.nuid)
	}
	return s
}

// index (re)builds the set for strs, reusing the set's storage.
func (s *RatioSet) index(strs []string) {
	clear(s.alpha[:])
	s.strs, s.syms, s.long = strs, 1, 0
	for _, b := range strs {
		s.long = max(s.long, len(b))
		for k := 0; k < len(b); k++ {
			if s.alpha[b[k]] == 0 {
				s.alpha[b[k]] = int32(s.syms)
				s.syms++
			}
		}
	}
	s.bytes = s.bytes[:0]
	if s.syms <= 64 {
		s.bytes = slices.Grow(s.bytes, len(strs))[:len(strs)]
		clear(s.bytes)
		for i, b := range strs {
			for k := 0; k < len(b); k++ {
				s.bytes[i] |= 1 << s.alpha[b[k]]
			}
		}
	}
	stride := s.syms + 1
	s.off = slices.Grow(s.off[:0], len(strs)*stride)[:len(strs)*stride]
	s.pos = s.pos[:0]
	count := slices.Grow(s.count[:0], s.syms)[:s.syms]
	next := s.next
	for i, b := range strs {
		clear(count)
		for k := 0; k < len(b); k++ {
			count[s.alpha[b[k]]]++
		}
		if n := len(b); n >= 200 {
			// difflib's autojunk: a byte in more than 1% of a long b is dropped from b2j.
			limit := int32(n/100 + 1)
			for c := range count {
				if count[c] > limit {
					count[c] = -1
				}
			}
		}
		off := s.off[i*stride : (i+1)*stride]
		at := int32(len(s.pos))
		for c := 0; c < s.syms; c++ {
			off[c] = at
			at += max(count[c], 0)
		}
		off[s.syms] = at
		s.pos = slices.Grow(s.pos, int(at)-len(s.pos))[:at]
		next = append(next[:0], off[:s.syms]...)
		for k := 0; k < len(b); k++ {
			if c := s.alpha[b[k]]; count[c] >= 0 {
				s.pos[next[c]] = int32(k)
				next[c]++
			}
		}
	}
	s.count, s.next = count, next
}

// RatioScratch is one goroutine's working space for RatioSet.Ratio.
type RatioScratch struct {
	prev, cur       []int32
	prevSet, curSet []int32
	queue           []span
}

type span struct{ alo, ahi, blo, bhi int }

// NewScratch gives working space for any pair of the set.
func (s *RatioSet) NewScratch() *RatioScratch {
	sc := &RatioScratch{}
	sc.fit(s)
	return sc
}

// fit makes the scratch large enough for any pair of s. Its rows are all zero between
// matches calls (matches clears what it set), so only growth needs fresh zeros.
func (sc *RatioScratch) fit(s *RatioSet) {
	if len(sc.prev) < s.long+1 {
		sc.prev, sc.cur = make([]int32, s.long+1), make([]int32, s.long+1)
	}
}

// Ratio is Ratio(strs[i], strs[j]) (j is difflib's second sequence), bit for bit. It is safe
// for concurrent use with one scratch per goroutine.
func (s *RatioSet) Ratio(i, j int, sc *RatioScratch) float64 {
	a, b := s.strs[i], s.strs[j]
	if len(a)+len(b) == 0 {
		return 1
	}
	if s.bytes != nil && s.bytes[i]&s.bytes[j] == 0 {
		return 0 // no byte in common: no comparison of difflib's can match
	}
	if s.memo == nil {
		return 2 * float64(s.matches(a, j, sc)) / float64(len(a)+len(b))
	}
	slot := &s.memo[int(s.uid[i])*s.nuid+int(s.uid[j])]
	if v := slot.Load(); v != 0 {
		return math.Float64frombits(v - 1)
	}
	r := 2 * float64(s.matches(a, j, sc)) / float64(len(a)+len(b))
	slot.Store(math.Float64bits(r) + 1)
	return r
}

// matches is the total size of difflib's matching blocks of a against string j: the longest
// match (earliest in a, then in b, among equals), extended over dropped bytes, then the same
// recursively left and right of it.
func (s *RatioSet) matches(a string, j int, sc *RatioScratch) int {
	b := s.strs[j]
	stride := s.syms + 1
	off := s.off[j*stride : (j+1)*stride]
	total := 0
	queue := append(sc.queue[:0], span{0, len(a), 0, len(b)})
	for len(queue) > 0 {
		sp := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		var bi, bj, bk int
		if sp.bhi-sp.blo <= denseWidth {
			bi, bj, bk = s.longestDense(a, off, sp, sc)
		} else {
			bi, bj, bk = s.longestSparse(a, off, sp, sc)
		}
		for bi > sp.alo && bj > sp.blo && a[bi-1] == b[bj-1] {
			bi, bj, bk = bi-1, bj-1, bk+1
		}
		for bi+bk < sp.ahi && bj+bk < sp.bhi && a[bi+bk] == b[bj+bk] {
			bk++
		}
		if bk > 0 {
			total += bk
			if sp.alo < bi && sp.blo < bj {
				queue = append(queue, span{sp.alo, bi, sp.blo, bj})
			}
			if bi+bk < sp.ahi && bj+bk < sp.bhi {
				queue = append(queue, span{bi + bk, sp.ahi, bj + bk, sp.bhi})
			}
		}
	}
	sc.queue = queue[:0]
	return total
}

// denseWidth is the widest b range whose j2len rows are cleared whole after each row of a;
// wider ranges clear only the entries they set. Both give the same rows: clearing a short row
// is cheaper than keeping the list of what to clear, which was half of Zelda's matching.
const denseWidth = 128

// positionsIn is the positions of a symbol in b from blo on (the list is ascending; difflib
// walks it from the start and skips those below blo, with the same result).
func positionsIn(pos []int32, blo int) []int32 {
	if blo == 0 || len(pos) == 0 || int(pos[0]) >= blo {
		return pos
	}
	i, _ := slices.BinarySearch(pos, int32(blo))
	return pos[i:]
}

// longestDense is difflib's find_longest_match loop over the span (before the extension) with
// j2len as two dense rows indexed from blo-1, both all zero on entry and on return.
func (s *RatioSet) longestDense(a string, off []int32, sp span, sc *RatioScratch) (bi, bj, bk int) {
	w := sp.bhi - sp.blo
	prev, cur := sc.prev[:w+1], sc.cur[:w+1]
	bi, bj = sp.alo, sp.blo
	for i := sp.alo; i < sp.ahi; i++ {
		c := s.alpha[a[i]]
		for _, x := range positionsIn(s.pos[off[c]:off[c+1]], sp.blo) {
			jj := int(x)
			if jj >= sp.bhi {
				break
			}
			t := jj - sp.blo + 1
			k := prev[t-1] + 1
			cur[t] = k
			if int(k) > bk {
				bi, bj, bk = i-int(k)+1, jj-int(k)+1, int(k)
			}
		}
		clear(prev)
		prev, cur = cur, prev
	}
	clear(prev)
	return bi, bj, bk
}

// longestSparse is longestDense for wide spans: j2len as two rows indexed by j that are
// cleared through the lists of their non-zeros.
func (s *RatioSet) longestSparse(a string, off []int32, sp span, sc *RatioScratch) (bi, bj, bk int) {
	prev, cur := sc.prev, sc.cur
	prevSet, curSet := sc.prevSet[:0], sc.curSet[:0]
	bi, bj = sp.alo, sp.blo
	for i := sp.alo; i < sp.ahi; i++ {
		curSet = curSet[:0]
		c := s.alpha[a[i]]
		for _, x := range positionsIn(s.pos[off[c]:off[c+1]], sp.blo) {
			jj := int(x)
			if jj >= sp.bhi {
				break
			}
			k := int32(1)
			if jj > 0 {
				k = prev[jj-1] + 1
			}
			cur[jj] = k
			curSet = append(curSet, x)
			if int(k) > bk {
				bi, bj, bk = i-int(k)+1, jj-int(k)+1, int(k)
			}
		}
		for _, x := range prevSet {
			prev[x] = 0
		}
		for _, x := range curSet {
			prev[x] = cur[x]
			cur[x] = 0
		}
		prevSet, curSet = curSet, prevSet
	}
	for _, x := range prevSet {
		prev[x] = 0
	}
	sc.prevSet, sc.curSet = prevSet[:0], curSet[:0]
	return bi, bj, bk
}

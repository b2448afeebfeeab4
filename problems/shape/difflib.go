package shape

import "slices"

// Ratio is Python's difflib.SequenceMatcher(None, a, b).ratio() with autojunk on: 2*M/(|a|+|b|)
// where M is the total size of the matching blocks. The popular-element rule (|b| >= 200) is
// kept because path strings in Zelda regularly exceed 200 characters.
func Ratio(a, b string) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	s := NewRatioSet([]string{b})
	return 2 * float64(s.matches(a, 0, s.NewScratch())) / float64(len(a)+len(b))
}

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
}

// NewRatioSet indexes strs.
func NewRatioSet(strs []string) *RatioSet {
	s := &RatioSet{strs: strs, syms: 1}
	for _, b := range strs {
		s.long = max(s.long, len(b))
		for k := 0; k < len(b); k++ {
			if s.alpha[b[k]] == 0 {
				s.alpha[b[k]] = int32(s.syms)
				s.syms++
			}
		}
	}
	if s.syms <= 64 {
		s.bytes = make([]uint64, len(strs))
		for i, b := range strs {
			for k := 0; k < len(b); k++ {
				s.bytes[i] |= 1 << s.alpha[b[k]]
			}
		}
	}
	stride := s.syms + 1
	s.off = make([]int32, len(strs)*stride)
	count := make([]int32, s.syms)
	var next []int32
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
	return s
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
	return &RatioScratch{prev: make([]int32, s.long+1), cur: make([]int32, s.long+1)}
}

// Ratio is Ratio(strs[i], strs[j]) (j is difflib's second sequence), bit for bit.
func (s *RatioSet) Ratio(i, j int, sc *RatioScratch) float64 {
	a, b := s.strs[i], s.strs[j]
	if len(a)+len(b) == 0 {
		return 1
	}
	if s.bytes != nil && s.bytes[i]&s.bytes[j] == 0 {
		return 0 // no byte in common: no comparison of difflib's can match
	}
	return 2 * float64(s.matches(a, j, sc)) / float64(len(a)+len(b))
}

// matches is the total size of difflib's matching blocks of a against string j: the longest
// match (earliest in a, then in b, among equals), extended over dropped bytes, then the same
// recursively left and right of it.
func (s *RatioSet) matches(a string, j int, sc *RatioScratch) int {
	b := s.strs[j]
	stride := s.syms + 1
	off := s.off[j*stride : (j+1)*stride]
	// j2len of difflib, as two dense rows that are cleared through the sets of their non-zeros.
	prev, cur := sc.prev[:len(b)+1], sc.cur[:len(b)+1]
	prevSet, curSet := sc.prevSet[:0], sc.curSet[:0]
	total := 0
	queue := append(sc.queue[:0], span{0, len(a), 0, len(b)})
	for len(queue) > 0 {
		sp := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		bi, bj, bk := sp.alo, sp.blo, 0
		for _, x := range prevSet {
			prev[x] = 0
		}
		prevSet = prevSet[:0]
		for i := sp.alo; i < sp.ahi; i++ {
			curSet = curSet[:0]
			c := s.alpha[a[i]]
			for _, x := range s.pos[off[c]:off[c+1]] {
				jj := int(x)
				if jj < sp.blo {
					continue
				}
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
	for _, x := range prevSet {
		prev[x] = 0
	}
	sc.prevSet, sc.curSet, sc.queue = prevSet[:0], curSet[:0], queue[:0]
	return total
}

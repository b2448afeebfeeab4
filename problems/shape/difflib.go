package shape

// Ratio is Python's difflib.SequenceMatcher(None, a, b).ratio() with autojunk on: 2*M/(|a|+|b|)
// where M is the total size of the matching blocks. The popular-element rule (|b| >= 200) is
// kept because path strings in Zelda regularly exceed 200 characters.
func Ratio(a, b string) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	return 2 * float64(matches(a, b)) / float64(len(a)+len(b))
}

func matches(a, b string) int {
	// b2j: positions of each byte in b, ascending; popular bytes removed.
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
	// j2len maps b positions to run lengths; two reusable dense rows replace the dicts.
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	var prevSet, curSet []int
	for len(queue) > 0 {
		s := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		bi, bj, bk := s.alo, s.blo, 0
		for _, j := range prevSet {
			prev[j] = 0
		}
		prevSet = prevSet[:0]
		for i := s.alo; i < s.ahi; i++ {
			curSet = curSet[:0]
			for _, j := range b2j[a[i]] {
				if j < s.blo {
					continue
				}
				if j >= s.bhi {
					break
				}
				k := 1
				if j > 0 {
					k = prev[j-1] + 1
				}
				cur[j] = k
				curSet = append(curSet, j)
				if k > bk {
					bi, bj, bk = i-k+1, j-k+1, k
				}
			}
			for _, j := range prevSet {
				prev[j] = 0
			}
			for _, j := range curSet {
				prev[j] = cur[j]
				cur[j] = 0
			}
			prevSet, curSet = curSet, prevSet
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
	return total
}

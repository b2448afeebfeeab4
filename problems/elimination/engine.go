package elimination

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"pcgwb/problems/data"
)

// maxLetters bounds the packed word keys: 5 bits per letter in a uint64.
const maxLetters = 12

// lexicon is the reference's dictionary and frequency table, reduced to what a puzzle of
// letters a-z can ever look up: words of 3..maxLetters lower-case letters, packed into keys.
type lexicon struct {
	words map[uint64]wordInfo
	// prefix3 marks the packed 3-letter prefixes of the words: most subsets of a random
	// letter row start with a prefix no word has, and this 4 KB bitset rejects them before
	// the map is consulted.
	prefix3 [1 << 15 / 64]uint64
}

func (lex *lexicon) add(key uint64, length int, w wordInfo) {
	lex.words[key] = w
	p := key >> (5 * uint(length-3))
	lex.prefix3[p/64] |= 1 << (p % 64)
}

func (lex *lexicon) hasPrefix(p uint64) bool { return lex.prefix3[p/64]&(1<<(p%64)) != 0 }

// wordInfo: rank is the word's line index in count.txt over the line count (the reference's
// "loc"); common says whether the word is in count.txt at all.
type wordInfo struct {
	rank   float64
	common bool
}

// pack encodes a word of lower-case ASCII letters (1..26 per 5 bits); ok is false for any other
// character or a word too long to pack. Lengths are implied, since no letter encodes as 0.
func pack(w string) (uint64, bool) {
	if len(w) > maxLetters {
		return 0, false
	}
	var k uint64
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c < 'a' || c > 'z' {
			return 0, false
		}
		k = k<<5 | uint64(c-'a'+1)
	}
	return k, true
}

var words = data.NewLazy(loadLexicon)

func loadLexicon() (*lexicon, error) {
	dict, err := data.ReadFile("elimination/dictionary.txt")
	if err != nil {
		return nil, err
	}
	counts, err := data.ReadFile("elimination/count.txt")
	if err != nil {
		return nil, err
	}
	return parseLexicon(dict, counts)
}

// parseLexicon applies the reference's reading rules. Dictionary: every line loses its last
// character (meant to be the newline, so the final line, which has none, loses a letter: the
// reference's "ZZZ" becomes "zz" and drops out), is stripped and lower-cased, and is kept with
// at least 3 characters and no '-' or '.'. Counts: line i of n gives rank i/n to its word when
// the word has at least 3 characters and is in the dictionary; a later duplicate overwrites.
func parseLexicon(dict, counts []byte) (*lexicon, error) {
	// Only words a puzzle can spell (lower-case a-z, at most maxLetters) are kept, so the
	// dictionary test of count.txt is done on the packed keys; other words are never looked up.
	lex := &lexicon{words: make(map[uint64]wordInfo, 1<<17)}
	for _, l := range data.Lines(dict) {
		_, size := utf8.DecodeLastRuneInString(l)
		w := strings.ToLower(strings.TrimSpace(l[:len(l)-size]))
		if len(w) < 3 || strings.ContainsAny(w, "-.") {
			continue
		}
		if k, ok := pack(w); ok {
			lex.add(k, len(w), wordInfo{rank: 2.0})
		}
	}
	if len(lex.words) == 0 {
		return nil, fmt.Errorf("elimination/dictionary.txt: no words")
	}
	lines := data.Lines(counts)
	n := float64(len(lines))
	for i, l := range lines {
		word, rest, ok := strings.Cut(l, "\t")
		if !ok {
			return nil, fmt.Errorf("elimination/count.txt line %d: no tab", i+1)
		}
		count, _, _ := strings.Cut(rest, "\t")
		if _, err := strconv.ParseInt(strings.TrimSpace(count), 10, 64); err != nil {
			return nil, fmt.Errorf("elimination/count.txt line %d: %v", i+1, err)
		}
		w := strings.ToLower(strings.TrimSpace(word))
		if len(w) < 3 {
			continue
		}
		k, ok := pack(w)
		if !ok {
			continue
		}
		if _, inDict := lex.words[k]; inDict {
			lex.add(k, len(w), wordInfo{rank: float64(i) * 1.0 / n, common: true})
		}
	}
	return lex, nil
}

// Record is one word found in the puzzle, the reference's tuple (word, seq, common, loc):
// Seq is the longest run of consecutive kept letters of the subset that spelled it, Common 1
// when the word has a frequency rank, Loc that rank (2.0 without one).
type Record struct {
	Word   string
	Seq    int
	Common int
	Loc    float64
}

// MarshalJSON writes the reference's tuple as a list.
func (r Record) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 48)
	b = append(b, '[')
	b = strconv.AppendQuote(b, r.Word)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Seq), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Common), 10)
	b = append(b, ',')
	b = strconv.AppendFloat(b, r.Loc, 'g', -1, 64)
	return append(b, ']'), nil
}

// findWords enumerates the subsets of the letters the way the reference does: i from 0 to
// 2^n-1 read as n bits, most significant first (bit set = letter kept), skipping subsets that
// keep more than n-2 letters. Every subset spelling a dictionary word is recorded, so a word
// reachable through different subsets appears several times. byLen[k] collects words of
// length k+3 in enumeration order.
func (lex *lexicon) findWords(letters []int, byLen [][]Record) int {
	n := len(letters)
	total := 0
	// keys[i] is subset i's packed word, built from the subset without its lowest bit (whose
	// letter, the last kept one, is appended).
	var keysBuf [1 << 10]uint64
	keys := keysBuf[:]
	if n > 10 {
		keys = make([]uint64, 1<<n)
	}
	for i := 1; i < 1<<n; i++ {
		pos := n - 1 - bits.TrailingZeros(uint(i))
		keys[i] = keys[i&(i-1)]<<5 | uint64(letters[pos]+1)
		kept := bits.OnesCount(uint(i))
		// Shorter subsets cannot be dictionary words (all have at least 3 letters).
		if kept > n-2 || kept < 3 {
			continue
		}
		if !lex.hasPrefix(keys[i] >> (5 * uint(kept-3))) {
			continue
		}
		w, ok := lex.words[keys[i]]
		if !ok {
			continue
		}
		var buf [maxLetters]byte
		j, seq, run := 0, 0, 0
		for pos := 0; pos < n; pos++ {
			if i>>(n-1-pos)&1 == 0 {
				run = 0
				continue
			}
			buf[j] = byte('a' + letters[pos])
			j++
			run++
			seq = max(seq, run)
		}
		r := Record{Word: string(buf[:j]), Seq: seq, Loc: 2.0}
		if w.common {
			r.Common, r.Loc = 1, w.rank
		}
		byLen[kept-3] = append(byLen[kept-3], r)
		total++
	}
	return total
}

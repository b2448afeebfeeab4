package birds

import (
	"strings"
	"unicode/utf16"
)

// The 2023 qualification check (the organisers' qualification-checking script on npm
// words-count 2.0.2): a prompt qualifies when it has at most MaxPromptWords words as that
// package counts them, only allowed characters, and the <OBJECT> placeholder.

// MaxPromptWords is the 2023 word limit.
const MaxPromptWords = 900

// ObjectToken is the placeholder the organisers replace by the target letter.
const ObjectToken = "<OBJECT>"

// Qualification is the 2023 check of one prompt.
type Qualification struct {
	Words int `json:"wordCount"`
	// Chars is the prompt's length in UTF-16 code units (JavaScript's String.length).
	Chars int `json:"charCount"`
	// Disallowed lists the disallowed characters found, each once, in order of appearance.
	Disallowed []rune `json:"-"`
	HasObject  bool   `json:"containsObject"`
	Qualified  bool   `json:"qualified"`
}

// Reasons says why a prompt does not qualify (empty when it does).
func (q *Qualification) Reasons() []string {
	var r []string
	if q.Words > MaxPromptWords {
		r = append(r, "more than 900 words")
	}
	if len(q.Disallowed) > 0 {
		r = append(r, "disallowed characters")
	}
	if !q.HasObject {
		r = append(r, "no <OBJECT>")
	}
	return r
}

// Qualify runs the 2023 check on a prompt's text.
func Qualify(text string) *Qualification {
	q := &Qualification{Words: WordCount(text), Chars: len(utf16.Encode([]rune(text))), HasObject: strings.Contains(text, ObjectToken)}
	q.Disallowed = DisallowedChars(text)
	q.Qualified = q.Words <= MaxPromptWords && len(q.Disallowed) == 0 && q.HasObject
	return q
}

// allowedASCII are the ASCII symbols the 2023 rules allow besides letters, digits and spaces.
const allowedASCII = "~/\\+,-*`'\".!@#$%^&()_=[]{}|<>:;?"

func allowedChar(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	case r == ' ', r == '\t', r == '\r', r == '\n', r == '\u2014', r == '\u2018', r == '\u2019', r == '\u201c', r == '\u201d':
		return true
	}
	return r < 0x80 && strings.ContainsRune(allowedASCII, r)
}

// jsSpaceRune is JavaScript's \s (and what String.prototype.trim removes).
func jsSpaceRune(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// DisallowedChars is the organisers' check: delete every allowed character, trim JavaScript
// whitespace from both ends, and whatever is left is disallowed (so a prompt whose only odd
// characters are Unicode spaces at the ends passes, as it did).
func DisallowedChars(text string) []rune {
	var left []rune
	for _, r := range text {
		if !allowedChar(r) {
			left = append(left, r)
		}
	}
	for len(left) > 0 && jsSpaceRune(left[0]) {
		left = left[1:]
	}
	for len(left) > 0 && jsSpaceRune(left[len(left)-1]) {
		left = left[:len(left)-1]
	}
	var out []rune
	seen := map[rune]bool{}
	for _, r := range left {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// wordPunctuation is what words-count deletes before counting.
const wordPunctuation = ",.:;[]{}()<>$!?~'\"*/\\&%@#^\uff0c\u3002\uff1a\uff1b\u3010\u3011\uff5b\uff5d\uff08\uff09\u300a\u300b\uffe5\uff01\uff1f\uff5e\u2019\u201c\u201d\u3001"

// WordCount counts words as npm words-count 2.0.2 does (the 2023 qualification's count).
func WordCount(text string) int {
	if strings.TrimFunc(text, jsSpaceRune) == "" {
		return 0
	}
	var b []rune
	for _, r := range text {
		if strings.ContainsRune(wordPunctuation, r) || r >= 0xff00 && r <= 0xffef || r >= 0x2000 && r <= 0x206f {
			continue
		}
		b = append(b, r)
	}
	// Only the first run of whitespace becomes one space.
	for i := 0; i < len(b); i++ {
		if jsSpaceRune(b[i]) {
			j := i
			for j < len(b) && jsSpaceRune(b[j]) {
				j++
			}
			b = append(append(append([]rune{}, b[:i]...), ' '), b[j:]...)
			break
		}
	}
	count := 0
	for _, piece := range strings.Split(string(b), " ") {
		if strings.TrimFunc(piece, jsSpaceRune) == "" {
			continue
		}
		if n := wordMatches([]rune(piece)); n > 0 {
			count += n
		} else {
			count++
		}
	}
	return count
}

func wordDigit(r rune) bool { return r >= '0' && r <= '9' }

func wordLetter(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0xc0 && r <= 0x2af || r >= 0x1e00 && r <= 0x1eff ||
		r >= 0x400 && r <= 0x52f || r >= 0xd00 && r <= 0xd7f
}

func wordCJK(r rune) bool {
	for _, rg := range [...][2]rune{{0x2e80, 0x2fdf}, {0x3000, 0x303f}, {0x3040, 0x30ff}, {0x3130, 0x319f}, {0x31c0, 0x31ff},
		{0x3200, 0x4dbf}, {0x4e00, 0x9fff}, {0xf900, 0xfaff}, {0x1100, 0x11ff}, {0xa960, 0xa97f}, {0xac00, 0xd7ff}} {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// wordMatches counts the non-overlapping matches, left to right, of a digit run, a letter run
// or one CJK character.
func wordMatches(p []rune) int {
	n := 0
	for i := 0; i < len(p); {
		switch {
		case wordDigit(p[i]):
			for i < len(p) && wordDigit(p[i]) {
				i++
			}
			n++
		case wordLetter(p[i]):
			for i < len(p) && wordLetter(p[i]) {
				i++
			}
			n++
		case wordCJK(p[i]):
			i++
			n++
		default:
			i++
		}
	}
	return n
}

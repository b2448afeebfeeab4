package birds

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// DropBlock is the function name of the 2024 and 2025 competitions; AbDrop the one of 2023.
const (
	DropBlock = "drop_block"
	AbDrop    = "ab_drop"
)

// MaxResponseBytes bounds the answer text extraction accepts. Real answers are a few kilobytes
// (the 2024 rules cap a whole trial at 25,000 tokens); the bound keeps hostile input cheap.
const MaxResponseBytes = 4 << 20

// ErrCodeNotFound is the organisers' "Code not found." failure: no fenced block, or no literal
// call in the last one. The trial is then dropped from every later stage.
var ErrCodeNotFound = errors.New("Code not found.")

// ErrTooLarge reports input beyond the package's size bounds.
var ErrTooLarge = errors.New("input too large")

// fencedBlock is the organisers' /```([^`]+)```/g: the pairing is purely lexical, so a single
// backtick inside a block makes it unmatchable and a language tag is just part of the content.
var fencedBlock = regexp.MustCompile("```[^`]+```")

var callPatterns sync.Map // prefix → *regexp.Regexp

// callPattern is the organisers' `${prefix}\(['|"]b[1|3][1|3]['|"], *\d*\)`. The character
// classes really contain '|' (a common regex slip in the original), which is why b|1 and '|'
// quotes pass extraction and fail later. The original splices the prefix into the pattern
// unescaped; both real prefixes have no metacharacters, so quoting changes nothing for them.
func callPattern(prefix string) *regexp.Regexp {
	if re, ok := callPatterns.Load(prefix); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(regexp.QuoteMeta(prefix) + `\(['|"]b[13|][13|]['|"], *[0-9]*\)`)
	callPatterns.Store(prefix, re)
	return re
}

// ExtractCode returns the normalised drop_block program of an answer exactly as the organisers'
// extractCode(text, "drop_block") does: the last fenced block, every literal call in it (also
// inside comments or strings, several per line), double quotes turned into single quotes, one
// call per line, lower-cased. Loops and variables are not executed — a call whose argument is a
// variable simply does not match.
func ExtractCode(text string) (string, error) { return ExtractCodePrefix(text, DropBlock) }

// ExtractCodePrefix is ExtractCode for another function name (AbDrop for 2023 answers).
func ExtractCodePrefix(text, prefix string) (string, error) {
	if len(text) > MaxResponseBytes {
		return "", fmt.Errorf("%w: answer of %d bytes (limit %d)", ErrTooLarge, len(text), MaxResponseBytes)
	}
	blocks := fencedBlock.FindAllStringIndex(text, -1)
	if len(blocks) == 0 {
		return "", ErrCodeNotFound
	}
	last := blocks[len(blocks)-1]
	code := text[last[0]:last[1]]
	var out strings.Builder
	for _, call := range callPattern(prefix).FindAllString(code, -1) {
		out.WriteString(strings.ReplaceAll(call, `"`, `'`))
		out.WriteByte('\n')
	}
	if out.Len() == 0 {
		return "", ErrCodeNotFound
	}
	// Every matched character is ASCII, so ASCII lower-casing equals JavaScript's toLowerCase.
	return asciiLower(out.String()), nil
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

package core

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable makes script text safe to show on a terminal: every control character except the
// line feed and the tab (escape sequences that retitle or clear the terminal, a carriage
// return that overwrites a line, bidirectional overrides that reorder it) and every invalid
// UTF-8 byte is written as a visible Go escape (\x1b, \r, \u202e). Text without such
// characters is returned unchanged.
func Printable(s string) string { return escapeText(s, false) }

// PrintableLine is Printable for text shown on one line: the line feed and the tab are
// escaped too, so a script cannot start a line of its own (a fake "verdict: accepted").
func PrintableLine(s string) string { return escapeText(s, true) }

func escapeText(s string, oneLine bool) string {
	clean := true
	for i, r := range s {
		if r == utf8.RuneError || needsEscape(r, oneLine) {
			if r != utf8.RuneError || isInvalid(s, i) {
				clean = false
				break
			}
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && isInvalid(s, i):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case needsEscape(r, oneLine):
			switch {
			case r == '\n':
				b.WriteString(`\n`)
			case r == '\t':
				b.WriteString(`\t`)
			case r == '\r':
				b.WriteString(`\r`)
			case r < 0x100:
				fmt.Fprintf(&b, `\x%02x`, r)
			default:
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isInvalid(s string, i int) bool {
	r, n := utf8.DecodeRuneInString(s[i:])
	return r == utf8.RuneError && n <= 1
}

// needsEscape: C0 and C1 controls, DEL, and the format characters that change how a terminal
// orders or hides text (bidirectional overrides and isolates, zero-width characters).
func needsEscape(r rune, oneLine bool) bool {
	if r == '\n' || r == '\t' {
		return oneLine
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

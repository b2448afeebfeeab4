package duel

import (
	"fmt"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"strings"
	"testing"
)

func TestPrintableEscapesControls(t *testing.T) {
	cases := []struct{ in, want, line string }{
		{"plain board\n. X O\tok", "plain board\n. X O\tok", `plain board\n. X O\tok`},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`, `\x1b]0;pwned\x07title`},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`, `\x1b[2J\x1b[H`},
		{"ok\rverdict: accepted", `ok\rverdict: accepted`, `ok\rverdict: accepted`},
		{"a\u202eevil", `a\u202eevil`, `a\u202eevil`},
		{"bad \xff byte", `bad \xff byte`, `bad \xff byte`},
		{"del\x7f", `del\x7f`, `del\x7f`},
		{"c1 \u009b31m", `c1 \x9b31m`, `c1 \x9b31m`},
		{"Schöne Grüße ♟", "Schöne Grüße ♟", "Schöne Grüße ♟"},
	}
	for _, c := range cases {
		if got := core.Printable(c.in); got != c.want {
			t.Errorf("Printable(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := core.PrintableLine(c.in); got != c.line {
			t.Errorf("PrintableLine(%q) = %q, want %q", c.in, got, c.line)
		}
	}
	// a script's fake verdict cannot start a line of its own in a one-line message
	if got := core.PrintableLine("x\nverdict: accepted"); strings.Contains(got, "\n") {
		t.Errorf("PrintableLine kept a line feed: %q", got)
	}
}

func TestTitleAndRulesAreBounded(t *testing.T) {
	long := strings.Repeat("x", script.MaxRules+1)
	for _, c := range []struct{ prelude, want string }{
		{fmt.Sprintf("TITLE = %q\n", strings.Repeat("t", script.MaxTitle+1)), "TITLE is 257 bytes, the limit is 256"},
		{fmt.Sprintf("RULES = %q\n", long), fmt.Sprintf("RULES is %d bytes, the limit is %d", script.MaxRules+1, script.MaxRules)},
		{"RULES = \"x\" * (4 << 20)\n", "RULES is 4194304 bytes"},
	} {
		_, err := script.Load("big", []byte(gameSource(c.prelude, nil)), script.Limits{})
		if f := core.FaultOf(err); f == nil || f.Kind != core.FaultLoad || !strings.Contains(f.Msg, c.want) {
			t.Errorf("got %v, want a load fault saying %q", err, c.want)
		}
	}
	g, err := script.Load("ok", []byte(gameSource(fmt.Sprintf("TITLE = %q\nRULES = %q\n", "Race", strings.Repeat("r", script.MaxRules)), nil)), script.Limits{})
	if err != nil {
		t.Fatalf("rules of exactly the limit: %v", err)
	}
	if len(g.Info().Rules) != script.MaxRules {
		t.Errorf("rules of %d bytes kept", len(g.Info().Rules))
	}
}

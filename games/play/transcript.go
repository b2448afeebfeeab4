package play

import (
	"fmt"
	"strings"
)

// Playthrough plays keys through a session on g, as a script does (one key every
// ScriptInterval ticks), and returns an OpenSpiel-style transcript: the initial state, then
// every key with the state it led to, then the outcome. Tests compare it with golden files.
func Playthrough(name string, g Game, keys []Key) string {
	var b strings.Builder
	s := NewSession(name, g, false)
	fmt.Fprintf(&b, "game: %s\ncontrols: %s\nscript: %s\n\n", name, s.Controls(), FormatScript(keys))
	writeState := func(n int) {
		fmt.Fprintf(&b, "state %d:\n%s", n, g.Text())
		if t := g.Text(); t != "" && !strings.HasSuffix(t, "\n") {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "hud: %s\nstatus: %s\n", g.HUD(), g.Status())
	}
	writeState(0)
	n := 0
	s.OnFeed = func(k Key) {
		n++
		fmt.Fprintf(&b, "\nkey %d: %s\n", n, k)
		writeState(n)
	}
	s.SetScript(keys)
	for !s.FeedDone() {
		s.Tick()
	}
	fmt.Fprintf(&b, "\nresult: %s after %d keys\n", g.Status(), n)
	return b.String()
}

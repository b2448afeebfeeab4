package app

import (
	"strings"

	"pcgwb/games/duel/core"
)

// Bounds of what the tab shows of a game's TITLE and RULES. The sandbox refuses longer ones
// (script.MaxTitle, script.MaxRules); the tab clips again so that no script can make it lay out
// script-sized text.
const (
	maxTitleRunes = 200
	maxRulesRunes = 16 << 10
)

// gameText is the title and rules the tab shows of a game, bounded and unwrapped: computed
// by the job, off the UI goroutine.
func gameText(info core.Info) (title, rules string) {
	title = strings.Join(strings.Fields(info.Title), " ")
	if title == "" {
		title = info.Name
	}
	return clipRunes(title, maxTitleRunes), unwrapLines(clipRunes(info.Rules, maxRulesRunes))
}

// clipRunes cuts s to at most n runes, marking the cut with "…".
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// unwrapLines joins the hard-wrapped lines of a rulebook's paragraphs, so the label wraps them
// to its own width.
func unwrapLines(text string) string {
	paras := strings.Split(strings.TrimSpace(text), "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(paras, "\n\n")
}

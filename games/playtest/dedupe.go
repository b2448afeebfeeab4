package playtest

import (
	"encoding/json"
	"fmt"

	"pcgwb/problems"
)

// dedupe keeps the levels taken so far with their infos, to leave out a candidate that repeats
// one: the same problem and content (an exact duplicate), or, when threshold is above 0, a
// similarity (1 − the problem's own diversity of the two infos) at or above threshold (a
// near-duplicate).
type dedupe struct {
	threshold float64
	taken     []takenLevel
	dropped   []Dropped
}

type takenLevel struct {
	l       Level
	content string
	p       problems.Problem
	info    problems.Info
}

// repeats says which taken level l repeats ("" when none) and records l as taken otherwise.
func (d *dedupe) repeats(p problems.Problem, l Level) (string, error) {
	data, err := json.Marshal(l.Item.Content)
	if err != nil {
		return "", err
	}
	var info problems.Info
	for _, t := range d.taken {
		if t.l.Problem != l.Problem {
			continue
		}
		if t.content == string(data) {
			return "the same level as " + describe(t.l), nil
		}
		if info == nil {
			if info, err = p.Info(l.Item.Content); err != nil {
				return "", fmt.Errorf("%s: %w", describe(l), err)
			}
		}
		if d.threshold <= 0 {
			continue
		}
		if sim := 1 - p.Diversity(t.info, info); sim >= d.threshold {
			return fmt.Sprintf("a near-duplicate of %s (similarity %.3f, the problem's diversity %.3f; at least %.3f is left out)",
				describe(t.l), sim, 1-sim, d.threshold), nil
		}
	}
	if info == nil && d.threshold > 0 {
		if info, err = p.Info(l.Item.Content); err != nil {
			return "", fmt.Errorf("%s: %w", describe(l), err)
		}
	}
	d.taken = append(d.taken, takenLevel{l: l, content: string(data), p: p, info: info})
	return "", nil
}

// drop records a candidate left out.
func (d *dedupe) drop(l Level, reason string) {
	d.dropped = append(d.dropped, Dropped{Source: l.Source, Index: l.Index, ID: l.Item.ID, Reason: reason})
}

// describe names a candidate by its source and index: "runs/ga #2".
func describe(l Level) string { return fmt.Sprintf("%s #%d", l.Source, l.Index) }

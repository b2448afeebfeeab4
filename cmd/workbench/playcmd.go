//go:build cgo

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"pcgwb/canvas/playwindow"
	"pcgwb/games/play"
	"pcgwb/internal/safeio"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
)

const playSummary = "PROBLEM LEVEL.json|RUN/final.json [--replay] [--index N] [--trace OUTCOME.json]: play a level in a window, or watch its recorded solution or a recorded play (Esc quits)"

// playCommand opens the play window on one level. LEVEL.json is the bare content, an object
// {"content": ..., "control": ...}, an item file ({"items": [...]}, pick one with --index) or a
// run's own final.json (--index picks the individual of its final population).
// It prints "result: win|lose|running (...)" when the window closes.
//
// The GUI's hand-off (play.Launch) passes --handoff (LEVEL.json is then play.EncodeLevel's
// encoding, nothing else) and --outcome PATH (the session's play.Outcome is written there as
// JSON when the window closes). Hidden flags for tests and documentation: --script KEYS plays a
// key script through the same input layer as the keyboard (see play.ParseScript),
// --screenshot PATH saves the window (read back from the GPU) once the script or replay is done
// and closes it, --exit-after DUR closes the window after DUR.
func playCommand() *Command {
	return &Command{
		Name:  "play",
		Args:  []string{"PROBLEM", "LEVEL.json"},
		Short: playSummary,
		Setup: func(fs *flag.FlagSet) Runner {
			var o playOptions
			fs.BoolVar(&o.replay, "replay", false, "watch the recorded solution (space pauses, → steps, +/- change the speed)")
			fs.IntVar(&o.index, "index", 0, "the item to play when LEVEL.json is an item file, or the individual of a run's final.json")
			fs.StringVar(&o.trace, "trace", "", "watch the play recorded in this outcome file (a --outcome or playtest record)")
			fs.StringVar(&o.script, "script", "", "play these keys, one every 0.1 s (tests)")
			fs.StringVar(&o.screenshot, "screenshot", "", "save the window as PNG when the script or replay is done, then close (tests, docs)")
			fs.DurationVar(&o.exitAfter, "exit-after", 0, "close the window after this long")
			fs.BoolVar(&o.handoff, "handoff", false, "LEVEL.json is the GUI's hand-off encoding (one item file naming the problem)")
			fs.StringVar(&o.outcome, "outcome", "", "write the session's outcome (result, moves, time, input trace) to this JSON file")
			fs.Float64Var(&o.timeLimit, "time-limit", 0, "end the level as \"time up\" after this many seconds of play (0: none)")
			return func(ctx context.Context, args []string, io IO) error { return runPlay(ctx, args, io, o) }
		},
	}
}

type playOptions struct {
	replay, handoff                    bool
	index                              int
	trace, script, screenshot, outcome string
	exitAfter                          time.Duration
	timeLimit                          float64
}

// maxLevelBytes bounds a level file.
const maxLevelBytes = 16 << 20

func runPlay(ctx context.Context, pos []string, io IO, o playOptions) error {
	p, err := makeProblem(pos[0])
	if err != nil {
		return err
	}
	if !play.Playable(pos[0]) {
		return usagef("%s has no play view yet", pos[0])
	}
	item, err := readPlayLevel(pos[0], p, pos[1], o.index, o.handoff)
	if err != nil {
		return err
	}
	g, err := play.New(pos[0], p, item.Content)
	if err != nil {
		return usagef("%s: %v", pos[1], err)
	}
	if o.trace == "" {
		// A level that cannot be played is said to be so, not opened and scored as a play.
		if err := play.Check(g); err != nil {
			return usagef("%s: %v", pos[1], err)
		}
	}
	s := play.NewSession(pos[0], g, o.replay)
	s.SetTimeLimit(o.timeLimit)
	title := pos[0] + " - " + baseLevelName(pos[1], item)
	switch {
	case o.script != "":
		keys, err := play.ParseScript(o.script)
		if err != nil {
			return usageError{err.Error()}
		}
		s.SetScript(keys)
	case o.trace != "":
		rec, err := play.ReadOutcome(o.trace)
		if err != nil {
			return usagef("%s: %v", o.trace, err)
		}
		s.SetTrace(rec.Trace)
		title += " (recorded play)"
	case o.replay:
		if len(g.Solution()) == 0 {
			return usagef("%s: the level has no recorded solution to replay", pos[1])
		}
		title += " (replay)"
	}
	if err := playwindow.Run(s, playwindow.Options{
		Title:      title,
		Screenshot: o.screenshot,
		ExitAfter:  o.exitAfter,
		Done:       ctx.Done(),
	}); err != nil {
		return err
	}
	if o.outcome != "" {
		if err := play.WriteOutcome(o.outcome, s.Outcome(pos[0], item.ID)); err != nil {
			return err
		}
	}
	fmt.Fprintln(io.Stdout, s.Result())
	return ctx.Err()
}

// readPlayLevel reads the level to play from path: a run's own final.json (the individual at
// index of its final population, as eval and render read it), the window's hand-off file, or
// a level file (decodeLevel).
func readPlayLevel(name string, p problems.Problem, path string, index int, handoff bool) (problems.Item, error) {
	if !handoff && filepath.Base(path) == experiment.FinalFile {
		items, err := finalItems(name, path)
		if err != nil {
			return problems.Item{}, err
		}
		if index < 0 || index >= len(items) {
			return problems.Item{}, usagef("--index %d is out of range: the run's final population has %d individuals", index, len(items))
		}
		return items[index], nil
	}
	data, err := safeio.ReadFile(path, maxLevelBytes)
	if err != nil {
		return problems.Item{}, err
	}
	var item problems.Item
	if handoff {
		item, err = play.DecodeLevel(name, p, data)
	} else {
		item, err = decodeLevel(p, data, index)
	}
	if err != nil {
		return problems.Item{}, usagef("%s: %v", path, err)
	}
	return item, nil
}

func baseLevelName(path string, item problems.Item) string {
	if item.ID != "" {
		return item.ID
	}
	name := path[strings.LastIndexAny(path, `/\`)+1:]
	return strings.TrimSuffix(name, ".json")
}

// decodeLevel reads a level file: an item file (the item at index), an object with "content"
// (and optionally "control"), or the bare content, normalized through the problem's spaces.
func decodeLevel(p problems.Problem, data []byte, index int) (problems.Item, error) {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return problems.Item{}, fmt.Errorf("not valid JSON: %w", err)
	}
	if m, ok := raw.(map[string]any); ok {
		if _, ok := m["items"]; ok {
			items, err := problems.DecodeItems(p, data)
			if err != nil {
				return problems.Item{}, err
			}
			if index < 0 || index >= len(items) {
				return problems.Item{}, usagef("--index %d is out of range: the file has %d items", index, len(items))
			}
			return items[index], nil
		}
		if c, ok := m["content"]; ok {
			content, err := p.ContentSpace().Normalize(c, "content")
			if err != nil {
				return problems.Item{}, err
			}
			item := problems.Item{Content: content}
			if id, ok := m["id"].(string); ok {
				item.ID = id
			}
			if k, ok := m["control"]; ok && k != nil {
				if item.Control, err = p.ControlSpace().Normalize(k, "control"); err != nil {
					return problems.Item{}, err
				}
			}
			return item, nil
		}
	}
	content, err := p.ContentSpace().Normalize(raw, "content")
	if err != nil {
		return problems.Item{}, err
	}
	return problems.Item{Content: content}, nil
}

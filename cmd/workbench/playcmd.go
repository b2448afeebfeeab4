package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"pcgwb/canvas/play"
	"pcgwb/canvas/play/window"
	"pcgwb/problems"
)

const playSummary = "PROBLEM LEVEL.json [--replay] [--index N]: play a level in a window, or watch its recorded solution (Esc quits)"

// cmdPlay opens the play window on one level. LEVEL.json is the bare content, an object
// {"content": ..., "control": ...}, or an item file ({"items": [...]}, pick one with --index).
// It prints "result: win|lose|running (...)" when the window closes.
//
// Hidden flags for tests and documentation: --script KEYS plays a key script through the same
// input layer as the keyboard (see play.ParseScript), --screenshot PATH saves the window (read
// back from the GPU) once the script or replay is done and closes it, --exit-after DUR closes
// the window after DUR.
func cmdPlay(args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	replay := fs.Bool("replay", false, "watch the recorded solution (space pauses, → steps, +/- change the speed)")
	index := fs.Int("index", 0, "the item to play when LEVEL.json is an item file")
	script := fs.String("script", "", "play these keys, one every 0.1 s (tests)")
	screenshot := fs.String("screenshot", "", "save the window as PNG when the script or replay is done, then close (tests, docs)")
	exitAfter := fs.Duration("exit-after", 0, "close the window after this long")
	pos, err := parseArgs(fs, args, "PROBLEM", "LEVEL.json")
	if err != nil {
		return err
	}
	p, err := makeProblem(pos[0])
	if err != nil {
		return err
	}
	if !play.Playable(p) {
		return usagef("%s has no play view yet", pos[0])
	}
	data, err := os.ReadFile(pos[1])
	if err != nil {
		return err
	}
	item, err := decodeLevel(p, data, *index)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[1], err)
	}
	g, err := play.New(p, item.Content)
	if err != nil {
		return err
	}
	s := play.NewSession(pos[0], g, *replay)
	if *script != "" {
		keys, err := play.ParseScript(*script)
		if err != nil {
			return usageError{err.Error()}
		}
		s.SetScript(keys)
	}
	if *replay && *script == "" && len(g.Solution()) == 0 {
		return fmt.Errorf("%s: the level has no recorded solution to replay", pos[1])
	}
	title := pos[0] + " - " + baseLevelName(pos[1], item)
	if *replay && *script == "" {
		title += " (replay)"
	}
	if err := window.Run(s, window.Options{
		Title:      title,
		Replay:     *replay && *script == "",
		Screenshot: *screenshot,
		ExitAfter:  *exitAfter,
	}); err != nil {
		return err
	}
	fmt.Fprintln(stdout, s.Result())
	return nil
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

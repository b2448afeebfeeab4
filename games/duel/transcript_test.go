package duel

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/internal/duetest"
	"pcgwb/games/duel/script"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the transcripts' positions and results from the games")

// A transcript (testdata/transcripts/<game>[--<variant>].txt) is a hand-chosen move sequence
// of a built-in game with every position after it:
//
//	# comments
//	seed: 0
//	<the starting position>
//	> <label of a legal move>
//	<the position after it>
//	...
//	= <the outcome>
//
// The test finds each move by its label among the legal moves (so labels are checked too),
// plays it, and compares every position and the final outcome. A line "> ...first" or
// "> ...last" at the end (only with -update) plays the game out with the lowest or highest
// legal move; -update then writes the moves out in full.
type transcript struct {
	comments []string
	seed     int64
	start    string
	moves    []string
	after    []string
	outcome  string
}

func readTranscript(path string) (*transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tr := &transcript{}
	var block []string
	flush := func() {
		text := strings.Join(block, "\n")
		if len(tr.moves) == 0 {
			tr.start = text
		} else {
			tr.after = append(tr.after, text)
		}
		block = nil
	}
	sc := bufio.NewScanner(f)
	started := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !started && strings.HasPrefix(line, "#"):
			tr.comments = append(tr.comments, line)
		case !started && strings.HasPrefix(line, "seed: "):
			tr.seed, err = strconv.ParseInt(strings.TrimPrefix(line, "seed: "), 10, 64)
			if err != nil {
				return nil, err
			}
			started = true
		case strings.HasPrefix(line, "> "):
			flush()
			tr.moves = append(tr.moves, strings.TrimPrefix(line, "> "))
		case strings.HasPrefix(line, "= "):
			flush()
			tr.outcome = strings.TrimPrefix(line, "= ")
		default:
			block = append(block, line)
		}
	}
	return tr, sc.Err()
}

func (tr *transcript) write(path string) error {
	var b strings.Builder
	for _, c := range tr.comments {
		fmt.Fprintln(&b, c)
	}
	fmt.Fprintf(&b, "seed: %d\n%s\n", tr.seed, tr.start)
	for i, m := range tr.moves {
		fmt.Fprintf(&b, "> %s\n%s\n", m, tr.after[i])
	}
	fmt.Fprintf(&b, "= %s\n", tr.outcome)
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob("testdata/transcripts/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		game, _, _ := strings.Cut(name, "--")
		covered[game] = true
		t.Run(name, func(t *testing.T) {
			g, err := script.LoadBuiltin(game, script.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			tr, err := readTranscript(path)
			if err != nil {
				t.Fatal(err)
			}
			sess, err := NewSession(g, tr.seed, 0)
			if err != nil {
				t.Fatal(err)
			}
			got := &transcript{comments: tr.comments, seed: tr.seed}
			if got.start, err = g.Render(sess.State()); err != nil {
				t.Fatal(err)
			}
			moves := tr.moves
			playout := ""
			if n := len(moves); *update && n > 0 && strings.HasPrefix(moves[n-1], "...") {
				playout, moves = strings.TrimPrefix(moves[n-1], "..."), moves[:n-1]
			}
			for i := 0; ; i++ {
				var label string
				switch {
				case i < len(moves):
					label = moves[i]
				case playout != "":
					tu, err := sess.Turn()
					if err != nil {
						break
					}
					a := tu.Legal[0]
					if playout == "last" {
						a = tu.Legal[len(tu.Legal)-1]
					}
					if label, err = g.ActionLabel(tu.State, a); err != nil {
						t.Fatal(err)
					}
				}
				if label == "" {
					break
				}
				tu, err := sess.Turn()
				if err != nil {
					t.Fatalf("move %d (%q): %v", i+1, label, err)
				}
				a, err := moveByLabel(g, tu.State, tu.Legal, label)
				if err != nil {
					t.Fatalf("move %d: %v", i+1, err)
				}
				if err := sess.Play(a); err != nil {
					t.Fatalf("move %d (%q): %v", i+1, label, err)
				}
				txt, err := g.Render(sess.State())
				if err != nil {
					t.Fatal(err)
				}
				got.moves = append(got.moves, label)
				got.after = append(got.after, txt)
			}
			o, trunc, err := sess.Status()
			if err != nil {
				t.Fatal(err)
			}
			got.outcome = o.String()
			if trunc {
				got.outcome = "truncated"
			}
			if *update {
				if err := got.write(path); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got.start != tr.start {
				t.Errorf("starting position:\n%s\nwant:\n%s", got.start, tr.start)
			}
			for i := range got.after {
				if i < len(tr.after) && got.after[i] != tr.after[i] {
					t.Errorf("after move %d (%s):\n%s\nwant:\n%s", i+1, got.moves[i], got.after[i], tr.after[i])
				}
			}
			if got.outcome != tr.outcome {
				t.Errorf("outcome %q, want %q", got.outcome, tr.outcome)
			}
		})
	}
	var missing []string
	for _, name := range script.Builtins() {
		if !covered[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("built-in games without a transcript: %s", strings.Join(missing, ", "))
	}
}

func moveByLabel(g core.Game, s core.State, legal []int, label string) (int, error) {
	return duetest.MoveByLabel(g, s, legal, label)
}

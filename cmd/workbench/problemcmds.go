package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"pcgwb/problems/experiment"
	"sync"

	"pcgwb/internal/safeio"
	"pcgwb/problems"
	"pcgwb/problems/data"
	"pcgwb/problems/levelio"
)

// maxSampleItems caps `sample -n`: beyond it the JSON would not fit in memory on an ordinary
// machine (sample in batches with different seeds instead).
const maxSampleItems = 100_000

// maxItemFileBytes is the largest item file `eval` and `render` read (50,000 items of the
// largest content fit with room to spare).
const maxItemFileBytes = 256 << 20

func problemsCommand() *Command {
	return &Command{Name: "problems", Short: "list the registered problems, one name per line",
		Setup: func(*flag.FlagSet) Runner {
			return func(_ context.Context, _ []string, io IO) error {
				for _, n := range problems.List() {
					if err := problems.Unavailable(n); err != nil {
						// Name, TAB, marker: the first field stays a bare name for scripts.
						fmt.Fprintf(io.Stdout, "%s\t%s\n", n, unavailableMarker(err))
						continue
					}
					fmt.Fprintln(io.Stdout, n)
				}
				return nil
			}
		}}
}

// unavailableMarker is the short form of why a problem cannot run, e.g.
// "[needs data: loderunner/patterns.txt, loderunner/data/level_0..4.txt]".
func unavailableMarker(err error) string {
	if m, ok := data.IsMissing(err); ok {
		return "[needs data: " + m.Summary() + "]"
	}
	return "[unavailable: " + err.Error() + "]"
}

func makeProblem(name string) (problems.Problem, error) {
	if len(name) > 200 {
		return nil, usagef("unknown problem %s", safeio.ExcerptString(name))
	}
	p, err := problems.Make(name)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	return p, nil
}

// newRand is the one seeded source every command uses, so a seed means the same on the CLI and
// in the GUI.
func newRand(seed uint64) *rand.Rand { return problems.NewRand(seed) }

func sampleCommand() *Command {
	return &Command{Name: "sample", Args: []string{"PROBLEM"},
		Short: "PROBLEM [-n N] [--seed S]: sample random contents and controls as JSON",
		Setup: func(fs *flag.FlagSet) Runner {
			n := fs.Int("n", 1, fmt.Sprintf("number of items (at most %d)", maxSampleItems))
			seed := fs.Uint64("seed", 0, "random seed")
			return func(ctx context.Context, args []string, io IO) error {
				if *n < 0 || *n > maxSampleItems {
					return usagef("-n must be in [0, %d], got %d (sample larger sets in batches with different seeds)", maxSampleItems, *n)
				}
				p, err := makeProblem(args[0])
				if err != nil {
					return err
				}
				items, err := problems.SampleN(ctx, p, *n, *seed)
				if err != nil {
					return err
				}
				return writeJSON(io.Stdout, problems.ItemFile{Problem: args[0], Items: items})
			}
		}}
}

// readItems reads and validates the levels of a file ("-": standard input, an item file),
// bounded in size: an item file as the reference writes it, VGLC-style text (.txt) or a Tiled
// map (.tmx), so hand-made levels are evaluated beside generated ones. Every problem with it is
// bad input (exit 2).
func readItems(name string, p problems.Problem, path string, stdin io.Reader) ([]problems.Item, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = safeio.ReadAllLimited(stdin, "standard input", maxItemFileBytes)
	} else {
		b, err = safeio.ReadFile(path, maxItemFileBytes)
	}
	if err != nil {
		return nil, usageError{err.Error()}
	}
	ext := ""
	if path != "-" {
		ext = filepath.Ext(path)
	}
	if path != "-" && filepath.Base(path) == experiment.FinalFile {
		// A run's own final.json: its final population, in its order.
		return finalItems(name, path)
	}
	items, err := levelio.DecodeLevels(name, p, ext, b)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	return items, nil
}

// stepProgress prints "label: done/total" on w at every tenth of the work (for long sets only).
func stepProgress(w io.Writer, label string, total int) problems.ProgressFunc {
	return stepProgressDetail(w, label, total, nil)
}

// stepProgressDetail is stepProgress with detail(done) appended to each line (e.g. the pairs
// a count of rows stands for).
func stepProgressDetail(w io.Writer, label string, total int, detail func(done int) string) problems.ProgressFunc {
	if total < 1000 {
		return nil
	}
	var mu sync.Mutex
	last := 0
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if step := done * 10 / total; step > last || done == total {
			if step == last && done != total {
				return
			}
			last = step
			extra := ""
			if detail != nil {
				extra = detail(done)
			}
			fmt.Fprintf(w, "%s: %d/%d%s\n", label, done, total, extra)
		}
	}
}

func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// finalItems reads the final population of the run whose final.json is path, for eval and
// render; a run of another problem is bad input.
func finalItems(name, path string) ([]problems.Item, error) {
	f, err := experiment.ReadFinal(filepath.Dir(path))
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	if f.Config.Problem != name {
		return nil, usagef("%s is a run of %s, not %s", path, f.Config.Problem, name)
	}
	items := make([]problems.Item, len(f.Population))
	for i, s := range f.Population {
		items[i] = problems.Item{Content: s.Content, Control: s.Control}
	}
	return items, nil
}

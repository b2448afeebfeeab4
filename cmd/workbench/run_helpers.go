package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"pcgwb/internal/safeio"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// isTerminal reports whether w is an interactive terminal, where progress redraws one line
// instead of printing one line per generation (/dev/null, a character device, is not one).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// progressPrinter turns run events into a progress bar on a terminal and plain lines
// elsewhere.
type progressPrinter struct {
	w     io.Writer
	tty   bool
	total int
}

func (p *progressPrinter) event(ev search.Event) {
	line := fmt.Sprintf("gen %*d/%d best %.4f mean %.4f feasible %d unique %d controlled %d evals %d %.1fs",
		len(fmt.Sprint(p.total)), ev.Generation, p.total, ev.BestFitness, ev.MeanFitness, ev.Feasible, ev.Unique,
		ev.Controlled, ev.Evaluations, ev.Elapsed)
	if !p.tty {
		fmt.Fprintln(p.w, line)
		return
	}
	const width = 24
	filled := width
	if p.total > 0 {
		filled = width * ev.Generation / p.total
	}
	bar := strings.Repeat("#", filled) + strings.Repeat(".", width-filled)
	fmt.Fprintf(p.w, "\r[%s] %s\x1b[K", bar, line)
	if ev.Generation >= p.total {
		fmt.Fprintln(p.w)
	}
}

// runGenerators are the generators `run` knows: search's and the LLM generator.
func runGenerators() []string { return search.All() }

// asksModel tells whether generator asks a language model (its descriptor says so): its runs
// have an endpoint and a reply cache.
func asksModel(generator string) bool { d, _ := search.Describe(generator); return d.AsksModel }

// llmOnlyFlags are the flags of `run` that only --generator llm reads.
func llmOnlyFlags() map[string]bool {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	var ep endpointFlags
	var pf promptFlags
	ep.registerEndpoint(fs)
	pf.registerPrompt(fs)
	names := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { names[f.Name] = true })
	return names
}

// maxConfigBytes bounds a run folder's config.json (a few hundred bytes in practice).
const maxConfigBytes = 1 << 20

// recordedGenerator reads the generator name from DIR/config.json: a regular file of at most
// maxConfigBytes (a FIFO, a device or a huge file in its place is refused before reading).
func recordedGenerator(dir string) (string, error) {
	data, err := safeio.ReadFile(filepath.Join(dir, experiment.ConfigFile), maxConfigBytes)
	if err != nil {
		return "", err
	}
	var c struct {
		Generator string `json:"generator"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return "", err
	}
	return c.Generator, nil
}

// mapElitesHint explains the --axes flag with the problem's own numeric info fields.
func mapElitesHint(problem string) string {
	msg := "mapelites needs --axes field:min:max[:bins],field:min:max[:bins]"
	p, err := problems.Make(problem)
	if err != nil {
		return msg
	}
	info, err := p.Info(p.ContentSpace().Sample(newRand(0)))
	if err != nil {
		return msg
	}
	return msg + "; " + problem + "'s numeric info fields: " + strings.Join(search.NumericFields(info), ", ")
}

// checkpointFlags are the checkpoint cadence flags of run and sweep (experiment.Cadence): how
// much work a hard kill may lose against how often the disk is synced.
type checkpointFlags struct {
	interval *time.Duration
	every    *int
}

func (c *checkpointFlags) register(fs *flag.FlagSet) {
	c.interval = fs.Duration("checkpoint-interval", experiment.DefaultCheckpoint.Interval,
		"write and sync a checkpoint at most this often (a kill -9 loses at most this much work; 0: only --checkpoint-every)")
	c.every = fs.Int("checkpoint-every", 0, "also checkpoint every N generations (1: every generation, the most durable and the slowest on a busy disk)")
}

// cadence returns the chosen cadence, or a usage error for a negative or all-zero one.
func (c *checkpointFlags) cadence() (experiment.Cadence, error) {
	switch {
	case *c.interval < 0 || *c.every < 0:
		return experiment.Cadence{}, usagef("--checkpoint-interval and --checkpoint-every must not be negative")
	case *c.interval == 0 && *c.every == 0:
		return experiment.Cadence{}, usagef("--checkpoint-interval 0 needs --checkpoint-every N (N ≥ 1)")
	}
	return experiment.Cadence{Interval: *c.interval, Every: *c.every}, nil
}

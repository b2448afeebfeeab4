package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"pcgwb/llm"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// isTerminal reports whether w is an interactive terminal (a character device), where progress
// redraws one line instead of printing one line per generation.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// interruptible stops long work cleanly on Ctrl-C: the run in flight finishes nothing more
// and its folder resumes from the last completed generation.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
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

// recordedGenerator reads the generator name from DIR/config.json.
func recordedGenerator(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, experiment.ConfigFile))
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

func cmdSweep(args []string, stdout, _ io.Writer) error {
	if handled, err := sweepSlurm(context.Background(), args, stdout); handled { // --slurm, --status (slurm.go)
		return err
	}
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	probs := fs.String("problems", "", "comma-separated problem names, or \"all\"")
	gens := fs.String("generators", strings.Join(search.PaperGenerators(), ","), "comma-separated generators")
	fits := fs.String("fitness", strings.Join(search.Fitnesses(), ","), "comma-separated fitness functions")
	seeds := fs.Int("seeds", 10, "seeds per configuration (1..N)")
	generations := fs.Int("generations", 200, "generations per run")
	pop := fs.Int("pop", 100, "population size")
	out := fs.String("out", "", "sweep folder (runs go to OUT/problem/fitness/generator/seed)")
	jobs := fs.Int("jobs", 0, "runs in parallel (default: the number of cores)")
	emit := fs.Bool("emit-jobs", false, "print one workbench run command per unfinished run instead of running")
	program := fs.String("program", "workbench", "the command --emit-jobs writes at the start of each line")
	axes := fs.String("axes", "", "mapelites axes (see workbench run)")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if *probs == "" || *out == "" {
		return usagef("--problems and --out are required")
	}
	if slices.Contains(splitList(*gens), llm.GeneratorName) {
		return usagef("a sweep does not run the llm generator: LLM runs are started one at a time with `workbench run --generator llm --problem P ...` (their endpoint, prompt and cache settings are per run)")
	}
	names := splitList(*probs)
	if len(names) == 1 && names[0] == "all" {
		names = problems.List()
	}
	ax, err := search.ParseAxes(*axes)
	if err != nil {
		return usageError{err.Error()}
	}
	outDir, err := filepath.Abs(*out)
	if err != nil {
		return err
	}
	s := experiment.Sweep{Problems: names, Generators: splitList(*gens), Fitnesses: splitList(*fits), Seeds: *seeds,
		Generations: *generations, Options: search.Options{PopSize: *pop, Axes: ax}, Out: outDir, Workers: *jobs}
	if *emit {
		lines, err := s.Commands(*program)
		if err != nil {
			return usageError{err.Error()}
		}
		for _, l := range lines {
			fmt.Fprintln(stdout, l)
		}
		return nil
	}
	all, err := s.Jobs()
	if err != nil {
		return usageError{err.Error()}
	}
	tty := isTerminal(stdout)
	fmt.Fprintf(stdout, "sweep: %d runs (%d problems × %d fitness × %d generators × %d seeds) in %s\n",
		len(all), len(s.Problems), len(s.Fitnesses), len(s.Generators), s.Seeds, outDir)
	ctx, stop := interruptible()
	defer stop()
	start := time.Now()
	var mu sync.Mutex
	running := map[string]int{}
	progress := func(p experiment.Progress) {
		mu.Lock()
		defer mu.Unlock()
		name := jobName(p.Job)
		switch {
		case p.Event != nil:
			running[name] = p.Event.Generation
		case p.Done:
			delete(running, name)
		default:
			running[name] = -1
			return
		}
		if p.Event != nil && !tty {
			return
		}
		if p.Done && !tty {
			status := "done"
			switch {
			case p.Skipped:
				status = "already done"
			case p.Err != nil:
				status = "FAILED: " + p.Err.Error()
			}
			fmt.Fprintf(stdout, "[%d/%d] %s %s (%.0fs)\n", p.Finished, p.Total, name, status, time.Since(start).Seconds())
			return
		}
		if p.Done && p.Err != nil {
			fmt.Fprintf(stdout, "\r\x1b[K%s FAILED: %v\n", name, p.Err)
		}
		var parts []string
		for n, g := range running {
			parts = append(parts, fmt.Sprintf("%s@%d", n, g))
		}
		fmt.Fprintf(stdout, "\r[%d/%d runs, %.0fs] %s\x1b[K", p.Finished, p.Total, time.Since(start).Seconds(), strings.Join(parts, " "))
	}
	err = s.Run(ctx, progress)
	if tty {
		fmt.Fprintln(stdout)
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted; rerun the same command to continue")
		}
		return err
	}
	fmt.Fprintf(stdout, "sweep finished in %.0fs; `workbench report %s` draws the figures\n", time.Since(start).Seconds(), *out)
	return nil
}

func jobName(j experiment.Job) string {
	c := j.Config
	return fmt.Sprintf("%s/%s/%s/%d", c.Problem, c.Fitness, c.Generator, c.Seed)
}

func cmdReport(args []string, stdout, _ io.Writer) error {
	if handled, err := reportPaper(args, stdout); handled { // --paper (slurm_paper.go)
		return err
	}
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	figs := fs.String("out", "", "folder for the figures (default DIR/plots)")
	xaxis := fs.String("x", string(experiment.XGeneration), "x axis of the fitness curves: generation, evaluations or model-calls (equal-budget comparisons)")
	pos, err := parseArgs(fs, args, "DIR")
	if err != nil {
		return err
	}
	x, err := experiment.ParseXAxis(*xaxis)
	if err != nil {
		return usageError{err.Error()}
	}
	res, err := experiment.ReportOver(pos[0], *figs, x)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, res.Summary)
	for _, f := range res.Figures {
		fmt.Fprintln(stdout, f)
	}
	// The paper's headline count: runs whose final population holds a feasible individual.
	type tally struct{ feasible, finished int }
	byGen := map[string]*tally{}
	var order []string
	for _, s := range res.Summaries {
		t, ok := byGen[s.Generator]
		if !ok {
			t = &tally{}
			byGen[s.Generator] = t
			order = append(order, s.Generator)
		}
		t.feasible += s.RunsWithFeasible
		t.finished += s.Finished
	}
	for _, g := range order {
		fmt.Fprintf(stdout, "%s: feasible individuals in the final population in %d of %d finished runs\n", g, byGen[g].feasible, byGen[g].finished)
	}
	return nil
}

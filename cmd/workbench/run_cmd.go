package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"pcgwb/internal/appdirs"
	"slices"
	"strings"

	"pcgwb/llm"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// runCommand is `workbench run`: one generator run (any registered generator, the LLM one
// included) as a folder of data, or --resume of one. The run itself is experiment's one run
// loop; this formats its progress and result.
func runCommand() *Command {
	return &Command{
		Name:  "run",
		Short: "--problem P --generator G --fitness F [--generations N --pop N --seed S --out DIR] | --resume DIR: one generator run as a folder of data (G: random, es, ga, mapelites, constructive, llm)",
		Setup: func(fs *flag.FlagSet) Runner {

			problem := fs.String("problem", "", "problem name (workbench problems lists them)")
			generator := fs.String("generator", "ga", "generator: "+strings.Join(runGenerators(), ", ")+
				" (llm: an OpenAI-compatible model, with the endpoint and prompt flags of workbench llm generate)")
			fitness := fs.String("fitness", "quality", "fitness: "+strings.Join(search.Fitnesses(), ", "))
			generations := fs.Int("generations", 200, "generations after the first population (llm: more batches after the first, default 0: one batch)")
			pop := fs.Int("pop", 100, fmt.Sprintf("population size (μ and λ for es, the batch per generation for mapelites, the levels asked per generation for llm, default %d there)", defaultLLMN))
			seed := fs.Uint64("seed", 1, "random seed")
			out := fs.String("out", "", "run folder (default ~/pcg-workbench/runs/PROBLEM-GENERATOR-FITNESS-sSEED)")
			axes := fs.String("axes", "", "mapelites axes: field:min:max[:bins],field:min:max[:bins] over info fields")
			resume := fs.String("resume", "", "continue the run in this folder (other flags are ignored, but --checkpoint-interval, --checkpoint-every and, for an LLM run, --api-key-env, --cache (default: the cache the run recorded), --offline, --timeout, --retries and --concurrency)")
			quiet := fs.Bool("quiet", false, "no progress output")
			llmRate := fs.Float64("llm-rate", llm.DefaultEvolveRate, "llm-ga, llm-mapelites: share of the children the model makes (run_evolve.go)")
			diversity := registerDiversity(fs)
			var ep endpointFlags
			var pf promptFlags
			var cp checkpointFlags
			cp.register(fs)
			ep.registerEndpoint(fs)
			pf.registerPrompt(fs)
			return func(ctx context.Context, _ []string, cio IO) error {
				stdout, stderr := cio.Stdout, cio.Stderr
				cadence, err := cp.cadence()
				if err != nil {
					return err
				}
				set := map[string]bool{}
				fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
				alg, err := parseDiversity(*diversity)
				if err != nil {
					return err
				}
				if alg != problems.DiversityCurrent && (*resume != "" || asksModel(*generator)) {
					return usagef("--diversity %s applies to a new run of a built-in generator (a resumed run keeps its recorded algorithm)", alg)
				}
				var r *experiment.Run
				switch {
				case *resume != "":
					if gen, err := recordedGenerator(*resume); err == nil && asksModel(gen) {
						if !set["cache"] {
							if ep.cache, err = resumeCache(*resume, ep.cache); err != nil {
								return err
							}
						}
						if gen == llm.GeneratorName {
							return resumeLLMRunContext(ctx, *resume, ep, *quiet, cio)
						}
						return resumeEvolveRun(ctx, *resume, ep, *quiet, stdout, stderr)
					}
					if r, err = experiment.Open(*resume); err != nil {
						return usageError{err.Error()}
					}
				case *problem == "":
					return usagef("--problem is required (or --resume DIR)")
				case llm.IsEvolve(*generator):
					return startEvolveRun(ctx, evolveRequest{generator: *generator, problem: *problem, fitness: *fitness, out: *out, axes: *axes,
						generations: *generations, pop: *pop, seed: *seed, rate: *llmRate, ep: ep, pf: pf, quiet: *quiet}, stdout, stderr)
				case *generator == llm.GeneratorName:
					gens, n := *generations, *pop
					if !set["generations"] {
						gens = 0
					}
					if !set["pop"] {
						n = defaultLLMN
					}
					if n < 1 {
						return usagef("--pop must be at least 1")
					}
					if *seed > math.MaxInt {
						return usagef("--seed of an llm run must be at most %d", math.MaxInt)
					}
					ep.seed = int(*seed)
					pf.problem, pf.n, pf.fitness = *problem, n, *fitness
					dir := *out
					if dir == "" {
						fit, _, _ := search.ParseFitness(*fitness)
						dir = filepath.Join(appdirs.RunsDir(), fmt.Sprintf("%s-%s-%s-s%d", *problem, llm.GeneratorName, fit, *seed))
					}
					again := "continue with: workbench run --resume " + dir
					if ep.cache != defaultLLMCache() {
						again += " --cache " + ep.cache
					}
					return startLLMRunContext(ctx, ep, pf, gens, dir, *quiet, again+" (what was received is replayed from the cache)", cio)
				default:
					if !slices.Contains(runGenerators(), *generator) {
						return usagef("unknown generator %q (choose one of %s)", *generator, strings.Join(runGenerators(), ", "))
					}
					llmFlags := llmOnlyFlags()
					var stray []string
					fs.Visit(func(f *flag.Flag) {
						if llmFlags[f.Name] {
							stray = append(stray, "--"+f.Name)
						}
					})
					if len(stray) > 0 {
						return usagef("%s only apply to --generator llm", strings.Join(stray, ", "))
					}
					ax, err := search.ParseAxes(*axes)
					if err != nil {
						return usageError{err.Error()}
					}
					if d, _ := search.Describe(*generator); d.UsesAxes && len(ax) == 0 {
						return usageError{mapElitesHint(*problem)}
					}
					cfg := experiment.Config{Generator: *generator, Generations: *generations, Options: search.Options{
						Problem: *problem, Fitness: *fitness, Seed: *seed, PopSize: *pop, Axes: ax, Diversity: string(alg)}}
					dir := *out
					if dir == "" {
						fit, _, _ := search.ParseFitness(*fitness)
						dir = filepath.Join(appdirs.RunsDir(), fmt.Sprintf("%s-%s-%s-s%d", *problem, *generator, fit, *seed))
					}
					if r, err = experiment.Create(dir, cfg); err != nil {
						return usageError{err.Error()}
					}
				}
				st, err := r.Status()
				if err != nil {
					return err
				}
				c := r.Config
				if !*quiet {
					switch {
					case st.Finished:
						fmt.Fprintf(stdout, "%s is already finished\n", r.Dir)
					case st.Generation >= 0:
						fmt.Fprintf(stderr, "resuming %s %s %s seed %d at generation %d of %d in %s\n", c.Problem, c.Generator, c.Fitness, c.Seed, st.Generation, c.Generations, r.Dir)
					default:
						fmt.Fprintf(stderr, "running %s %s %s seed %d: %d generations, population %d, in %s\n", c.Problem, c.Generator, c.Fitness, c.Seed, c.Generations, c.PopSize, r.Dir)
					}
				}
				pp := &progressPrinter{w: stderr, tty: isTerminal(stderr), total: c.Generations}
				onEvent := pp.event
				if *quiet {
					onEvent = nil
				}
				final, err := r.ExecuteWith(ctx, experiment.Exec{OnEvent: onEvent, Checkpoint: cadence})
				if err != nil {
					if ctx.Err() != nil {
						return fmt.Errorf("interrupted; continue with: workbench run --resume %s", r.Dir)
					}
					return err
				}
				if !*quiet {
					fmt.Fprintf(stdout, "done: best fitness %.4f, feasible %d, unique %d, controlled %d of %d, %d evaluations -> %s\n",
						final.BestFitness, final.Feasible, final.Unique, final.Controlled, final.Size, final.Evaluations, filepath.Join(r.Dir, experiment.FinalFile))
				}
				return nil
			}
		},
	}
}

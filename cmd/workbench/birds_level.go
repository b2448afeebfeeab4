package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"pcgwb/games/birds"
	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
)

// maxBirdsLevelInput bounds the file `birds level` reads: the largest answer the pipeline reads.
const maxBirdsLevelInput = birds.MaxResponseBytes

func birdsLevelCommand() *Command {
	return &Command{Name: "level", Args: []string{"FILE"},
		Short: "FILE [--image PATH] [--trials N --seed S]: one level (XML, drop_block program or answer): stability, similarity; writes nothing unless --image",
		Setup: func(fs *flag.FlagSet) Runner {
			var f birdsFlags
			f.registerClassifier(fs)
			asJSON := fs.Bool("json", false, "print the result as JSON")
			image := fs.String("image", "", "write the evaluator's image (PNG) to PATH")
			out := fs.String("out", "", "same as --image (older name)")
			trials := fs.Int("trials", 1, "evaluator trials, best kept (the evaluator runs up to 3)")
			seed := fs.Uint64("seed", 0, "seed of the trials after the first")
			return func(ctx context.Context, args []string, io IO) error {
				if *image != "" && *out != "" && *image != *out {
					return usagef("give --image or --out, not both")
				}
				if *image == "" {
					image = out
				}
				if *trials < 1 || *trials > birds.MaxEvaluatorTrials {
					return usagef("--trials must be 1 to %d", birds.MaxEvaluatorTrials)
				}
				classifier, err := f.classifier()
				if err != nil {
					return err
				}
				data, err := safeio.ReadFile(args[0], maxBirdsLevelInput)
				if err != nil {
					if errors.Is(err, safeio.ErrTooLarge) || errors.Is(err, safeio.ErrSpecialFile) {
						return usageError{err.Error()}
					}
					return err
				}
				ev, err := birds.EvaluateLevel(ctx, data, birds.LevelOptions{Trials: *trials, Seed: *seed, Classifier: classifier})
				if err != nil {
					// Text that is not a level, or a level the physics refuses, is bad input.
					if ev == nil || errors.Is(err, birds.ErrPhysics) || errors.Is(err, birds.ErrTooLarge) {
						return usagef("%s: %v", excerptArg(args[0]), err)
					}
					return err
				}
				if *image != "" {
					if err := atomicfile.Write(*image, ev.PNG, 0o644); err != nil {
						return err
					}
				}
				return printLevel(io, args[0], *image, ev, *asJSON)
			}
		}}
}

func printLevel(io IO, path, image string, ev *birds.LevelEvaluation, asJSON bool) error {
	res := ev.Result
	ms := float64(ev.Elapsed.Microseconds()) / 1000
	if asJSON {
		v := map[string]any{
			"source": ev.Source, "blocks": res.Total, "moving": res.Moving, "stability": res.Score,
			"legacyStability": res.Legacy, "milliseconds": ms,
		}
		if image != "" {
			v["image"] = image
		}
		var trials []map[string]any
		for _, r := range ev.Trials.Results {
			trials = append(trials, map[string]any{"moving": r.Moving, "stability": r.Score, "legacyStability": r.Legacy})
		}
		v["trials"], v["keptTrial"] = trials, ev.Trials.Best+1
		if ev.Classification != nil {
			v["similarity"] = ev.Classification.TopLetters(26)
			v["classifier"] = ev.Classifier
		} else {
			v["similarity"] = nil
			v["similarityMissing"] = ev.SimilarityErr.Error()
		}
		return writeJSON(io.Stdout, v)
	}
	w := io.Stdout
	fmt.Fprintf(w, "level      %s (%s, %d blocks)\n", path, ev.Source, res.Total)
	fmt.Fprintf(w, "stability  %.4f (%d of %d blocks moved ≥ %.1f; legacy %.4f)\n", res.Score, res.Moving, res.Total, birds.MovementThreshold, res.Legacy)
	if n := len(ev.Trials.Results); n > 1 {
		var parts []string
		for _, r := range ev.Trials.Results {
			parts = append(parts, fmt.Sprintf("%.4f", r.Score))
		}
		fmt.Fprintf(w, "trials     %s (trial %d kept)\n", strings.Join(parts, ", "), ev.Trials.Best+1)
	}
	if ev.Classification != nil {
		var parts []string
		for _, t := range ev.Classification.TopLetters(5) {
			parts = append(parts, fmt.Sprintf("%s %.3f", t.Letter, t.Probability))
		}
		fmt.Fprintf(w, "similarity %s (%s)\n", strings.Join(parts, ", "), ev.Classifier)
	} else {
		fmt.Fprintf(w, "similarity missing: %v\n", ev.SimilarityErr)
	}
	if image != "" {
		fmt.Fprintf(w, "image      %s (%.1f ms)\n", image, ms)
	} else {
		fmt.Fprintf(w, "time       %.1f ms (no image written; --image PATH writes it)\n", ms)
	}
	return nil
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"pcgwb/games/birds"
	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
)

// maxBirdsLevelInput bounds the file `birds level` reads: the largest answer the pipeline reads.
const maxBirdsLevelInput = birds.MaxResponseBytes

func birdsLevelCommand() *Command {
	return &Command{Name: "level",
		Args:  []string{"FILE..."},
		Short: "FILE... [--image PATH] [--trials N --seed S]: levels (XML, drop_block program or answer): stability, similarity; writes nothing unless --image",
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
				if *image != "" && len(args) > 1 {
					return usagef("--image takes one FILE")
				}
				if *trials < 1 || *trials > birds.MaxEvaluatorTrials {
					return usagef("--trials must be 1 to %d", birds.MaxEvaluatorTrials)
				}
				if err := imagePathUsable(*image); err != nil {
					return err
				}
				classifier, err := f.classifier()
				if err != nil {
					return err
				}
				var all []map[string]any
				for _, path := range args {
					ev, err := evaluateLevelFile(ctx, path, *trials, *seed, classifier)
					if err != nil {
						return err
					}
					if *image != "" {
						if err := atomicfile.Write(*image, ev.PNG, 0o644); err != nil {
							return err
						}
					}
					if !*asJSON {
						printLevel(io.Stdout, path, *image, ev)
						continue
					}
					all = append(all, levelJSON(path, *image, ev))
				}
				if *asJSON && len(all) == 1 {
					return writeJSON(io.Stdout, all[0])
				}
				if *asJSON {
					return writeJSON(io.Stdout, all)
				}
				return nil
			}
		}}
}

// imagePathUsable refuses, before any evaluation, an --image path that is a link, a folder or a
// special file, or whose folder is a link or missing (bad input): nothing is written through it.
func imagePathUsable(path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		return usagef("--image %s: not a regular file (a link, folder or special file is never written through)", excerptArg(path))
	}
	if st, err := os.Lstat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return usagef("--image %s: its folder is missing or a link", excerptArg(path))
	}
	return nil
}

// evaluateLevelFile reads and evaluates one level file; unreadable or non-level input is bad
// input (exit 2).
func evaluateLevelFile(ctx context.Context, path string, trials int, seed uint64, classifier birds.Classifier) (*birds.LevelEvaluation, error) {
	data, err := safeio.ReadFile(path, maxBirdsLevelInput)
	if err != nil {
		if errors.Is(err, safeio.ErrTooLarge) || errors.Is(err, safeio.ErrSpecialFile) {
			return nil, usageError{err.Error()}
		}
		return nil, err
	}
	ev, err := birds.EvaluateLevel(ctx, data, birds.LevelOptions{Trials: trials, Seed: seed, Classifier: classifier})
	if err != nil {
		// Text that is not a level, or a level the physics refuses, is bad input.
		if ev == nil || errors.Is(err, birds.ErrPhysics) || errors.Is(err, birds.ErrTooLarge) {
			return nil, usagef("%s: %v", excerptArg(path), err)
		}
		return nil, err
	}
	return ev, nil
}

func levelJSON(path, image string, ev *birds.LevelEvaluation) map[string]any {
	res := ev.Result
	v := map[string]any{
		"file": path, "source": ev.Source, "blocks": res.Total, "moving": res.Moving, "stability": res.Score,
		"legacyStability": res.Legacy, "milliseconds": float64(ev.Elapsed.Microseconds()) / 1000,
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
	return v
}

func printLevel(w io.Writer, path, image string, ev *birds.LevelEvaluation) {
	res := ev.Result
	ms := float64(ev.Elapsed.Microseconds()) / 1000
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
}

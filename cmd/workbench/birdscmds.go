package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"pcgwb/canvas/birdsview"
	"pcgwb/games/birds"
	proxycnn "pcgwb/games/birds/classifier"
	"pcgwb/internal/atomicfile"
)

const birdsUsage = "extract|convert|stability|render|classify|score|evaluate DIR | level FILE | prompt PROMPT.txt | animate LEVEL: the ChatGPT4PCG Science Birds pipeline"

func cmdBirds(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "animate" {
		return cmdBirdsAnimate(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "prompt" {
		return cmdBirdsPrompt(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("birds", flag.ContinueOnError)
	edition := fs.Int("edition", 2024, "competition rules: 2023 (ab_drop, no diversity), 2024 or 2025")
	workers := fs.Int("workers", 0, "parallel trials (0: one per CPU)")
	classifierCmd := fs.String("classifier-cmd", "", "letter classifier command (PNG on stdin, 26 probabilities as JSON on stdout); split on spaces")
	classifierURL := fs.String("classifier-url", "", "letter classifier endpoint (POST image/png, 26 probabilities as JSON)")
	classifierName := fs.String("classifier", "proxy", "without --classifier-cmd/--classifier-url: proxy (the embedded CNN, not the competition's ViT) or none")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	out := fs.String("out", "", "level: where to write the image (default: FILE with .png)")
	pos, err := parseArgs(fs, args, "SUBCOMMAND", "DIR|FILE")
	if err != nil {
		return usagef("%v\nusage: workbench birds %s", err, birdsUsage)
	}
	ed := birds.Edition(*edition)
	if ed != birds.Edition2023 && ed != birds.Edition2024 && ed != birds.Edition2025 {
		return usagef("--edition must be 2023, 2024 or 2025")
	}
	if *classifierCmd != "" && *classifierURL != "" {
		return usagef("give --classifier-cmd or --classifier-url, not both")
	}
	var classifier birds.Classifier = birds.Unavailable{}
	switch {
	case *classifierCmd != "":
		classifier = &birds.CommandClassifier{Command: strings.Fields(*classifierCmd)}
	case *classifierURL != "":
		classifier = &birds.HTTPClassifier{URL: *classifierURL}
	case *classifierName == "proxy":
		c, err := proxycnn.Load()
		if err != nil {
			return err
		}
		classifier = c
	case *classifierName != "none":
		return usagef("--classifier must be proxy or none")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opt := birds.Options{Edition: ed, Classifier: classifier, Workers: *workers}
	if !*quiet {
		opt.Progress = birdsProgress(stderr)
	}
	sub, target := pos[0], pos[1]
	if sub == "level" {
		return birdsLevel(ctx, target, *out, classifier, *asJSON, stdout)
	}
	if info, err := os.Stat(target); err != nil || !info.IsDir() {
		return usagef("%s is not a competition folder (DIR/TEAM/raw/L/TEAM_L_n.txt)", target)
	}
	var stage func() (*birds.StageReport, error)
	switch sub {
	case "extract":
		stage = func() (*birds.StageReport, error) { return birds.ExtractStage(ctx, target, opt) }
	case "convert":
		stage = func() (*birds.StageReport, error) { return birds.ConvertStage(ctx, target, opt) }
	case "stability":
		stage = func() (*birds.StageReport, error) { return birds.SimulateStage(ctx, target, opt, true, false) }
	case "render":
		stage = func() (*birds.StageReport, error) { return birds.SimulateStage(ctx, target, opt, false, true) }
	case "classify":
		stage = func() (*birds.StageReport, error) {
			r, err := birds.ClassifyStage(ctx, target, opt)
			if err == nil && r.Skipped != "" {
				return r, fmt.Errorf("%s (give --classifier-cmd or --classifier-url)", r.Skipped)
			}
			if err == nil && ed != birds.Edition2023 {
				// Diversity is derived from the similarity files; keep the folder consistent.
				if _, err := birds.DiversityStage(ctx, target, opt); err != nil {
					return r, err
				}
			}
			return r, err
		}
	case "score":
		sc, err := birds.ScoreStage(ctx, target, opt)
		if err != nil {
			return err
		}
		return printScores(stdout, sc, *asJSON)
	case "evaluate":
		rep, err := birds.Evaluate(ctx, target, opt)
		if rep != nil {
			if perr := printReport(stdout, target, rep, *asJSON); perr != nil && err == nil {
				err = perr
			}
		}
		return err
	default:
		return usagef("unknown birds command %q\nusage: workbench birds %s", sub, birdsUsage)
	}
	r, err := stage()
	if r != nil {
		if perr := printReport(stdout, target, &birds.Report{Stages: []*birds.StageReport{r}}, *asJSON); perr != nil && err == nil {
			err = perr
		}
	}
	return err
}

// birdsProgress writes one line per stage at every tenth of its items, and every item that
// produced no output.
func birdsProgress(w io.Writer) func(birds.Event) {
	last := map[string]int{}
	return func(e birds.Event) {
		if e.Err != "" {
			fmt.Fprintf(w, "%s %s/%s/%s: %s\n", e.Stage, e.Team, e.Letter, e.File, e.Err)
		}
		step := e.Done * 10 / max(e.Total, 1)
		if e.Done == e.Total || step > last[e.Stage] {
			last[e.Stage] = step
			fmt.Fprintf(w, "%s %d/%d\n", e.Stage, e.Done, e.Total)
		}
	}
}

func printReport(w io.Writer, dir string, rep *birds.Report, asJSON bool) error {
	summary, _ := birds.StabilitySummary(dir)
	if asJSON {
		type prompt struct {
			Team       string `json:"team"`
			Normalized string `json:"normalizedPromptScore"`
			Score      string `json:"promptScore"`
			Rank       int    `json:"rank"`
		}
		v := struct {
			Stages    []*birds.StageReport          `json:"stages"`
			Stability map[string]map[string]float64 `json:"stability"`
			Ranking   []prompt                      `json:"ranking,omitempty"`
		}{Stages: rep.Stages, Stability: summary}
		if rep.Scores != nil {
			for _, p := range rep.Scores.Prompts {
				v.Ranking = append(v.Ranking, prompt{p.Team, p.Normalized.String(), p.Score.String(), p.Rank})
			}
		}
		return writeJSON(w, v)
	}
	for _, s := range rep.Stages {
		if s.Skipped != "" {
			fmt.Fprintf(w, "%-10s skipped: %s\n", s.Stage, s.Skipped)
			continue
		}
		fmt.Fprintf(w, "%-10s %d of %d written", s.Stage, s.Written, s.Items)
		if len(s.Failures) > 0 {
			reasons := map[string]int{}
			for _, f := range s.Failures {
				reasons[f.Err]++
			}
			var parts []string
			for r, n := range reasons {
				parts = append(parts, fmt.Sprintf("%d × %s", n, r))
			}
			sort.Strings(parts)
			fmt.Fprintf(w, " (%s)", strings.Join(parts, "; "))
		}
		if s.Classifier != "" {
			fmt.Fprintf(w, " by %s", s.Classifier)
		}
		fmt.Fprintln(w)
	}
	teams := make([]string, 0, len(summary))
	for t := range summary {
		teams = append(teams, t)
	}
	sort.Strings(teams)
	for _, t := range teams {
		sum, n := 0.0, 0
		for _, v := range summary[t] {
			sum += v
			n++
		}
		fmt.Fprintf(w, "stability  %s: mean %.3f over %d letters with levels\n", t, sum/float64(max(n, 1)), n)
	}
	if rep.Scores != nil {
		return printScores(w, rep.Scores, false)
	}
	return nil
}

func printScores(w io.Writer, sc *birds.Scores, asJSON bool) error {
	if asJSON {
		type prompt struct {
			Team       string `json:"team"`
			Normalized string `json:"normalizedPromptScore"`
			Score      string `json:"promptScore"`
			Rank       int    `json:"rank"`
		}
		var v []prompt
		for _, p := range sc.Prompts {
			v = append(v, prompt{p.Team, p.Normalized.String(), p.Score.String(), p.Rank})
		}
		return writeJSON(w, map[string]any{"competitionScore": sc.Competition.String(), "ranking": v})
	}
	fmt.Fprintf(w, "competition score %s\n", sc.Competition)
	for _, p := range sc.Prompts {
		fmt.Fprintf(w, "%3d  %-30s %8.4f %%  %s\n", p.Rank, p.Team, p.Normalized.Float(), p.Score)
	}
	return nil
}

// birdsLevel evaluates one level: a level XML, a drop_block program, or an answer with a fenced
// code block.
func birdsLevel(ctx context.Context, path, out string, classifier birds.Classifier, asJSON bool, stdout io.Writer) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lv, source, err := birdsview.LevelFromText(data)
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := birds.SimulateContext(ctx, lv, birds.DefaultSimConfig())
	if err != nil {
		return err
	}
	var png bytes.Buffer
	if err := birds.Render(res).WritePNG(&png); err != nil {
		return err
	}
	elapsed := time.Since(start)
	if out == "" {
		out = strings.TrimSuffix(path, filepath.Ext(path)) + ".png"
	}
	if err := atomicfile.Write(out, png.Bytes(), 0o644); err != nil {
		return err
	}
	var cl *birds.Classification
	cerr := birds.ErrClassifierUnavailable
	if _, none := classifier.(birds.Unavailable); !none {
		cl, cerr = classifier.Classify(ctx, png.Bytes())
	}
	type letterProb struct {
		Letter      string  `json:"letter"`
		Probability float64 `json:"probability"`
	}
	var top []letterProb
	if cl != nil {
		for i, p := range cl.Probabilities {
			top = append(top, letterProb{birds.Letters[i : i+1], p})
		}
		sort.SliceStable(top, func(i, j int) bool { return top[i].Probability > top[j].Probability })
	}
	if asJSON {
		v := map[string]any{
			"source": source, "blocks": res.Total, "moving": res.Moving, "stability": res.Score,
			"legacyStability": res.Legacy, "image": out, "milliseconds": float64(elapsed.Microseconds()) / 1000,
		}
		if cl != nil {
			v["similarity"] = top
			v["classifier"] = classifier.Name()
		} else {
			v["similarity"] = nil
			v["similarityMissing"] = cerr.Error()
		}
		return writeJSON(stdout, v)
	}
	fmt.Fprintf(stdout, "level      %s (%s, %d blocks)\n", path, source, res.Total)
	fmt.Fprintf(stdout, "stability  %.4f (%d of %d blocks moved ≥ %.1f; legacy %.4f)\n", res.Score, res.Moving, res.Total, birds.MovementThreshold, res.Legacy)
	if cl != nil {
		var parts []string
		for _, t := range top[:5] {
			parts = append(parts, fmt.Sprintf("%s %.3f", t.Letter, t.Probability))
		}
		fmt.Fprintf(stdout, "similarity %s (%s)\n", strings.Join(parts, ", "), classifier.Name())
	} else {
		fmt.Fprintf(stdout, "similarity missing: %v\n", cerr)
	}
	fmt.Fprintf(stdout, "image      %s (%.1f ms)\n", out, float64(elapsed.Microseconds())/1000)
	return nil
}

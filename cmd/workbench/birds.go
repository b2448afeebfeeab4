package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"pcgwb/games/birds"
	proxycnn "pcgwb/games/birds/classifier"
	"pcgwb/games/birds/classifier/vit"
)

const birdsUsage = "the ChatGPT4PCG Science Birds pipeline: evaluate DIR (or one stage), level FILE..., prompt PROMPT.txt, animate LEVEL, qualify PROMPT..., report DIR, compare DIR_A DIR_B, score"

// birdsCommand is `workbench birds`: the competition pipeline stage by stage or whole, one
// level, a prompt run, the physics in a window, and the organisers' checks and reports.
func birdsCommand() *Command {
	stage := func(name, short string, run birdsStageFunc) *Command {
		return &Command{Name: name, Args: []string{"DIR"}, Short: short, Setup: birdsStageSetup(run)}
	}
	return &Command{
		Name:  "birds",
		Short: birdsUsage,
		Commands: []*Command{
			birdsEvaluateCommand(),
			stage("extract", "DIR: TEAM/raw/L/*.txt answers → TEAM/intermediate/L/*.txt programs", birdsExtract),
			stage("convert", "DIR: programs → TEAM/levels/L/*.xml", birdsConvert),
			stage("stability", "DIR: levels → TEAM/stability/L.json (best of the evaluator's trials)", birdsStability),
			stage("render", "DIR: levels → TEAM/images/L/*.png", birdsRender),
			stage("classify", "DIR: images → TEAM/similarity/L.json (and diversity)", birdsClassify),
			birdsScoreCommand(),
			birdsLevelCommand(),
			birdsPromptCommand(),
			birdsAnimateCommand(),
			birdsQualifyCommand(),
			birdsReportCommand(),
			birdsCompareCommand(),
			birdsClassifierCommand(),
		},
	}
}

// birdsFlags are the flags every pipeline command shares.
type birdsFlags struct {
	edition                                      *birds.Edition
	workers, trials                              *int
	seed                                         *uint64
	classifierCmd, classifierURL, classifierName *string
	asJSON, quiet                                *bool
}

func (f *birdsFlags) register(fs *flag.FlagSet, classifier bool) {
	f.edition = editionVar(fs)
	f.workers = fs.Int("workers", 0, "parallel trials (0: one per CPU)")
	f.asJSON = fs.Bool("json", false, "print the result as JSON")
	f.quiet = fs.Bool("quiet", false, "no progress on stderr")
	if classifier {
		f.registerClassifier(fs)
	}
}

// registerTrials adds the evaluator-trial flags (not on `birds prompt`, whose --trials counts
// answers per letter).
func (f *birdsFlags) registerTrials(fs *flag.FlagSet) {
	f.trials = fs.Int("trials", birds.MaxEvaluatorTrials, "stability: evaluator trials per level, best kept (1: the canonical simulation only)")
	f.seed = fs.Uint64("seed", 0, "stability: seed of the varied trials")
}

func (f *birdsFlags) registerClassifier(fs *flag.FlagSet) {
	f.classifierCmd = fs.String("classifier-cmd", "", "letter classifier command (PNG on stdin, 26 probabilities as JSON on stdout); split on spaces")
	f.classifierURL = fs.String("classifier-url", "", "letter classifier endpoint (POST image/png, 26 probabilities as JSON)")
	f.classifierName = fs.String("classifier", "proxy", "without --classifier-cmd/--classifier-url: proxy (the embedded CNN, not the competition's ViT), vit:DIR (the competition's ViT run natively from its published folder; see birds classifier download) or none")
}

// editionValue is the --edition the command line gave (checked by birds.ParseEdition when
// the flags were parsed).
func (f *birdsFlags) editionValue() (birds.Edition, error) {
	if _, ok := f.edition.Lookup(); !ok {
		return 0, usagef("--edition must be %s", birds.EditionNames())
	}
	return *f.edition, nil
}

// editionFlag is --edition: a name of the birds editions table, read by birds.ParseEdition,
// so the flag takes exactly the editions the table lists.
type editionFlag struct{ ed *birds.Edition }

func (f editionFlag) String() string {
	if f.ed == nil {
		return ""
	}
	return f.ed.Rules().Name
}

func (f editionFlag) Set(s string) error {
	ed, err := birds.ParseEdition(s)
	if err == nil {
		*f.ed = ed
	}
	return err
}

// editionVar declares --edition, defaulting to birds.DefaultEdition, with the table's editions
// in its help: "competition rules: 2023 (ab_drop, no diversity), 2024 (…) or 2025 (…)".
func editionVar(fs *flag.FlagSet) *birds.Edition {
	ed := birds.DefaultEdition
	var choices []string
	for _, r := range birds.Editions() {
		choices = append(choices, fmt.Sprintf("%s (%s: %s)", r.Name, r.Competition, r.Summary))
	}
	usage := "competition rules `YEAR`: " + strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
	if len(choices) == 1 {
		usage = "competition rules `YEAR`: " + choices[0]
	}
	fs.Var(editionFlag{&ed}, "edition", usage)
	return &ed
}

// classifier builds the letter classifier the flags name.
func (f *birdsFlags) classifier() (birds.Classifier, error) {
	if f.classifierName == nil {
		return birds.Unavailable{}, nil
	}
	switch {
	case *f.classifierCmd != "" && *f.classifierURL != "":
		return nil, usagef("give --classifier-cmd or --classifier-url, not both")
	case *f.classifierCmd != "":
		return &birds.CommandClassifier{Command: strings.Fields(*f.classifierCmd)}, nil
	case *f.classifierURL != "":
		return &birds.HTTPClassifier{URL: *f.classifierURL}, nil
	case *f.classifierName == "proxy":
		return proxycnn.Load()
	case *f.classifierName == "none":
		return birds.Unavailable{}, nil
	case strings.HasPrefix(*f.classifierName, "vit:"):
		dir := strings.TrimPrefix(*f.classifierName, "vit:")
		if dir == "" {
			return nil, usagef("--classifier vit:DIR needs the model folder")
		}
		return vit.Open(dir)
	}
	return nil, usagef("--classifier must be proxy, vit:DIR or none")
}

// options is the pipeline configuration of the flags.
func (f *birdsFlags) options(stderr io.Writer) (birds.Options, error) {
	ed, err := f.editionValue()
	if err != nil {
		return birds.Options{}, err
	}
	c, err := f.classifier()
	if err != nil {
		return birds.Options{}, err
	}
	opt := birds.Options{Edition: ed, Classifier: c, Workers: *f.workers}
	if f.trials != nil {
		if *f.trials < 1 || *f.trials > birds.MaxEvaluatorTrials {
			return birds.Options{}, usagef("--trials must be 1 to %d", birds.MaxEvaluatorTrials)
		}
		opt.Trials, opt.Seed = *f.trials, *f.seed
	}
	if !*f.quiet {
		opt.Progress = birdsProgress(stderr)
	}
	return opt, nil
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

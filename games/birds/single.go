package birds

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"time"
)

// Single-level evaluation: what the Birds tab shows as a program is typed and what
// `workbench birds level` prints. Both shells call EvaluateLevel; neither writes a file.

// ParseLevelText reads what a user may hand over as one level: a level XML, a drop_block
// program, or an answer with a ``` fenced block. It names which one it found.
func ParseLevelText(data []byte) (*Level, string, error) {
	text := string(data)
	if strings.Contains(text, "<Level") {
		lv, err := ParseLevel(data)
		return lv, "level XML", err
	}
	source := "drop_block program"
	if strings.Contains(text, "```") {
		code, err := ExtractCode(text)
		if err != nil {
			return nil, "", err
		}
		text, source = code, "answer"
	}
	s, err := Convert(text)
	if err != nil {
		var ce *ConversionError
		if errors.As(err, &ce) {
			return nil, "", errors.New(ce.Detail())
		}
		return nil, "", err
	}
	if len(s.Placed) == 0 {
		return nil, "", errors.New("no drop_block calls found")
	}
	return s.Level(), source, nil
}

// LevelOptions configure EvaluateLevel.
type LevelOptions struct {
	// Sim is the physics; zero means DefaultSimConfig.
	Sim SimConfig
	// Trials is how many evaluator trials to run at most (see SimulateTrials); 0 means 1, the
	// canonical trial only.
	Trials int
	// Seed varies trials after the first.
	Seed uint64
	// Classifier answers the similarity; nil or Unavailable leaves it missing.
	Classifier Classifier
}

// LevelEvaluation is one level evaluated: the kept trial's stability, every trial's verdict,
// the evaluator's image (of the canonical trial, as the separate image evaluator renders one
// run) and the classifier's answer.
type LevelEvaluation struct {
	Source string // "level XML", "drop_block program" or "answer"
	Level  *Level
	Trials *Trials
	// Result is the kept trial.
	Result *Result
	Mask   *Mask
	PNG    []byte
	// Classification is nil when similarity is missing; SimilarityErr then says why.
	Classification *Classification
	Classifier     string
	SimilarityErr  error
	Elapsed        time.Duration // physics and image
}

// EvaluateLevel parses data (ParseLevelText), simulates it as the evaluator's trials, renders
// the image and asks the classifier. A level that does not parse or simulate is an error; a
// classifier failure is not (SimilarityErr).
func EvaluateLevel(ctx context.Context, data []byte, opt LevelOptions) (*LevelEvaluation, error) {
	lv, source, err := ParseLevelText(data)
	if err != nil {
		return nil, err
	}
	ev := &LevelEvaluation{Source: source, Level: lv}
	start := time.Now()
	n := max(opt.Trials, 1)
	ev.Trials, err = SimulateTrials(ctx, lv, opt.Sim, opt.Seed, n)
	if err != nil {
		return ev, err
	}
	ev.Result = ev.Trials.Kept()
	ev.Mask = Render(ev.Trials.Results[0])
	var png bytes.Buffer
	if err := ev.Mask.WritePNG(&png); err != nil {
		return ev, err
	}
	ev.PNG = png.Bytes()
	ev.Elapsed = time.Since(start)
	c := opt.Classifier
	if c == nil {
		c = Unavailable{}
	}
	if _, none := c.(Unavailable); none {
		ev.SimilarityErr = ErrClassifierUnavailable
		return ev, nil
	}
	ev.Classifier = c.Name()
	ev.Classification, ev.SimilarityErr = c.Classify(ctx, ev.Mask.Image())
	if ev.SimilarityErr != nil {
		ev.Classification = nil
		if ctx.Err() != nil {
			return ev, ctx.Err()
		}
	}
	return ev, nil
}

// LetterProbability is one letter of a classification.
type LetterProbability struct {
	Letter      string  `json:"letter"`
	Probability float64 `json:"probability"`
}

// TopLetters is the classification's letters by falling probability (stable for ties), at
// most n of them.
func (c *Classification) TopLetters(n int) []LetterProbability {
	out := make([]LetterProbability, 0, 26)
	for i, p := range c.Probabilities {
		if i < 26 {
			out = append(out, LetterProbability{Letters[i : i+1], p})
		}
	}
	for i := 1; i < len(out); i++ { // insertion sort: stable, 26 items
		for j := i; j > 0 && out[j].Probability > out[j-1].Probability; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out[:min(n, len(out))]
}

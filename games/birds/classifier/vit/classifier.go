package vit

import (
	"context"
	"fmt"
	"image"
	"math"
	"path/filepath"

	"pcgwb/games/birds"
)

// Classifier is a birds.Classifier backed by a native ViT. It is safe for concurrent use.
type Classifier struct {
	Model *Model
	Dir   string
	index [26]int // logit index of A..Z
}

// Open loads the model folder dir and checks that its labels are the 26 capital letters.
func Open(dir string) (*Classifier, error) {
	m, err := Load(dir)
	if err != nil {
		return nil, err
	}
	return newClassifier(m, dir)
}

func newClassifier(m *Model, dir string) (*Classifier, error) {
	labels := m.Config.Labels()
	if len(labels) != 26 {
		return nil, fmt.Errorf("%s: the model has %d labels, want the 26 letters A–Z", dir, len(labels))
	}
	c := &Classifier{Model: m, Dir: dir}
	seen := [26]bool{}
	for i, l := range labels {
		if len(l) != 1 || l[0] < 'A' || l[0] > 'Z' || seen[l[0]-'A'] {
			return nil, fmt.Errorf("%s: label %d is %q, want each capital letter A–Z once", dir, i, l)
		}
		seen[l[0]-'A'] = true
		c.index[l[0]-'A'] = i
	}
	return c, nil
}

// Name says which classifier scored a result: the native ViT and the folder it came from.
func (c *Classifier) Name() string {
	abs, err := filepath.Abs(c.Dir)
	if err != nil {
		abs = c.Dir
	}
	return "ViT (native Go, " + WeightsFile + " from " + abs + ")"
}

// Classify preprocesses one image as ViTImageProcessor does and runs the model: the softmax of
// the logits, and the [CLS] vector as the embedding.
func (c *Classifier) Classify(ctx context.Context, img image.Image) (*birds.Classification, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out, err := c.Model.Forward(c.Model.Preprocessor.PixelValues(ToRGB(img)))
	if err != nil {
		return nil, err
	}
	probs := Softmax(out.Logits)
	cl := &birds.Classification{Embedding: out.CLS}
	for l := 0; l < 26; l++ {
		cl.Probabilities[l] = probs[c.index[l]]
	}
	return cl, nil
}

// Run decodes, preprocesses and classifies one image.
func (c *Classifier) Run(data []byte) (*Output, error) {
	img, err := DecodeRGB(data)
	if err != nil {
		return nil, err
	}
	return c.Model.Forward(c.Model.Preprocessor.PixelValues(img))
}

// Softmax is exp(x − max) / Σ exp(x − max) in float64.
func Softmax(x []float64) []float64 {
	mx := math.Inf(-1)
	for _, v := range x {
		mx = math.Max(mx, v)
	}
	out := make([]float64, len(x))
	sum := 0.0
	for i, v := range x {
		out[i] = math.Exp(v - mx)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

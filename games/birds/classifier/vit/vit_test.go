package vit

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/internal/testshared"
)

type expected struct {
	Labels  []string `json:"labels"`
	Results []struct {
		Image   string    `json:"image"`
		Size    []int     `json:"size"`
		Logits  []float64 `json:"logits"`
		Softmax []float64 `json:"softmax"`
		Top     any       `json:"top"`
	} `json:"results"`
}

func readExpected(t *testing.T) (string, *expected) {
	dir := testshared.Dir(t, "science-birds", "vit")
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var e expected
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	if len(e.Results) == 0 {
		t.Fatal("expected.json has no results")
	}
	return dir, &e
}

// The preprocessing alone (Pillow's bilinear resize, rescale, normalise) equals the reference
// tensor bit for bit.
func TestPixelValuesMatchReference(t *testing.T) {
	dir, _ := readExpected(t)
	pre, err := LoadPreprocessor(filepath.Join(dir, "model"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "pixel_values_img00.f32"))
	if err != nil {
		t.Fatal(err)
	}
	png, err := os.ReadFile(filepath.Join(dir, "images", "img00.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := DecodeRGB(png)
	if err != nil {
		t.Fatal(err)
	}
	got := pre.PixelValues(img)
	if len(raw) != 4*len(got) {
		t.Fatalf("reference has %d bytes, we made %d values", len(raw), len(got))
	}
	bad := 0
	for i, g := range got {
		w := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		if g != w {
			if bad < 5 {
				t.Errorf("value %d (channel %d, y %d, x %d): got %v, want %v", i, i/(224*224), i%(224*224)/224, i%224, g, w)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d pixel values differ", bad, len(got))
	}
}

// The whole classifier reproduces the independent implementation's logits within 1e-4.
func TestLogitsMatchReference(t *testing.T) {
	dir, e := readExpected(t)
	c, err := Open(filepath.Join(dir, "model"))
	if err != nil {
		t.Fatal(err)
	}
	serial := map[string][]float64{} // the logits of one worker: more workers give the same bits
	for _, workers := range []int{1, 3} {
		c.Model.Workers = workers
		for _, r := range e.Results {
			png, err := os.ReadFile(filepath.Join(dir, r.Image))
			if err != nil {
				t.Fatal(err)
			}
			out, err := c.Run(png)
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Logits) != len(r.Logits) {
				t.Fatalf("%s: %d logits, want %d", r.Image, len(out.Logits), len(r.Logits))
			}
			worst := 0.0
			for i := range r.Logits {
				worst = math.Max(worst, math.Abs(out.Logits[i]-r.Logits[i]))
			}
			if worst > 1e-4 {
				t.Errorf("%s (workers %d): logits differ by up to %.3g (want ≤ 1e-4)", r.Image, workers, worst)
			}
			if workers == 1 {
				serial[r.Image] = out.Logits
			} else {
				for i, l := range out.Logits {
					if math.Float64bits(l) != math.Float64bits(serial[r.Image][i]) {
						t.Fatalf("%s: logit %d is %v with %d workers, %v with one", r.Image, i, l, workers, serial[r.Image][i])
					}
				}
			}
			img, _, err := image.Decode(bytes.NewReader(png))
			if err != nil {
				t.Fatal(err)
			}
			cl, err := c.Classify(context.Background(), img)
			if err != nil {
				t.Fatal(err)
			}
			for i, l := range e.Labels {
				if d := math.Abs(cl.Probabilities[l[0]-'A'] - r.Softmax[i]); d > 1e-5 {
					t.Errorf("%s: p(%s) = %v, want %v", r.Image, l, cl.Probabilities[l[0]-'A'], r.Softmax[i])
				}
			}
			t.Logf("%s workers %d: max logit error %.2g", r.Image, workers, worst)
		}
	}
}

// A folder whose weights do not fit its config, or whose config asks for what is not
// implemented, is refused with the reason.
func TestLoadRefusesMismatchedModels(t *testing.T) {
	src := testshared.Dir(t, "science-birds", "vit", "model")
	cfg, err := os.ReadFile(filepath.Join(src, ConfigFile))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct{ old, new, want string }{
		"hidden": {`"hidden_size": 32`, `"hidden_size": 64`, "shape"},
		"act":    {`"hidden_act": "gelu"`, `"hidden_act": "gelu_new"`, "gelu"},
		"heads":  {`"num_attention_heads": 4`, `"num_attention_heads": 5`, "multiple"},
		"layers": {`"num_hidden_layers": 2`, `"num_hidden_layers": 3`, "no tensor"},
		"labels": {`"25": "Z"`, `"25": "A"`, "letter"},
		"huge":   {`"intermediate_size": 64`, `"intermediate_size": 100000000`, "intermediate_size"},
	}
	for name, c := range cases {
		dir := t.TempDir()
		for _, f := range []string{PreprocessorFile, WeightsFile} {
			if err := os.Symlink(filepath.Join(src, f), filepath.Join(dir, f)); err != nil {
				t.Fatal(err)
			}
		}
		text := string(cfg)
		if !strings.Contains(text, c.old) {
			t.Fatalf("%s: config has no %s", name, c.old)
		}
		os.WriteFile(filepath.Join(dir, ConfigFile), []byte(strings.Replace(text, c.old, c.new, 1)), 0o644)
		_, err := Open(dir)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v (want an error about %q)", name, err, c.want)
		}
	}
}

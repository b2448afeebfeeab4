package vit

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"pcgwb/internal/safeio"
)

// The files of a published model folder.
const (
	ConfigFile       = "config.json"
	PreprocessorFile = "preprocessor_config.json"
	WeightsFile      = "model.safetensors"
	maxJSONBytes     = 1 << 20
)

// Config is the part of a Hugging Face ViT config.json the forward pass needs.
type Config struct {
	ModelType         string            `json:"model_type"`
	HiddenSize        int               `json:"hidden_size"`
	NumHiddenLayers   int               `json:"num_hidden_layers"`
	NumAttentionHeads int               `json:"num_attention_heads"`
	IntermediateSize  int               `json:"intermediate_size"`
	HiddenAct         string            `json:"hidden_act"`
	LayerNormEps      float64           `json:"layer_norm_eps"`
	ImageSize         int               `json:"image_size"`
	PatchSize         int               `json:"patch_size"`
	NumChannels       int               `json:"num_channels"`
	QKVBias           *bool             `json:"qkv_bias"`
	ID2Label          map[string]string `json:"id2label"`
	NameOrPath        string            `json:"_name_or_path"`

	labels []string // id2label in index order
}

// Labels lists the class labels in logit order.
func (c *Config) Labels() []string { return c.labels }

// Preprocessor is the part of preprocessor_config.json (ViTImageProcessor, or the older
// ViTFeatureExtractor) the preprocessing needs.
type Preprocessor struct {
	ProcessorType    string    `json:"image_processor_type"`
	FeatureExtractor string    `json:"feature_extractor_type"`
	DoResize         *bool     `json:"do_resize"`
	Size             sizeField `json:"size"`
	Resample         *int      `json:"resample"`
	DoRescale        *bool     `json:"do_rescale"`
	RescaleFactor    *float64  `json:"rescale_factor"`
	DoNormalize      *bool     `json:"do_normalize"`
	ImageMean        []float64 `json:"image_mean"`
	ImageStd         []float64 `json:"image_std"`
	DoConvertRGB     *bool     `json:"do_convert_rgb"`
}

// sizeField is "size": {"height": H, "width": W} or, in old files, a single number.
type sizeField struct{ Height, Width int }

func (s *sizeField) UnmarshalJSON(b []byte) error {
	var n int
	if err := json.Unmarshal(b, &n); err == nil {
		s.Height, s.Width = n, n
		return nil
	}
	var m struct {
		Height, Width int
		ShortestEdge  int `json:"shortest_edge"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	if m.ShortestEdge != 0 {
		return fmt.Errorf("size {shortest_edge: %d} is not a ViT resize (want height and width)", m.ShortestEdge)
	}
	s.Height, s.Width = m.Height, m.Width
	return nil
}

// Pillow's resampling filters as preprocessor_config.json numbers them.
const resampleBilinear = 2

// maxDim bounds every size in a config so that a hostile file cannot ask for a huge allocation.
const maxDim = 1 << 14

func readJSON(path string, v any) error {
	data, err := safeio.ReadFile(path, maxJSONBytes)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// LoadConfig reads and checks DIR/config.json.
func LoadConfig(dir string) (*Config, error) {
	path := filepath.Join(dir, ConfigFile)
	var c Config
	if err := readJSON(path, &c); err != nil {
		return nil, err
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &c, nil
}

func (c *Config) check() error {
	if c.ModelType != "" && c.ModelType != "vit" {
		return fmt.Errorf("model_type %q is not vit", c.ModelType)
	}
	if c.NumChannels == 0 {
		c.NumChannels = 3
	}
	if c.HiddenAct != "gelu" {
		return fmt.Errorf("hidden_act %q: only gelu (exact, erf) is implemented", c.HiddenAct)
	}
	if c.QKVBias != nil && !*c.QKVBias {
		return fmt.Errorf("qkv_bias false is not implemented")
	}
	for _, d := range []struct {
		name string
		v    int
	}{{"hidden_size", c.HiddenSize}, {"num_hidden_layers", c.NumHiddenLayers}, {"num_attention_heads", c.NumAttentionHeads},
		{"intermediate_size", c.IntermediateSize}, {"image_size", c.ImageSize}, {"patch_size", c.PatchSize}} {
		if d.v < 1 || d.v > maxDim {
			return fmt.Errorf("%s %d is not in 1..%d", d.name, d.v, maxDim)
		}
	}
	if c.NumChannels != 3 {
		return fmt.Errorf("num_channels %d: the image processor gives 3", c.NumChannels)
	}
	if c.HiddenSize%c.NumAttentionHeads != 0 {
		return fmt.Errorf("hidden_size %d is not a multiple of num_attention_heads %d", c.HiddenSize, c.NumAttentionHeads)
	}
	if c.ImageSize%c.PatchSize != 0 {
		return fmt.Errorf("image_size %d is not a multiple of patch_size %d", c.ImageSize, c.PatchSize)
	}
	if c.LayerNormEps <= 0 || math.IsInf(c.LayerNormEps, 0) || math.IsNaN(c.LayerNormEps) {
		return fmt.Errorf("layer_norm_eps %v", c.LayerNormEps)
	}
	n := len(c.ID2Label)
	if n == 0 || n > maxDim {
		return fmt.Errorf("id2label has %d labels", n)
	}
	c.labels = make([]string, n)
	for k, v := range c.ID2Label {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= n || c.labels[i] != "" {
			return fmt.Errorf("id2label key %q is not one of 0..%d", k, n-1)
		}
		if v == "" {
			return fmt.Errorf("id2label %q is empty", k)
		}
		c.labels[i] = v
	}
	return nil
}

// LoadPreprocessor reads and checks DIR/preprocessor_config.json.
func LoadPreprocessor(dir string) (*Preprocessor, error) {
	path := filepath.Join(dir, PreprocessorFile)
	var p Preprocessor
	if err := readJSON(path, &p); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &p, nil
}

func (p *Preprocessor) check() error {
	kind := p.ProcessorType
	if kind == "" {
		kind = p.FeatureExtractor
	}
	if kind != "ViTImageProcessor" && kind != "ViTFeatureExtractor" {
		return fmt.Errorf("image processor %q: only ViTImageProcessor is implemented", kind)
	}
	if p.DoResize == nil || !*p.DoResize {
		return fmt.Errorf("do_resize must be true (the model takes a fixed size)")
	}
	if p.Resample != nil && *p.Resample != resampleBilinear {
		return fmt.Errorf("resample %d: only Pillow's bilinear (2) is implemented", *p.Resample)
	}
	if p.Size.Height < 1 || p.Size.Width < 1 || p.Size.Height > maxDim || p.Size.Width > maxDim {
		return fmt.Errorf("size %d×%d", p.Size.Width, p.Size.Height)
	}
	if p.DoRescale == nil || *p.DoRescale {
		if p.RescaleFactor == nil {
			f := 1.0 / 255
			p.RescaleFactor = &f
		}
	}
	if p.DoNormalize == nil || *p.DoNormalize {
		if len(p.ImageMean) != 3 || len(p.ImageStd) != 3 {
			return fmt.Errorf("image_mean and image_std need 3 values each")
		}
		for _, s := range p.ImageStd {
			if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
				return fmt.Errorf("image_std %v", p.ImageStd)
			}
		}
	}
	return nil
}

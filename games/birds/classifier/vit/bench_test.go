package vit

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomModel builds a model of the given size with random weights.
func randomModel(hidden, layers, heads, inter int) *Model {
	cfg := &Config{HiddenSize: hidden, NumHiddenLayers: layers, NumAttentionHeads: heads, IntermediateSize: inter,
		HiddenAct: "gelu", LayerNormEps: 1e-12, ImageSize: 224, PatchSize: 16, NumChannels: 3, ID2Label: map[string]string{}}
	for i := 0; i < 26; i++ {
		cfg.ID2Label[fmt.Sprint(i)] = string(rune('A' + i))
	}
	if err := cfg.check(); err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ts := map[string]*Tensor{}
	add := func(name string, shape ...int) {
		t := &Tensor{DType: "F32", Shape: shape, Data: make([]float32, prod(shape))}
		for i := range t.Data {
			t.Data[i] = float32(rng.NormFloat64() * 0.02)
		}
		ts[name] = t
	}
	H := hidden
	add("vit.embeddings.patch_embeddings.projection.weight", H, 3, 16, 16)
	add("vit.embeddings.patch_embeddings.projection.bias", H)
	add("vit.embeddings.cls_token", 1, 1, H)
	add("vit.embeddings.position_embeddings", 1, 197, H)
	for l := 0; l < layers; l++ {
		p := fmt.Sprintf("vit.encoder.layer.%d.", l)
		for _, n := range []string{"layernorm_before", "layernorm_after"} {
			add(p+n+".weight", H)
			add(p+n+".bias", H)
		}
		for _, n := range []string{"attention.attention.query", "attention.attention.key", "attention.attention.value", "attention.output.dense"} {
			add(p+n+".weight", H, H)
			add(p+n+".bias", H)
		}
		add(p+"intermediate.dense.weight", inter, H)
		add(p+"intermediate.dense.bias", inter)
		add(p+"output.dense.weight", H, inter)
		add(p+"output.dense.bias", H)
	}
	add("vit.layernorm.weight", H)
	add("vit.layernorm.bias", H)
	add("classifier.weight", 26, H)
	add("classifier.bias", 26)
	f := 1.0 / 255
	pre := &Preprocessor{ProcessorType: "ViTImageProcessor", Size: sizeField{224, 224}, RescaleFactor: &f, ImageMean: []float64{.5, .5, .5}, ImageStd: []float64{.5, .5, .5}}
	m, err := newModel(cfg, pre, ts)
	if err != nil {
		panic(err)
	}
	return m
}

// BenchmarkViTBase times one ViT-B/16 forward pass (85.8 M parameters, random weights).
func BenchmarkViTBase(b *testing.B) {
	m := randomModel(768, 12, 12, 3072)
	pix := make([]float32, 3*224*224)
	for i := range pix {
		pix[i] = float32(i%7) / 7
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.Forward(pix); err != nil {
			b.Fatal(err)
		}
	}
}

// Package vit runs the competition's letter classifier natively: a Hugging Face
// ViTForImageClassification (ViT-B/16 in the competition, `pittawat/vit-base-uppercase-english-characters`)
// loaded from the folder its authors publish (config.json, preprocessor_config.json,
// model.safetensors), with ViTImageProcessor's preprocessing — RGB, Pillow's bilinear resize to
// 224×224 with its fixed-point 8-bit arithmetic, rescale, normalise — done number for number.
//
// The forward pass is the reference one: a stride-16 patch convolution, the [CLS] token and
// position embeddings, pre-norm encoder layers (LayerNorm, multi-head self-attention, residual,
// LayerNorm, dense, exact erf GELU, dense, residual), a final LayerNorm and the linear head on
// the [CLS] vector; the softmax of the logits gives the letter probabilities and the [CLS]
// vector of the last encoder layer (before the final LayerNorm) is the embedding the 2025
// diversity uses. The matrix products of one image are split over the cores. Arithmetic is
// float32 like the reference's weights, with explicit roundings so that no build (GOAMD64=v3
// fuses multiply-adds) changes a result.
//
// Download fetches the model at the user's request, each file checked against a pinned SHA-256
// digest and a size limit. The package is pure Go: no GUI, no cgo.
package vit

// Package classifier is the workbench's proxy for the ChatGPT4PCG letter classifiers: a small
// convolutional network over 28×28 renderings of a Science Birds structure, trained offline on
// block-letter and handwriting-style samples (train/, `make train-classifier`) and shipped as
// weights. It gives each level's similarity to its target letter, the competition's second
// score after stability; docs/classifier.md states how well it agrees with the real one.
package classifier

// Package birds rebuilds, without Unity, the evaluation pipeline of the ChatGPT4PCG competitions
// (2023, 2024) and LLMs4PCG (2025): an LLM answers with drop_block calls that stack wooden
// blocks on a 20×16 grid into the shape of a capital letter; the organisers extract the calls,
// convert them to a Science Birds level, let the game's physics run for 10 s to measure
// stability, render the surviving blocks as a black-on-white image, ask a letter classifier how
// much it looks like the target letter, and score and rank the prompts.
//
// Extraction, conversion, the level file, diversity and scoring are byte- or digit-exact
// reimplementations of the organisers' published code (see ../../../shared/spec/science-birds.md
// for the rules in prose). Stability runs the same Box2D engine Unity wraps (ByteArena/box2d, a
// Go port of Box2D 2.3.1) with the game's constants and its damage model, deterministically, in
// milliseconds; the image is drawn the way the evaluator draws it. The letter classifier itself
// is not part of this package: Classifier is an interface with an external-command and an
// HTTP implementation, and Unavailable reports honestly that no similarity exists.
//
// The package is pure Go: no GUI, no cgo.
package birds

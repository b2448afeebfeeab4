// Package llmplay holds the protocols by which language models take part in duel games
// (gg-bench's evaluation and generation, spec §3-§5 and §10-§11), independent of any client:
// LLMPlayer asks an Asker for each move with gg-bench's prompts, digits-only parsing and
// retries; Evaluate plays the 30-game protocol and Score aggregates it as gg-bench does and
// strictly; Generator turns rulebooks into validated scripts with a repair loop (validating
// in the sandbox); Fingerprint and Dedup find near-identical games.
//
// The caller gives the client as an Asker (package llm has one); the games are played under
// package duel's harness.
package llmplay

// Package duel runs generated two-player games in the manner of gg-bench ("Measuring General
// Intelligence with Generated Games", see ../shared/spec/gg-bench.md): a game is a Starlark
// module that defines a small contract (NUM_ACTIONS, OBS_SIZE, initial_state, to_move,
// legal_actions, apply, outcome, observe, render, action_label); this package loads it in a
// sandbox with per-call step, wall-time and memory limits, plays it between agents (random,
// first-legal, MCTS), validates it with gg-bench's filters, and runs tournaments.
//
// The harness, not the game, rejects illegal moves, derives rewards from the explicit outcome,
// enforces the ply cap (reported as truncation, not as a result) and classifies faults.
//
// Scripts are untrusted: the in-process guards are script's, and the hard boundary, a sandbox
// worker process under OS limits and CPU-time budgets, is package sandbox's. Agents' moves
// follow one seeding rule (session.go), in this process or in a worker (ActOn).
//
// Language models play and write games in package llmplay; the benchmark opponent they
// play against is learned in package learn (see below).
//
// The benchmark opponent is learned per game (train.go, trainrun.go, net.go, netagent.go):
// AlphaZero-style self-play, run in the sandbox worker within a CPU-time budget, trains a small
// policy/value network over the game's observation; a NetAgent plays as PUCT search with the
// network's priors and value and rollouts that sample its policy; gg-bench's rule chooses the
// benchmark checkpoint, and its strength against random and plain MCTS is measured and kept
// with every evaluation against it (strength.go).
//
// The package is pure Go: it imports neither Fyne nor Ebiten nor the app, so the CLI, the GUI
// and tests share it.
package duel

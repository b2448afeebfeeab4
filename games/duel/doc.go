// Package duel runs generated two-player games in the manner of gg-bench ("Measuring General
// Intelligence with Generated Games", see ../shared/spec/gg-bench.md): a game is a Starlark
// module that defines a small contract (NUM_ACTIONS, OBS_SIZE, initial_state, to_move,
// legal_actions, apply, outcome, observe, render, action_label). This package is the
// embedding API: load or open a game (script.Load or script.LoadBuiltin in this process, for
// a trusted script; sandbox.OpenSandboxed or a sandbox.Pool for an untrusted one, played the
// same way), play one game between agents (Play), drive one move by move with undo
// (Session), and play matches and round-robin tournaments (PlayMatch, RunTournament) with
// their records and 95% intervals. See the package Example.
//
// The harness, not the game, rejects illegal moves, derives rewards from the explicit outcome,
// enforces the ply cap (reported as truncation, not as a result) and classifies faults.
//
// Scripts are untrusted: the in-process guards are script's, and the hard boundary, a sandbox
// worker process under OS limits and CPU-time budgets, is package sandbox's. Agents' moves
// follow one seeding rule (session.go), in this process or in a worker (ActOn).
//
// The rest of the game machinery lives in sub-packages, each beside this one's embedding
// API: core (the contract every part shares), script (the Starlark runtime and its
// in-process guards), agents (random, first-legal, MCTS, the solver), sandbox (the worker
// process, Pool and Remote), validate (gg-bench's filters), learn (the trained benchmark
// opponent: network, self-play, NetAgent, strength and targets) and llmplay (language models
// as players and game writers).
//
// The package is pure Go: it imports neither Fyne nor Ebiten nor the app, so the CLI, the GUI
// and tests share it.
package duel

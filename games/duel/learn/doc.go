// Package learn trains the benchmark opponent of a game (train.go, trainrun.go, net.go,
// netagent.go): AlphaZero-style self-play, run in the sandbox worker within a CPU-time budget
// (the worker runs it as an operation this package registers at init), trains a small
// policy/value network over the game's observation; a NetAgent plays as PUCT search with the
// network's priors and value and rollouts that sample its policy (it travels to the worker as
// a spec, also registered here); gg-bench's rule chooses the benchmark checkpoint, and its
// strength against random and plain MCTS is measured and kept with every evaluation against
// it (strength.go). MeasureTargets holds a training folder to the targets of issue #30
// (targets.go).
package learn

// Package agents holds the built-in players of the duel harness that need nothing but the game:
// Random, FirstLegal, the policies, MCTS with random rollouts and the exhaustive Solver, and
// ParseAgent, which makes them from their names. They run wherever the game runs: in this
// process on a script.ScriptGame, or inside a sandbox worker.
package agents

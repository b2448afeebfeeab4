// Package agents holds the built-in players of the duel harness that need nothing but the game:
// Random, FirstLegal, the policies, MCTS with random rollouts and the exhaustive Solver, and
// ParseAgent, which makes them from their names. They run wherever the game runs: in this
// process on a script.ScriptGame, or inside a sandbox worker.
//
// For games small enough to visit whole, Enumerate tables every position (a native replay of the
// rules, for questions that need millions of moves) and BestRespond estimates the most any
// player could win against a fixed opponent: whether a target such as "beat mcts-100 in 70 % of
// games" is within anyone's reach on that game.
package agents

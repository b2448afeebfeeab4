// Package sokoban is the benchmark's Sokoban problem (sokoban-v0, sokoban-complex-v0,
// sokoban-large-v0): a small grid of walls, floor, one player, crates and targets, which the
// player must solve by pushing every crate onto a target. Levels are played by the reference's
// agents (breadth-first search, then A* with three weightings) with deadlock pruning; quality
// rewards well-formed levels whose solution is long enough, diversity compares the shapes of the
// solutions, and the control asks for a number of crates.
package sokoban

// Package ddave is the benchmark's Dangerous Dave problem (ddave-v0, ddave-complex-v0,
// ddave-large-v0): a small side-view platformer level of walls, one player, one exit door, one
// key, diamonds and spikes. The player falls, walks left or right and jumps; to win it picks up
// the key and reaches the door without touching a spike. Before anything is measured the level
// is repaired (areas the player cannot reach become walls, with the reference's region-index
// quirk). Levels are played by the reference's agents (A* with three weightings, then
// breadth-first search), once for the door and once per diamond; quality rewards well-formed,
// solvable levels whose solution takes enough jumps and whose diamonds can all be reached,
// diversity compares heat maps of the solutions, and the controls ask for the player's and the
// door's positions and the number of diamonds.
//
// The engine (NewGame, State.Step, Solve, RenderState) is exported so that a solution can be
// replayed and a level played by hand with the same rules.
package ddave

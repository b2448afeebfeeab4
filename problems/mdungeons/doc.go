// Package mdungeons is the benchmark's MiniDungeons problem (mdungeons-v0,
// mdungeons-enemies-v0, mdungeons-large-v0): a small top-down roguelike map of walls, floor,
// one hero, one exit, healing potions, treasure, goblins and ogres. The hero starts with 5
// health; stepping on an enemy kills it at a fixed cost (goblin 1, ogre 2), potions heal 2.
// Levels are played by the reference's agents (A* with three weightings, then breadth-first
// search); quality rewards one connected area with one hero and one exit, enough enemies, a
// solvable level with a long enough solution, and enemies close to the solution path.
// Diversity mixes how differently the solutions fight and loot (difflib's ratio of their event
// strings, so it is asymmetric) with the share of differing tiles; the controls ask for the
// treasures collected and the solution length.
//
// The engine (NewGame, State.Step, Solve, Events, RenderState) is exported so that a solution
// can be replayed and a level played by hand with the same rules.
package mdungeons

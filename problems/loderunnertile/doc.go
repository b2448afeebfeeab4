// Package loderunnertile is the PCG Benchmark's Lode Runner Tile problem (loderunnertile-*): a
// 21×32 tile map (brick, empty, player, gold, enemy, ladder, rope) with a row of bricks added
// below. A good level has one player, a target amount of gold and enemies, lets a simplified
// player reach a fifth of it and every gold piece, uses its ladders, ropes and floors, and moves
// the player like the five original levels do (walking, hanging, climbing and falling
// run-length distributions, compared by Jensen–Shannon distance).
//
// The package also holds the Lode Runner engine shared with package loderunner (the pattern
// version): the reachability of the simplified player, the reference distributions read from
// the shipped levels (loderunner/data/level_0..4.txt, found at run time through package data),
// the info, quality, diversity and controllability. See Variant.
package loderunnertile

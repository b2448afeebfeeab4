// Package smb is the benchmark's Super Mario Bros problem on vertical slices (smb-v0,
// smb-medium-v0, smb-small-v0, smb-scene-v0): a level is a row of slice ids from the slice
// library (smb/slices.txt, loaded at run time through package data), padded with three empty
// slices on each side, with Mario's start and the flag. Static checks count broken pipes,
// per-row noise above the original game's allowances (constants of the problem), the share of
// empty slices and of floating enemies; a level that passes them is played on the Mario AI
// Framework port (package smb/engine) by the scripted agent and, when it does not reach the
// flag, by the A* agent. Quality weighs completion four times; diversity compares where Mario
// went; the controls ask for the enemies killed, jumps made and coins collected.
//
// The measures, the info and the renderer are shared with the tile version (package smbtile)
// through Variant and NewProblem. A level without any enemy has no floating-enemy ratio: the
// reference divides by zero there, and Info returns ErrNoEnemies.
package smb

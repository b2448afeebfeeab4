// Package engine is the Super Mario Bros game used by the smb and smbtile problems: a port of
// the parts of the Mario AI Framework that the benchmark's levels can reach (small Mario,
// goombas, koopas and spikies that die when stomped, coins, coin and brick blocks, pipes, the
// flag) with the reference's frame order, float arithmetic and integer truncation, plus its
// two agents: the scripted runner-jumper and the A* planner.
//
// The reference's quirks are kept on purpose, because the benchmark's numbers depend on them:
// the level text ends with a newline, so the level is 17 tiles high and 272 px tall; a stomped
// koopa never leaves a shell; a winged spiky can be stomped; cloning a world rounds Mario's
// position through x-8+8 and y-15+15; and the frame that times the game out (or is paused)
// repeats the previous frame's events.
//
// A Game can be stepped one frame at a time with keyboard-like Actions and read back (Mario,
// enemies, tiles, coins, time left), so a level can be played by hand or an agent's trace
// replayed frame by frame.
package engine

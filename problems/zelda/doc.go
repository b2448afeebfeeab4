// Package zelda is the PCG Benchmark's Zelda problem (zelda-v0, zelda-enemies-v0,
// zelda-large-v0): a small top-down dungeon room with one player, one key, one locked door and
// a few enemies. A good room is one connected area in which the player can walk to the key and
// the key to the door along a long enough route. Diversity compares the player→key routes as
// strings (difflib's ratio, so it is asymmetric), and the control asks for given player→key and
// key→door distances.
package zelda

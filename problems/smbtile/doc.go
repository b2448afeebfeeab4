// Package smbtile is the benchmark's Super Mario Bros problem on tiles (smbtile-v0,
// smbtile-medium-v0, smbtile-small-v0, smbtile-scene-v0): the content is a 16-row map of
// symbol ids (sky, ground, solid block, brick, coin block, pipe, coin, goomba, koopa, spiky),
// padded with three columns of sky over ground on each side, with Mario's start and the flag.
// Everything else — the static checks, the game, the agents, quality, diversity,
// controllability and the picture — is the slice version's (package smb), except that the
// empty share counts tiles and an enemy on the bottom row floats. Like the reference, a map
// without any enemy is an error (smb.ErrNoEnemies, the reference's ZeroDivisionError).
package smbtile

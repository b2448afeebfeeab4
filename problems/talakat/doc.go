// Package talakat is the PCG Benchmark's Talakat problem (talakat-v0, talakat-simple-v0,
// talakat-complex-v0, talakat-long-v0): bullet-hell boss patterns. Each content row is a
// sequence of choices that expands a small grammar into one bullet spawner (what it emits, how
// often, at which angles, speeds and radii; later rows may launch earlier ones). The boss fight
// is simulated frame by frame with an invulnerable player, and the metrics read where the
// bullets went: the pattern must last the fight, cover the screen evenly without filling it,
// and keep enough bullets on screen. The engine (World) is also steppable with a moving,
// vulnerable player for a play view.
package talakat

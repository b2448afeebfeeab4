// Package arcade is the PCG Benchmark's Arcade Rules problem (arcade-v0, arcade-wide-v0,
// arcade-large-v0), after Togelius and Schmidhuber's automatic game design: a content is the
// rule set of a tiny arcade game (the player's start, a seed, a win rule, behaviours and start
// cells of three colours of pieces, and nine collision rules), played on a fixed level by three
// agents (do nothing, random, flat Monte-Carlo search). The games are random but seeded from
// the content through an exact emulation of numpy's generator (package numpyrng), so every
// trace equals the reference's. Engine, State and the agents are exported for replay and play.
package arcade

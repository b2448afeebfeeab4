// Package isaac is the PCG Benchmark's Isaac problem (isaac-v0, isaac-medium-v0,
// isaac-large-v0): a Binding-of-Isaac-style floor plan. Each cell of a small grid is either
// empty or a room with doors on some of its four sides (a bitmask), and four cells are marked
// as the start, boss, shop and treasure rooms. A good floor has about six rooms, all connected
// through doors that match on both sides, the four special rooms distinct, and a long walk from
// the start to the boss. The control asks for a given number of rooms.
package isaac

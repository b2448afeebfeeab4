// Package solver holds the search agents the reference's tile games share (Sokoban, Dangerous
// Dave, MiniDungeons): a breadth-first agent and a weighted A* agent over game states, with the
// reference's exact expansion order, visited-set rule, best-node rule, iteration budget and
// Python heapq tie-breaking, so that the solutions (and the heuristics of unsolved levels) they
// report are the reference's.
//
// A game plugs in by implementing State for its own state type. Keys are whatever comparable
// value identifies a state for the visited set; a compact fixed-size array is much cheaper than
// the reference's strings and is equivalent as long as it encodes exactly the same fields.
package solver

// Package core holds what every part of the duel harness shares about a two-player game: the
// Game contract a script implements (State, Outcome, Info), the faults a call can end in
// (Fault, FaultKind), what an agent is asked (Turn, Agent), the board geometry of moves
// (Square, CellMapper, MoveCells) and the escaping of script text shown on a terminal
// (Printable). It imports nothing else of the project.
package core

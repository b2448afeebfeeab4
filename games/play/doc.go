// Package play is the play view's logic: every playable problem behind one small Game
// interface, and the Session that drives a game with keys — from the keyboard in the window,
// from a script in tests and the smoke test, or from the problem's own recorded solution in a
// replay. It composes each frame (the problem's RenderState, scaled, with a text HUD) as a
// plain image, so everything here runs and is tested headless; package play/window is the
// Ebiten loop that shows those frames and turns keystrokes into Keys.
//
// One engine per game: the adapters only translate keys into the problems' own engines
// (sokoban, ddave, mdungeons) or their play rules (zelda, binary, isaac, building,
// elimination, loderunnertile), the same code that evaluates the levels.
package play

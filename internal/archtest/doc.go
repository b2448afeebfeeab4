// Package archtest holds no code, only a test of the rules that keep the core pure:
// problems/, games/, llm/, stats/ and the other shared packages import neither Fyne nor Ebiten
// (directly or through another package, tests included), Ebiten is imported only by the two
// window packages under canvas/ that run in a child process of their own, and the Fyne shell
// (app/) never links Ebiten. See docs/architecture.md.
package archtest

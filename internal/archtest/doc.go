// Package archtest holds no code, only tests of the rules that keep the workbench's layout
// sound: problems/, games/, llm/, stats/ and the other shared packages import neither Fyne nor
// Ebiten (directly or through another package, tests included); Ebiten is imported only by the
// two window packages under canvas/ that run in a child process of their own, and the Fyne shell
// (app/) never links Ebiten; no source file of the shells (app/, cmd/) is longer than 400 lines;
// every package has a doc comment. See docs/architecture.md.
package archtest

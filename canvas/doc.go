// Package canvas holds no code: it is the folder of the workbench's Ebiten windows and of what
// they draw, each in a package of its own.
//
//   - canvas/playwindow shows a play.View (a play session, a playtest kiosk) in an Ebiten
//     window: `workbench play` and `workbench playtest play`.
//   - canvas/birdsview animates a Science Birds level with the evaluator's own physics, drawn in
//     software into images; it imports no Ebiten, so its frames are tested headless.
//   - canvas/birdsview/window shows a birdsview.View in an Ebiten window: `workbench birds
//     animate`.
//
// The two window packages are the only importers of Ebiten in the workbench
// (internal/archtest checks it). Ebiten wants the main thread and runs once per process, so
// the GUI opens these windows in a child process (the workbench executable with the command
// above), never inside the Fyne window. Nothing under canvas/ imports Fyne. Problem renderers
// live next to their problems and draw with the sprites of package assets; the Fyne GUI's own
// widgets live in app/.
package canvas

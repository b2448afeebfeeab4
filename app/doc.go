// Package app is the workbench's Fyne shell: the main window, its problem panel (picker,
// description, spaces and the target control) and its tabs, listed in order in one table
// (tabTable, window_tabs.go):
//
//   - Sample: seeded random contents of the selected problem (problems.SampleN), evaluated as a
//     set;
//   - Run: a generator run recorded as a run folder (problems/experiment), with Start / Pause /
//     Resume / Cancel, live plots of the run's events and its current or final population;
//   - Editor: paint the tiles of a level and watch quality and controllability recomputed;
//   - Compare: runs side by side, grouped over seeds, as problems/experiment summarises them;
//   - Range: a heatmap of two metrics of a set of levels, or a MAP-Elites archive; tapping a
//     cell lists its levels;
//   - Birds, Games, LLM: Science Birds levels, two-player duels, LLM generation.
//
// New(a, Options) builds and configures the window (problem, tab, seed, run, folders to open);
// nothing outside the package types into its widgets. Files are grouped by a prefix per part
// of the window: window_* (the shell), widget_* (shared widgets), then one prefix per tab. A
// tab that reads or feeds another gets it at construction as a small interface
// (window_links.go), and each tab's tooltips are its panel's tips method, beside the panel.
//
// It arranges; it does not compute metrics: sampling, evaluation and runs call packages
// problems, search and experiment on their own goroutines (goJob) with a context, so the window
// never freezes and a newer request cancels an older one. Results reach the widgets through
// fyne.DoAndWait (onUI), serialised by one lock. Fyne's test driver runs such callbacks on the
// calling goroutine, so the tests' harness (harness_test.go) makes the test the UI goroutine:
// it holds that lock except while it waits, and cleanup cancels and awaits every job.
//
// The package never imports fyne.io/fyne/v2/app (only cmd/workbench does), so its tests run
// with Fyne's test driver: no display, no cgo.
package app

// Package app is the workbench's Fyne shell: the main window, its problem panel (picker,
// description, spaces and the target control) and five tabs:
//
//   - Sample: seeded random contents of the selected problem, evaluated as a set;
//   - Run: a generator run recorded as a run folder (problems/experiment), with Start / Pause /
//     Resume / Cancel, live plots of the run's events and its current or final population;
//   - Editor: paint the tiles of a level and watch quality and controllability recomputed;
//   - Compare: runs side by side, grouped over seeds (means with 95% confidence intervals,
//     curves on shared axes, each group's best population);
//   - Expressive range: a heatmap of two metrics of a set of levels, or a MAP-Elites archive;
//     tapping a cell lists its levels.
//
// Galleries open a level in a detail dialog (picture, metrics, control, info; edit, export).
// Files: run folders open and save, levels export as PNG, reference item JSON and metrics
// CSV; settings (output folder, default seed, theme) are Fyne preferences.
//
// It arranges; it does not compute metrics: sampling, evaluation and runs call packages
// problems, search and experiment on their own goroutines with a context, so the window never
// freezes and a newer request cancels an older one. Results reach the widgets through
// fyne.DoAndWait (onUI), serialised by one lock so that Fyne's test driver, which runs such
// callbacks on the calling goroutine, sees them one at a time as the real driver does. The
// small computations the panels need (confidence intervals, heatmap binning, sorting and
// filtering, tile geometry, exports) are plain functions with their own tests.
//
// The package never imports fyne.io/fyne/v2/app (only cmd/workbench does), so its tests run
// with Fyne's test driver: no display, no cgo.
package app

package app

import (
	"fyne.io/fyne/v2"
)

// Tooltips: each tab's table is its panel's tips method, beside the panel (sample.go, run.go,
// editor.go, compare.go, range.go, birds.go, games_match.go, llm_key.go); buildTabs hands each
// table to widgets.TipAll. Here are the texts several tabs share. Short and plain: what the control
// does, what the number means and its range. TestEveryControlHasATooltip fails when a tab
// shows a control without one.

// Shared explanations (several tabs show the same thing).
const (
	tipSeed        = "Seed of the random numbers: the same seed gives the same result again."
	tipFitness     = "What the search maximises, from 0 to 1: quality alone, or quality then control, or quality, control and diversity together."
	tipCounts      = "Per generation: feasible = levels of quality 1 (playable); unique = levels no other level duplicates; controlled = levels that meet their control target. Each is a count from 0 to the population size."
	tipFitnessPlot = "Best and mean fitness of the population per generation, from 0 to 1 (1 = every goal met)."
	tipSort        = "Order of the levels below: as produced, or best first by fitness, quality, controllability or diversity."
	tipFilter      = "Show only the levels that pass: feasible (quality 1), unique (no duplicate), controlled (control target met), or combinations."
	tipExport      = "Write the levels shown (this order and filter) to a folder as JSON, text and Tiled maps."
)

func populationTips(pv *populationView) map[fyne.CanvasObject]string {
	return map[fyne.CanvasObject]string{
		pv.sort:         tipSort,
		pv.Filter:       tipFilter,
		pv.exportButton: tipExport,
	}
}

// merge adds the entries of more to m.
func merge(m map[fyne.CanvasObject]string, more ...map[fyne.CanvasObject]string) map[fyne.CanvasObject]string {
	for _, x := range more {
		for k, v := range x {
			m[k] = v
		}
	}
	return m
}

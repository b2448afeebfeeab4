package app

import (
	"fyne.io/fyne/v2"
)

// The tooltips of every tab's controls and metrics, one table per panel: buildTabs hands each
// table to tipAll. Short and plain: what the control does, what the number means and its range.
// TestEveryControlHasATooltip fails when a tab shows a control missing here.

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

func (sp *samplePanel) tips() map[fyne.CanvasObject]string {
	return map[fyne.CanvasObject]string{
		sp.count:         "How many levels to sample, from 1 to 100. Diversity is measured within this set.",
		sp.countSlider:   "How many levels to sample, from 1 to 100.",
		sp.seed:          tipSeed,
		sp.newSeedButton: "Pick a new random seed (then Sample for a new set).",
		sp.sampleButton:  "Draw a new set of random levels of the selected problem and score each one (Ctrl+R).",
		sp.summary:       "Share of the set that passes each measure: quality, diversity and controllability pass at 1.00.",
	}
}

func (rp *runPanel) tips() map[fyne.CanvasObject]string {
	return merge(map[fyne.CanvasObject]string{
		rp.generator:    "How levels are made: random sampling, an evolution strategy (es), a genetic algorithm (ga), MAP-Elites, a constructive generator, or a language model (llm…).",
		rp.fitness:      tipFitness,
		rp.popSize:      "Population: how many levels each generation holds, from 1 to 10,000 (the paper uses 100).",
		rp.generations:  "Generations: how many rounds of selection and variation, from 0 to 100,000 (the paper uses 200).",
		rp.seed:         tipSeed,
		rp.axisX:        "MAP-Elites' first axis: the level property that spreads the archive horizontally.",
		rp.axisY:        "MAP-Elites' second axis: the level property that spreads the archive vertically.",
		rp.bins:         "How many cells each MAP-Elites axis is cut into.",
		rp.llmRate:      "Share of the children, from 0 to 1, that the language model writes instead of mutation.",
		rp.llmRepairs:   "How many times the model is asked again when its level does not parse.",
		rp.startButton:  "Start the run (or resume a paused one) into a new run folder (Ctrl+Enter).",
		rp.pauseButton:  "Pause after the current generation: Start resumes from the run folder.",
		rp.cancelButton: "Stop the run for good; its folder keeps what was done.",
		rp.fitnessPlot:  tipFitnessPlot,
		rp.countsPlot:   tipCounts,
	}, populationTips(rp.population))
}

func (ed *editorPanel) tips() map[fyne.CanvasObject]string {
	return map[fyne.CanvasObject]string{
		ed.undoButton:      "Take back the last stroke (Ctrl+Z; Ctrl+Shift+Z redoes it).",
		ed.randomButton:    "Replace the level with a random one of the problem.",
		ed.fillButton:      "Fill the whole level with the selected tile.",
		ed.pngButton:       "Save the level's picture as a PNG file.",
		ed.jsonButton:      "Save the level as JSON (workbench eval reads it).",
		ed.play.playButton: "Play the edited level in its own window.",
		ed.play.openButton: "Open a level from a .txt, .tmx or JSON file.",
		ed.timing:          "How long the last evaluation took (info, quality, controllability and picture).",
		ed.infoText:        "The level's measured properties (the problem's info): what quality, controllability and the Range axes are computed from.",
	}
}

func (cp *comparePanel) tips() map[fyne.CanvasObject]string {
	return map[fyne.CanvasObject]string{
		cp.addButton:          "Add a run folder, or a folder of run folders to tick several runs at once.",
		cp.addCurrentButton:   "Add the run shown in the Run tab.",
		cp.clearButton:        "Remove every run from the comparison (the folders stay on disk).",
		cp.playtestButton:     "Make a blind playtest playlist from the compared runs' levels.",
		cp.xAxis:              "What the x axis counts: generations, evaluations used, or model calls, to compare runs at equal budget.",
		cp.fitnessPlot:        "Best fitness per group of runs (0 to 1), the mean over distinct seeds with its interval.",
		cp.feasiblePlot:       "Share of the levels produced that are feasible (quality 1), from 0 to 1, with its interval; a one-generation run is a marker.",
		cp.people.addButton:   "Add a playtest session folder (players' ratings) to the People view.",
		cp.people.clearButton: "Remove every playtest session from the People view.",
		cp.people.kioskButton: "Start the full-screen kiosk for the next participant of a playtest session (their code and order come from the session).",
	}
}

func (ep *expressivePanel) tips() map[fyne.CanvasObject]string {
	return merge(map[fyne.CanvasObject]string{
		ep.source:        "Which levels to map: the Run tab's population or the Sample tab's set.",
		ep.view:          "Expressive range: how many levels fall in each cell; MAP-Elites archive: the best fitness found per cell.",
		ep.xField:        "The level property on the x axis.",
		ep.yField:        "The level property on the y axis.",
		ep.bins:          "How many cells each axis is cut into.",
		ep.refreshButton: "Read the levels again from their source.",
		ep.Map:           "Each cell holds the levels whose two properties fall in its bins; the colour scale on the right says how many (or the elite's fitness). Click a cell to see its levels.",
	}, populationTips(ep.cell))
}

func (p *birdsPanel) tips() map[fyne.CanvasObject]string {
	return map[fyne.CanvasObject]string{
		p.openButton:     "Open a Science Birds level (XML) or a letter program.",
		p.animateButton:  "Drop the level's blocks and watch whether the structure stands.",
		p.evaluateButton: "Score a competition folder: stability, similarity to the letter and the ranking.",
		p.promptButton:   "Ask a language model to write a letter's structure and score it.",
		p.cancelButton:   "Stop the evaluation or prompt run.",
		p.team:           "Show one team's per-letter stability, similarity and score.",
	}
}

func (dp *duelPanel) tips() map[fyne.CanvasObject]string {
	return map[fyne.CanvasObject]string{
		dp.game:              "The game to play: a built-in one, or a generated .star script opened below.",
		dp.openButton:        "Open a generated game's .star script (it runs in a sandbox).",
		dp.Agent:             "Your opponent: random, greedy, minimax or MCTS with its search budget.",
		dp.Seat:              "Whether you move first or second.",
		dp.newGameButton:     "Start a new game from the first position.",
		dp.undoButton:        "Take back your last move (and the agent's answer).",
		dp.stopButton:        "Stop what the tab is doing (a slow script call, the agent's search): in a game the position stays as shown; while a game loads, no game is left open.",
		dp.match.matchAgent:  "The second agent of an agent-vs-agent match against the first.",
		dp.match.matchButton: "Play a match of several games between the two agents, seats alternating; the win rate gets an interval.",
	}
}

func (lp *llmPanel) tips() map[fyne.CanvasObject]string {
	return map[fyne.CanvasObject]string{
		lp.offline:        "Answer every request from the response cache only (no network); a request not recorded fails.",
		lp.allowInsecure:  "Allow a plain http:// endpoint on another machine; the API key is then sent unencrypted.",
		lp.reaskInvalid:   "When a cached reply fails validation, ask the server again instead of reusing it.",
		lp.testButton:     "Send one short request to check the endpoint, model and key.",
		lp.resetButton:    "Put back the problem's original prompt template.",
		lp.templateHelp:   "Open or fold the list of variables the prompt template may use.",
		lp.examplesFrom:   "Where the example levels in the prompt come from: the built-in set or a finished run loaded in Compare.",
		lp.control:        "Put a random control target (for example a path length) into each level's prompt, so controllability can be scored.",
		lp.generateButton: "Ask the model for the levels, one request per level, and score them as a run folder.",
		lp.cancelButton:   "Stop asking; the replies received so far are kept.",
		lp.compareButton:  "Show the finished batch in Compare, next to the other runs.",
		lp.askAgainButton: "Ask the model again for the replies that came from the cache (the new answers replace the cached ones; the others replay).",
		lp.errorButton:    "Show the whole error message of the failed batch, to read or copy.",
		lp.count:          "How many levels to ask for, one request each.",
		lp.seed:           tipSeed + " It picks the examples and control targets; the model's own randomness is the temperature's.",
		lp.examples:       "How many example levels each prompt shows the model (k).",
		lp.temperature:    "The model's sampling temperature: 0 is the most predictable, higher is more varied; empty uses the server's default.",
	}
}

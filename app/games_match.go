package app

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
)

// maxMatchGames bounds the games of one agent match started from the tab.
const maxMatchGames = 1000

// duelMatch is the tab's agent-versus-agent match: the Agent entry's agent (A) against
// MatchAgent (B), the score shown live with its 95% interval, as `workbench duel match` prints.
type duelMatch struct {
	matchAgent  *widget.SelectEntry
	matchGames  *widget.Entry
	matchButton *widget.Button
	matchStatus *widget.Label
	cancel      context.CancelFunc
	record      duel.PairResult
	box         fyne.CanvasObject
	token       int // bumped per match: a finished match's late callbacks are dropped
}

func (dp *duelPanel) buildMatch() {
	m := &dp.match
	m.matchAgent = widget.NewSelectEntry(duelAgents)
	m.matchAgent.SetText("random")
	m.matchAgent.Validator = func(s string) error { _, err := agents.ParseAgent(s); return err }
	m.matchGames = widget.NewEntry()
	m.matchGames.SetText("20")
	m.matchButton = widget.NewButtonWithIcon("Play match", theme.MediaPlayIcon(), dp.toggleMatch)
	m.matchStatus = widget.NewLabel("The Agent plays this agent, alternating who moves first.")
	m.matchStatus.Wrapping = fyne.TextWrapWord
	row := container.New(widgets.NewWrapLayout(), container.NewHBox(widget.NewLabel("vs"), container.NewGridWrap(fyne.NewSize(170, m.matchAgent.MinSize().Height), m.matchAgent)),
		container.NewHBox(widget.NewLabel("games"), container.NewGridWrap(fyne.NewSize(70, m.matchGames.MinSize().Height), m.matchGames), m.matchButton))
	m.box = container.NewVBox(sectionTitle("AGENT VS AGENT"), row, m.matchStatus)
}

// matchRecord is the record of the last agent match (A is the Agent entry's agent).
func (dp *duelPanel) matchRecord() duel.PairResult { return dp.match.record }

// toggleMatch starts an agent match, or stops the one running.
func (dp *duelPanel) toggleMatch() {
	m := &dp.match
	if m.cancel != nil {
		dp.stopMatch()
		return
	}
	v := dp.view
	if v == nil || v.game == nil {
		return
	}
	a, errA := agents.ParseAgent(dp.Agent.Text)
	b, errB := agents.ParseAgent(m.matchAgent.Text)
	games, errN := parseWhole(m.matchGames.Text, "games", 1, maxMatchGames)
	for _, err := range []error{errA, errB, errN} {
		if err != nil {
			m.matchStatus.SetText("⚠ " + err.Error())
			return
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel, m.record = cancel, duel.PairResult{}
	m.token++
	token := m.token
	m.matchButton.SetText("Stop match")
	m.matchButton.SetIcon(theme.MediaStopIcon())
	seed, game := v.seed, v.game
	// the match starts from the seed of the game shown: the status says how to replay it
	replay := "\nThe same match: " + matchCommand(dp.source, a.Name(), b.Name(), games, seed)
	m.matchStatus.SetText(fmt.Sprintf("%s vs %s: starting…", a.Name(), b.Name()) + replay)
	dp.jobs.Add(1)
	go func() {
		defer dp.jobs.Done()
		// its own sandbox worker, opened here (a script's top level runs): the board stays usable
		g, err := game.Clone()
		if err != nil {
			dp.wb.ui.onUI(func() {
				if m.token == token {
					m.matchStatus.SetText("⚠ " + errorExcerpt(err.Error()))
					dp.offerError("The match did not start", err.Error())
					dp.endMatch()
				}
			})
			return
		}
		defer g.Close()
		pr, err := duel.PlayMatch(ctx, g, [2]core.Agent{a, b}, games, seed, func(k int, _ [2]core.Agent, _ duel.Result, pr duel.PairResult) {
			dp.wb.ui.onUI(func() {
				if m.token == token {
					m.record = pr
					m.matchStatus.SetText(matchText(a.Name(), b.Name(), pr, games) + replay)
				}
			})
		})
		dp.wb.ui.onUI(func() {
			if m.token != token {
				return
			}
			if err == nil {
				m.record = pr
				m.matchStatus.SetText(matchText(a.Name(), b.Name(), pr, games) + " Done." + replay)
				if len(pr.Faults) > 0 {
					dp.offerError("Games of the match faulted", strings.Join(pr.Faults, "\n\n"))
				}
			} else {
				m.matchStatus.SetText(matchText(a.Name(), b.Name(), m.record, games) + " Stopped." + replay)
			}
			dp.endMatch()
		})
	}()
}

func matchText(a, b string, pr duel.PairResult, games int) string {
	c := pr.Record()
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s vs %s after %d of %d games: %s won %d, %s won %d, %d drawn", a, b, pr.Games, games, a, pr.AWins, b, pr.BWins, pr.Draws+pr.Truncated)
	if f := pr.AFaults + pr.BFaults + pr.EnvFaults; f > 0 {
		fmt.Fprintf(&sb, ", %d faults", f)
	}
	if c.N > 0 {
		fmt.Fprintf(&sb, "; %s's score %.2f, 95%% interval [%.2f, %.2f].", a, c.Score, c.Lo, c.Hi)
	}
	if len(pr.Faults) > 0 {
		fmt.Fprintf(&sb, " Fault: %s.", errorExcerpt(pr.Faults[0])) // all of them: Error details
	}
	return sb.String()
}

// stopMatch cancels the match in flight (its worker is killed at once).
func (dp *duelPanel) stopMatch() {
	if dp.match.cancel != nil {
		dp.match.cancel()
	}
}

func (dp *duelPanel) endMatch() {
	m := &dp.match
	if m.cancel != nil {
		m.cancel()
	}
	m.cancel = nil
	m.matchButton.SetText("Play match")
	m.matchButton.SetIcon(theme.MediaPlayIcon())
}

// tips are the Games tab's tooltips (buildTabs hands them to tipAll; the texts several tabs
// share are in widget_tips.go).
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

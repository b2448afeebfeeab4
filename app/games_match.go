package app

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/duel"
)

// maxMatchGames bounds the games of one agent match started from the tab.
const maxMatchGames = 1000

// duelMatch is the tab's agent-versus-agent match: the Agent entry's agent (A) against
// MatchAgent (B), the score shown live with its 95% interval, as `workbench duel match` prints.
type duelMatch struct {
	MatchAgent  *widget.SelectEntry
	MatchGames  *widget.Entry
	MatchButton *widget.Button
	MatchStatus *widget.Label
	cancel      context.CancelFunc
	record      duel.PairResult
	box         fyne.CanvasObject
	token       int // bumped per match: a finished match's late callbacks are dropped
}

func (dp *DuelPanel) buildMatch() {
	m := &dp.match
	m.MatchAgent = widget.NewSelectEntry(duelAgents)
	m.MatchAgent.SetText("random")
	m.MatchAgent.Validator = func(s string) error { _, err := duel.ParseAgent(s); return err }
	m.MatchGames = widget.NewEntry()
	m.MatchGames.SetText("20")
	m.MatchButton = widget.NewButtonWithIcon("Play match", theme.MediaPlayIcon(), dp.toggleMatch)
	m.MatchStatus = widget.NewLabel("The Agent plays this agent, alternating who moves first.")
	m.MatchStatus.Wrapping = fyne.TextWrapWord
	row := container.New(newWrapLayout(), container.NewHBox(widget.NewLabel("vs"), container.NewGridWrap(fyne.NewSize(170, m.MatchAgent.MinSize().Height), m.MatchAgent)),
		container.NewHBox(widget.NewLabel("games"), container.NewGridWrap(fyne.NewSize(70, m.MatchGames.MinSize().Height), m.MatchGames), m.MatchButton))
	m.box = container.NewVBox(sectionTitle("AGENT VS AGENT"), row, m.MatchStatus)
}

// MatchRecord is the record of the last agent match (A is the Agent entry's agent).
func (dp *DuelPanel) MatchRecord() duel.PairResult { return dp.match.record }

// toggleMatch starts an agent match, or stops the one running.
func (dp *DuelPanel) toggleMatch() {
	m := &dp.match
	if m.cancel != nil {
		dp.stopMatch()
		return
	}
	v := dp.view
	if v == nil || v.game == nil {
		return
	}
	a, errA := duel.ParseAgent(dp.Agent.Text)
	b, errB := duel.ParseAgent(m.MatchAgent.Text)
	games, errN := parseWhole(m.MatchGames.Text, "games", 1, maxMatchGames)
	for _, err := range []error{errA, errB, errN} {
		if err != nil {
			m.MatchStatus.SetText("⚠ " + err.Error())
			return
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel, m.record = cancel, duel.PairResult{}
	m.token++
	token := m.token
	m.MatchButton.SetText("Stop match")
	m.MatchButton.SetIcon(theme.MediaStopIcon())
	seed, game := v.seed, v.game
	// the match starts from the seed of the game shown: the status says how to replay it
	replay := "\nThe same match: " + matchCommand(dp.source, a.Name(), b.Name(), games, seed)
	m.MatchStatus.SetText(fmt.Sprintf("%s vs %s: starting…", a.Name(), b.Name()) + replay)
	dp.jobs.Add(1)
	go func() {
		defer dp.jobs.Done()
		// its own sandbox worker, opened here (a script's top level runs): the board stays usable
		g, err := game.Clone()
		if err != nil {
			onUI(func() {
				if m.token == token {
					m.MatchStatus.SetText("⚠ " + errorExcerpt(err.Error()))
					dp.offerError("The match did not start", err.Error())
					dp.endMatch()
				}
			})
			return
		}
		defer g.Close()
		pr, err := duel.PlayMatch(ctx, g, [2]duel.Agent{a, b}, games, seed, func(k int, _ [2]duel.Agent, _ duel.Result, pr duel.PairResult) {
			onUI(func() {
				if m.token == token {
					m.record = pr
					m.MatchStatus.SetText(matchText(a.Name(), b.Name(), pr, games) + replay)
				}
			})
		})
		onUI(func() {
			if m.token != token {
				return
			}
			if err == nil {
				m.record = pr
				m.MatchStatus.SetText(matchText(a.Name(), b.Name(), pr, games) + " Done." + replay)
				if len(pr.Faults) > 0 {
					dp.offerError("Games of the match faulted", strings.Join(pr.Faults, "\n\n"))
				}
			} else {
				m.MatchStatus.SetText(matchText(a.Name(), b.Name(), m.record, games) + " Stopped." + replay)
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
func (dp *DuelPanel) stopMatch() {
	if dp.match.cancel != nil {
		dp.match.cancel()
	}
}

func (dp *DuelPanel) endMatch() {
	m := &dp.match
	if m.cancel != nil {
		m.cancel()
	}
	m.cancel = nil
	m.MatchButton.SetText("Play match")
	m.MatchButton.SetIcon(theme.MediaPlayIcon())
}

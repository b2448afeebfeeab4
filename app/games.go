package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/duel"
)

// The seats a person can take.
const (
	seatFirst  = "Play first"
	seatSecond = "Play second"
)

// duelAgents are the agents offered; the entry accepts any ParseAgent name.
var duelAgents = []string{"random", "mcts-50", "mcts-200", "mcts-1000", "mcts-200-greedy", "first"}

// Duel returns the workbench's Games tab (nil if the tab is not registered).
func (wb *Workbench) Duel() *DuelPanel {
	dp, _ := wb.extensionPanel("Games").(*DuelPanel)
	return dp
}

// Content is the tab's widget tree.
func (dp *DuelPanel) Content() fyne.CanvasObject { return dp.content }

// DuelPanel is the Games tab: a person plays a two-player game (built in, or a .star script)
// against an agent, with the board, the legal moves as buttons, the move log and undo. The
// agent thinks on its own goroutine with its own instance of the game (instances are not safe
// for concurrent use; states are).
type DuelPanel struct {
	Game                             *widget.Select
	OpenButton                       *widget.Button
	Agent                            *widget.SelectEntry
	Seat                             *widget.RadioGroup
	NewGameButton, UndoButton        *widget.Button
	Title, Rules, Board, Status, Log *widget.Label
	// MoveButtons are one button per action (for games of at most maxMoveButtons actions), in
	// action order: a button keeps its place and is disabled while its move is illegal.
	MoveButtons []*widget.Button
	// MoveSearch filters MoveList, the legal moves of a game with more actions than buttons.
	MoveSearch *widget.Entry
	MoveList   *widget.List
	moves      *fyne.Container
	moveView   moveView
	grid       *fyne.Container // the board drawn as cells, when the render is a grid
	match      duelMatch
	logScroll  *container.Scroll
	content    fyne.CanvasObject
	wb         *Workbench

	// The rest belongs to the UI goroutine.
	source          string // built-in name or script path
	game, agentGame *duel.Remote
	session         *duel.Session
	agent           duel.Agent
	human           int
	log             []string
	token           int // bumped to drop the answer of an agent whose position is gone
	cancelAgent     context.CancelFunc
	thinking        bool
	jobs            sync.WaitGroup
}

func newDuelPanel(wb *Workbench) *DuelPanel {
	dp := &DuelPanel{wb: wb, agent: duel.Random{}}
	dp.Game = widget.NewSelect(duel.Builtins(), func(name string) {
		if name != "" && name != dp.source {
			dp.LoadGame(name)
		}
	})
	dp.Game.PlaceHolder = "(choose a game)"
	dp.OpenButton = widget.NewButtonWithIcon("Open .star…", theme.FolderOpenIcon(), dp.showOpen)
	dp.Agent = widget.NewSelectEntry(duelAgents)
	dp.Agent.SetText("random")
	dp.Agent.Validator = func(s string) error { _, err := duel.ParseAgent(s); return err }
	dp.Agent.OnChanged = func(s string) {
		if a, err := duel.ParseAgent(s); err == nil {
			dp.agent = a
		}
	}
	dp.Seat = widget.NewRadioGroup([]string{seatFirst, seatSecond}, func(string) {
		if dp.game != nil {
			dp.NewGame()
		}
	})
	dp.Seat.Horizontal = true
	dp.Seat.Required = true
	dp.Seat.SetSelected(seatFirst)
	dp.NewGameButton = widget.NewButtonWithIcon("New game", theme.ViewRefreshIcon(), dp.NewGame)
	dp.UndoButton = widget.NewButtonWithIcon("Undo", theme.ContentUndoIcon(), dp.Undo)
	dp.Title = widget.NewLabel("Choose a game.")
	dp.Title.SizeName = theme.SizeNameSubHeadingText
	dp.Title.TextStyle = fyne.TextStyle{Bold: true}
	dp.Rules = widget.NewLabel("")
	dp.Rules.Wrapping = fyne.TextWrapWord
	dp.Board = widget.NewLabel("")
	dp.Board.TextStyle = fyne.TextStyle{Monospace: true}
	dp.Board.SizeName = theme.SizeNameSubHeadingText
	dp.Status = widget.NewLabel("")
	dp.Status.Wrapping = fyne.TextWrapWord
	dp.Status.TextStyle = fyne.TextStyle{Bold: true}
	dp.Log = widget.NewLabel("")
	dp.Log.TextStyle = fyne.TextStyle{Monospace: true}
	dp.logScroll = container.NewVScroll(dp.Log)
	dp.moves = container.NewStack()
	dp.grid = container.NewStack()
	dp.buildMoveSearch()
	dp.buildMatch()

	tools := container.NewHBox(widget.NewLabel("Game"), dp.Game, dp.OpenButton, widget.NewLabel("Agent"),
		container.NewGridWrap(fyne.NewSize(170, dp.Agent.MinSize().Height), dp.Agent), dp.Seat)
	status := container.NewBorder(nil, nil, nil, container.NewHBox(dp.NewGameButton, dp.UndoButton), dp.Status)
	board := container.NewVBox(status, container.NewCenter(container.NewStack(dp.Board, dp.grid)), sectionTitle("YOUR MOVE"), dp.moves)
	left := container.NewBorder(nil, nil, nil, nil, container.NewVScroll(board))
	right := container.NewVSplit(container.NewVScroll(container.NewVBox(dp.Title, dp.Rules, dp.match.box)),
		container.NewBorder(sectionTitle("MOVES"), nil, nil, nil, dp.logScroll))
	split := container.NewHSplit(left, right)
	split.Offset = 0.6
	dp.content = container.NewBorder(tools, nil, nil, nil, split)
	if names := duel.Builtins(); len(names) > 0 {
		start := names[0]
		for _, n := range names {
			if n == "tic-tac-toe" {
				start = n
			}
		}
		dp.Game.SetSelected(start)
	}
	return dp
}

func (dp *DuelPanel) showOpen() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		dp.LoadGame(path)
	}, dp.wb.Window)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".star"}))
	d.Show()
}

// LoadGame opens a built-in game or a .star script and starts a new game of it. Built-in
// games are the project's own and load at once; a script runs its top level when loaded, so
// it loads off the UI goroutine.
func (dp *DuelPanel) LoadGame(nameOrPath string) {
	dp.stopAgent()
	dp.stopMatch()
	dp.source = nameOrPath
	if slices.Contains(duel.Builtins(), nameOrPath) {
		game, agentGame, err := openDuelGame(nameOrPath)
		dp.loaded(nameOrPath, game, agentGame, err)
		return
	}
	dp.Status.SetText("loading " + nameOrPath + "…")
	dp.jobs.Add(1)
	go func() {
		defer dp.jobs.Done()
		game, agentGame, err := openDuelGame(nameOrPath)
		onUI(func() { dp.loaded(nameOrPath, game, agentGame, err) })
	}()
}

// loaded shows a game LoadGame opened.
func (dp *DuelPanel) loaded(nameOrPath string, game, agentGame *duel.Remote, err error) {
	if dp.source != nameOrPath { // another game was chosen meanwhile
		closeGames(game, agentGame)
		return
	}
	if err != nil {
		dp.Status.SetText("Cannot load the game: " + err.Error())
		return
	}
	closeGames(dp.game, dp.agentGame)
	dp.game, dp.agentGame = game, agentGame
	info := game.Info()
	title := info.Title
	if title == "" {
		title = info.Name
	}
	dp.Title.SetText(title)
	dp.Rules.SetText(unwrapLines(info.Rules))
	dp.buildMoves(info)
	if dp.Game.Selected != nameOrPath {
		dp.Game.ClearSelected()
		dp.Game.PlaceHolder = "file: " + info.Name
		dp.Game.Refresh()
	}
	dp.NewGame()
}

// unwrapLines joins the hard-wrapped lines of a rulebook's paragraphs, so the label wraps them
// to its own width.
func unwrapLines(text string) string {
	paras := strings.Split(strings.TrimSpace(text), "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(paras, "\n\n")
}

// openDuelGame opens two instances of a game in sandbox workers: one for the board, one for
// the agent to think on (a game instance serves one caller at a time). The workbench never
// runs a game script in its own process.
func openDuelGame(nameOrPath string) (game, agentGame *duel.Remote, err error) {
	ctx := context.Background()
	if game, err = duel.OpenSandboxed(ctx, nameOrPath, duel.SandboxOptions{}); err != nil {
		return nil, nil, err
	}
	if agentGame, err = game.Clone(); err != nil {
		game.Close()
		return nil, nil, err
	}
	return game, agentGame, nil
}

func closeGames(games ...*duel.Remote) {
	for _, g := range games {
		if g != nil {
			g.Close()
		}
	}
}

// Session is the game in progress (nil before a game is loaded).
func (dp *DuelPanel) Session() *duel.Session { return dp.session }

// Human is the player the person plays, 0 (first) or 1.
func (dp *DuelPanel) Human() int { return dp.human }

// Thinking reports whether the agent is choosing a move.
func (dp *DuelPanel) Thinking() bool { return dp.thinking }

// NewGame starts the loaded game over, with the person in the chosen seat, from a fresh seed.
func (dp *DuelPanel) NewGame() {
	dp.NewGameSeeded(time.Now().UnixNano() & (1<<53 - 1))
}

// NewGameSeeded starts the loaded game over from seed: the starting position and the agent's
// moves follow from it by the session's one seeding rule, as in `workbench duel play --seed`.
func (dp *DuelPanel) NewGameSeeded(seed int64) {
	if dp.game == nil {
		return
	}
	dp.stopAgent()
	dp.human = 0
	if dp.Seat.Selected == seatSecond {
		dp.human = 1
	}
	if dp.session != nil {
		dp.session.Close()
	}
	s, err := duel.NewSession(dp.game, seed, duel.DefaultMaxPlies)
	if err != nil {
		dp.session = nil
		dp.showFault(err)
		return
	}
	dp.session, dp.log = s, nil
	dp.refresh()
	dp.maybeAgent()
}

// Undo takes back moves until it is the person's turn again (their last move and the agent's
// answer).
func (dp *DuelPanel) Undo() {
	s := dp.session
	if s == nil || s.Ply() == 0 {
		return
	}
	dp.stopAgent()
	s.Undo(1)
	for s.Ply() > 0 {
		p, err := s.Game.ToMove(s.State())
		if err != nil || p == dp.human {
			break
		}
		s.Undo(1)
	}
	dp.log = dp.log[:min(len(dp.log), s.Ply())]
	dp.refresh()
	dp.maybeAgent()
}

// Play makes the person's move a (what a move button does).
func (dp *DuelPanel) Play(a int) error {
	if dp.session == nil || dp.thinking {
		return errors.New("not your turn")
	}
	t, err := dp.session.Turn()
	if err != nil {
		return err
	}
	if t.Player != dp.human {
		return errors.New("not your turn")
	}
	dp.apply(t, a, "you")
	return nil
}

// apply plays a on the session, logs it and lets the agent answer.
func (dp *DuelPanel) apply(t duel.Turn, a int, who string) {
	label, err := dp.game.ActionLabel(t.State, a)
	if err != nil {
		label = fmt.Sprintf("action %d", a)
	}
	if err := dp.session.Play(a); err != nil {
		dp.showFault(err)
		return
	}
	dp.log = append(dp.log, fmt.Sprintf("%3d. P%d %-5s %s", dp.session.Ply(), t.Player, who, label))
	dp.refresh()
	dp.maybeAgent()
}

// maybeAgent starts the agent's search when it is to move.
func (dp *DuelPanel) maybeAgent() {
	s := dp.session
	if s == nil {
		return
	}
	t, err := s.Turn()
	if err != nil || t.Player == dp.human {
		return
	}
	agent, err := duel.ParseAgent(dp.Agent.Text)
	if err != nil {
		agent = dp.agent
	}
	dp.token++
	token := dp.token
	ctx, cancel := context.WithCancel(context.Background())
	dp.cancelAgent, dp.thinking = cancel, true
	dp.refresh()
	g := dp.agentGame
	// the agent thinks on its own instance, on a replay of the session: same seed, same moves
	think, err := s.On(g)
	dp.jobs.Add(1)
	go func() {
		defer dp.jobs.Done()
		defer cancel()
		var a int
		if err == nil {
			_, a, err = think.AgentMove(ctx, agent)
			think.Close()
		}
		onUI(func() {
			if token != dp.token {
				return
			}
			dp.thinking, dp.cancelAgent = false, nil
			if err != nil {
				dp.refresh()
				dp.showFault(fmt.Errorf("the agent %s failed: %w", agent.Name(), err))
				return
			}
			dp.apply(t, a, agent.Name())
		})
	}()
}

// stopAgent drops the search in flight.
func (dp *DuelPanel) stopAgent() {
	dp.token++
	if dp.cancelAgent != nil {
		dp.cancelAgent()
	}
	dp.cancelAgent, dp.thinking = nil, false
}

// Wait blocks until loading and the agent's move are done and shown, at most timeout. It must
// not be called on the UI goroutine.
func (dp *DuelPanel) Wait(timeout time.Duration) error {
	done := make(chan struct{})
	go func() { dp.jobs.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("Games panel still working after %v", timeout)
	}
}

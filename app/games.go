package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
)

// The seats a person can take.
const (
	seatFirst  = "Play first"
	seatSecond = "Play second"
)

// duelAgents are the agents offered; the entry accepts any ParseAgent name.
var duelAgents = []string{"random", "mcts-50", "mcts-200", "mcts-1000", "mcts-200-greedy", "first"}

// duel returns the workbench's Games tab (nil if the tab is not registered).
func (wb *Workbench) duel() *duelPanel {
	dp, _ := wb.extensionPanel("Games").(*duelPanel)
	return dp
}

// Content is the tab's widget tree.
func (dp *duelPanel) Content() fyne.CanvasObject { return dp.content }

// duelPanel is the Games tab: a person plays a two-player game (built in, or a .star script)
// against an agent, with the board (cells can be clicked in grid games), the legal moves as
// buttons or a searchable list, the move log and undo. Every call into the game's sandbox
// worker runs in a job off the UI goroutine (games_job.go); the UI shows the views jobs hand
// it.
type duelPanel struct {
	game       *widget.Select
	openButton *widget.Button
	Agent      *widget.SelectEntry
	Seat       *widget.RadioGroup
	// errorButton (Error details…) shows the whole error of a load that failed, or of a fault
	// during play, whose excerpt the status shows.
	newGameButton, undoButton, stopButton, errorButton *widget.Button
	// seed shows the seed of the game shown (`workbench duel play --seed` replays it); a seed
	// typed there and SeedButton (or Enter) start the game over from it.
	seed                             *widget.Entry
	seedButton                       *widget.Button
	title, rules, board, status, log *widget.Label
	// moveButtons are one button per action (for games of at most maxMoveButtons actions), in
	// action order: a button keeps its place and is disabled while its move is illegal.
	moveButtons []*widget.Button
	// moveSearch filters MoveList, the legal moves of a game with more actions than buttons.
	moveSearch *widget.Entry
	moveList   *widget.List
	// allMoves lifts the narrowing of the moves to those of a clicked cell.
	allMoves  *widget.Button
	moves     *fyne.Container
	moveView  moveView
	grid      *fyne.Container // the board drawn as cells, when the render is a grid
	match     duelMatch
	logScroll *container.Scroll
	content   fyne.CanvasObject
	wb        *Workbench
	// sandbox are the options games open with (tests shorten the budgets).
	sandbox sandbox.SandboxOptions
	// moveLimit is how many legal moves get labels and cells (defaultMoveLimit; tests lower it).
	moveLimit int

	core    duelCore     // the game side: jobs only
	working atomic.Value // string: the script call a job waits for
	jobs    jobGroup

	// The rest belongs to the UI goroutine.
	source string // built-in name or script path
	agent  core.Agent
	view   *duelView      // the position shown
	marks  map[string]int // the colour of each mark of the board's cells, for the game loaded
	shown  *sandbox.Remote
	busy   bool
	token  int // bumped to drop the results of a job whose position is gone
	cancel context.CancelFunc
	// loading is the game a job is loading, until its first position is shown ("" when none):
	// Stop then leaves no game rather than the one shown before, which the job already closed.
	loading  string
	lastErr  string // the whole error Error details shows
	errTitle string // what failed, Error details' title
}

func newDuelPanel(wb *Workbench) *duelPanel {
	dp := &duelPanel{wb: wb, agent: agents.Random{}, moveLimit: defaultMoveLimit}
	dp.game = widget.NewSelect(script.Builtins(), func(name string) {
		if name != "" && name != dp.source {
			dp.loadGame(name)
		}
	})
	dp.game.PlaceHolder = "(choose a game)"
	dp.openButton = widget.NewButtonWithIcon("Open .star…", theme.FolderOpenIcon(), dp.showOpen)
	dp.Agent = widget.NewSelectEntry(duelAgents)
	dp.Agent.SetText("random")
	dp.Agent.Validator = func(s string) error { _, err := agents.ParseAgent(s); return err }
	dp.Agent.OnChanged = func(s string) {
		if a, err := agents.ParseAgent(s); err == nil {
			dp.agent = a
		}
	}
	dp.Seat = widget.NewRadioGroup([]string{seatFirst, seatSecond}, func(string) {
		if dp.view != nil {
			dp.newGame()
		}
	})
	dp.Seat.Horizontal = true
	dp.Seat.Required = true
	dp.Seat.SetSelected(seatFirst)
	dp.newGameButton = widget.NewButtonWithIcon("New game", theme.ViewRefreshIcon(), dp.newGame)
	dp.undoButton = widget.NewButtonWithIcon("Undo", theme.ContentUndoIcon(), dp.Undo)
	dp.stopButton = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), dp.Stop)
	dp.stopButton.Disable()
	dp.buildErrorButton()
	dp.buildSeed()
	dp.title = widget.NewLabel("Choose a game.")
	dp.title.SizeName = theme.SizeNameSubHeadingText
	dp.title.TextStyle = fyne.TextStyle{Bold: true}
	dp.title.Wrapping = fyne.TextWrapWord // a script's TITLE may be long: it must not widen the tab
	dp.rules = widget.NewLabel("")
	dp.rules.Wrapping = fyne.TextWrapWord
	dp.board = widget.NewLabel("")
	dp.board.TextStyle = fyne.TextStyle{Monospace: true}
	dp.board.SizeName = theme.SizeNameSubHeadingText
	dp.status = widget.NewLabel("")
	dp.status.Wrapping = fyne.TextWrapWord
	dp.status.TextStyle = fyne.TextStyle{Bold: true}
	dp.log = widget.NewLabel("")
	dp.log.TextStyle = fyne.TextStyle{Monospace: true}
	dp.logScroll = container.NewVScroll(dp.log)
	dp.moves = container.NewStack()
	dp.grid = container.NewStack()
	dp.buildMoveSearch()
	dp.buildMatch()

	// the tools wrap onto a second row in a narrow window rather than widen it
	tools := container.New(widgets.NewWrapLayout(),
		container.NewHBox(widget.NewLabel("Game"), dp.game, dp.openButton),
		container.NewHBox(widget.NewLabel("Agent"), container.NewGridWrap(fyne.NewSize(170, dp.Agent.MinSize().Height), dp.Agent), dp.Seat),
		container.NewHBox(widget.NewLabel("Seed"), container.NewGridWrap(fyne.NewSize(230, dp.seed.MinSize().Height),
			widgets.Tip(dp.seed, "The seed of the game shown: `workbench duel play GAME --seed S` plays the same game (the agent's moves included). Type a seed and press Enter or Play seed to play it here.")),
			widgets.Tip(dp.seedButton, "Start the game over from the seed typed on the left.")))
	// the buttons sit in a row of their own above the status, so that a long status wraps at
	// the column's width and never squeezes them (or is squeezed to a letter per line)
	buttons := container.New(widgets.NewWrapLayout(),
		widgets.Tip(dp.errorButton, "The whole error the status shows the start of (a game that did not load, or stopped), to read or copy."), dp.stopButton, dp.newGameButton, dp.undoButton)
	status := container.NewVBox(buttons, dp.status)
	board := container.NewVBox(status, container.NewCenter(container.NewStack(dp.board, dp.grid)), sectionTitle("YOUR MOVE"), dp.moves)
	left := container.NewBorder(nil, nil, nil, nil, container.NewVScroll(board))
	right := container.NewVSplit(container.NewVScroll(container.NewVBox(dp.title, dp.rules, dp.match.box)),
		container.NewBorder(sectionTitle("MOVES"), nil, nil, nil, dp.logScroll))
	split := container.NewHSplit(left, right)
	split.Offset = 0.6
	dp.content = container.NewBorder(tools, nil, nil, nil, split)
	if names := script.Builtins(); len(names) > 0 {
		start := names[0]
		for _, n := range names {
			if n == "tic-tac-toe" {
				start = n
			}
		}
		dp.game.SetSelected(start)
	}
	return dp
}

func (dp *duelPanel) showOpen() {
	dp.wb.pickFile("Open a game script", "Open", "", []string{".star"}, dp.loadGame)
}

// loadGame opens a built-in game or a .star script in sandbox workers and starts a new game
// of it, in a job: a script's top level runs when it loads. A load that fails leaves no game
// open (failedLoad), as Stop during a load does.
func (dp *duelPanel) loadGame(nameOrPath string) {
	dp.stopMatch()
	dp.source = nameOrPath
	seed, human, opts := newSeed(), dp.seat(), dp.sandbox
	defer func() { dp.loading = nameOrPath }() // after run, which cancels (and forgets) an earlier load
	dp.run("loading "+nameOrPath+"…", func(ctx context.Context, c *duelCore) error {
		dp.working.Store("load")
		game, agentGame, cancelGame, err := openDuelGame(ctx, nameOrPath, opts)
		if err == nil {
			c.close()
			c.game, c.agentGame, c.cancelGame = game, agentGame, cancelGame
			c.use(ctx)
			err = c.newSession(dp, seed, human)
		}
		if err != nil {
			return &loadError{name: filepath.Base(nameOrPath), err: err}
		}
		return nil
	})
}

// close ends the game's session and workers.
func (c *duelCore) close() {
	if c.session != nil {
		c.session.Close()
		c.session = nil
	}
	closeGames(c.game, c.agentGame)
	if c.cancelGame != nil {
		c.cancelGame()
	}
	c.game, c.agentGame, c.cancelGame = nil, nil, nil
}

// loadedGame sets up the tab for the game a view shows for the first time.
// The title and rules come with the view, bounded and unwrapped by the job (gameText): the UI
// goroutine only sets them.
func (dp *duelPanel) loadedGame(v *duelView) {
	dp.shown = v.game
	info := v.info
	dp.title.SetText(v.title)
	dp.rules.SetText(v.rules)
	dp.marks = map[string]int{} // the marks' colours hold for the whole game
	dp.buildMoves(info)
	if dp.game.Selected != dp.source {
		dp.game.ClearSelected()
		dp.game.PlaceHolder = "file: " + info.Name
		dp.game.Refresh()
	}
}

// openDuelGame opens two instances of a game in sandbox workers: one for the board, one for
// the agent to think on (a game instance serves one caller at a time). The workbench never
// runs a game script in its own process. The games live until cancel; while they open, ctx
// (the job's) can end them.
func openDuelGame(ctx context.Context, nameOrPath string, opts sandbox.SandboxOptions) (game, agentGame *sandbox.Remote, cancel context.CancelFunc, err error) {
	gctx, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, cancel)
	defer func() {
		if !stop() && err == nil { // the job was cancelled meanwhile: the games are gone
			closeGames(game, agentGame)
			err = ctx.Err()
		}
		if err != nil {
			cancel()
		}
	}()
	if game, err = sandbox.OpenSandboxed(gctx, nameOrPath, opts); err != nil {
		return nil, nil, cancel, err
	}
	if agentGame, err = game.Clone(); err != nil {
		game.Close()
		return nil, nil, cancel, err
	}
	return game, agentGame, cancel, nil
}

func closeGames(games ...*sandbox.Remote) {
	for _, g := range games {
		if g != nil {
			g.Close()
		}
	}
}

// Session is the game in progress (nil before a game is loaded). It belongs to the tab's jobs:
// read it only while the tab is idle (after Wait).
func (dp *duelPanel) session() *duel.Session { return dp.core.session }

// human is the player the person plays, 0 (first) or 1, in the position shown.
func (dp *duelPanel) human() int {
	if dp.view == nil {
		return dp.seat()
	}
	return dp.view.human
}

// thinking reports whether the tab is waiting for the game or the agent.
func (dp *duelPanel) thinking() bool { return dp.busy }

func (dp *duelPanel) seat() int {
	if dp.Seat.Selected == seatSecond {
		return 1
	}
	return 0
}

func newSeed() int64 { return time.Now().UnixNano() & (1<<53 - 1) }

// newGame starts the loaded game over, with the person in the chosen seat, from a fresh seed.
func (dp *duelPanel) newGame() { dp.newGameSeeded(newSeed()) }

// newGameSeeded starts the loaded game over from seed: the starting position and the agent's
// moves follow from it by the session's one seeding rule, as in `workbench duel play --seed`.
func (dp *duelPanel) newGameSeeded(seed int64) {
	if dp.view == nil {
		return
	}
	human := dp.seat()
	dp.run("starting a new game…", func(_ context.Context, c *duelCore) error {
		return c.newSession(dp, seed, human)
	})
}

// Undo takes back moves until it is the person's turn again (their last move and the agent's
// answer).
func (dp *duelPanel) Undo() {
	if dp.view == nil || dp.view.ply == 0 && !dp.busy {
		return
	}
	dp.run("taking back…", func(_ context.Context, c *duelCore) error {
		if err := c.repair(dp); err != nil || c.session == nil {
			return err
		}
		c.session.UndoTo(c.human)
		c.log = c.log[:min(len(c.log), c.session.Ply())]
		return nil
	})
}

// Play makes the person's move a (what a move button, the list or a click on the board
// does). It fails at once when a is not a move the person may choose in the position shown.
func (dp *duelPanel) Play(a int) error {
	v := dp.view
	if v == nil || dp.busy || !v.yours {
		return errors.New("not your turn")
	}
	if !slices.Contains(v.legal, a) {
		return fmt.Errorf("action %d is not legal now", a)
	}
	dp.run("playing…", func(_ context.Context, c *duelCore) error {
		if err := c.repair(dp); err != nil {
			return err
		}
		if c.session == nil {
			// The window closed (or another job replaced the game) while this move waited.
			return errors.New("no game is open")
		}
		t, err := c.session.Turn()
		if err != nil {
			return err
		}
		return c.play(dp, t, a, "you")
	})
	return nil
}

// wait blocks until the tab's jobs are done and shown, at most timeout. It must not be called
// on the UI goroutine.
func (dp *duelPanel) wait(timeout time.Duration) error {
	if !dp.jobs.wait(timeout) {
		return fmt.Errorf("Games panel still working after %v", timeout)
	}
	return nil
}

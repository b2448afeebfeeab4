package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
)

// The Games tab never calls a sandbox worker on the UI goroutine: a script may burn its whole
// CPU budget in render or legal_actions, and the window must stay responsive meanwhile. Every
// change of position (load, new game, a move, undo, the agent's answer) is a job: it runs on its
// own goroutine with the game, computes what the tab shows (a duelView), and hands that to the
// UI. One job runs at a time; starting one cancels the one in flight, which kills its worker at
// once (the next job replays the position on a fresh one), and its late results are dropped.

// duelCore is the game side of the tab, touched only by jobs, one at a time (mu).
type duelCore struct {
	mu              sync.Mutex
	game, agentGame *sandbox.Remote
	cancelGame      context.CancelFunc // ends the game's workers
	session         *duel.Session
	human           int
	log             []string
	// owner is the token of the last job that worked on the core: closeCore spares the games
	// of a job started after it was asked.
	owner int
}

// duelView is one position as the tab shows it.
type duelView struct {
	failed    *loadError      // the load failed: no position, the tab shows no game (failedLoad)
	fault     *playFault      // what failed in computing or reaching the position (nil: nothing)
	lost      bool            // no position is left (fault says why): the tab shows no game (lostGame)
	game      *sandbox.Remote // the instance it was computed on (a match clones it)
	info      core.Info
	title     string // the game's title and rules as the tab shows them (gameText)
	rules     string
	seed      int64
	ply       int
	human     int
	board     string
	grid      [][]string // the board as cells, when the render is a grid
	log       []string
	status    string
	yours     bool // the person is to move: legal are the moves they may choose
	legal     []int
	labels    map[int]string
	cells     map[int][]core.Square // the cells each legal move touches (grid games)
	agentNext bool                  // the agent is to move: the job goes on with its search
	winner    int                   // the player who won (-1: none, or not over)
}

// run starts op as the tab's job: busy says what the tab is doing meanwhile. After op the
// position is shown, and while the agent is to move it answers, each move shown as it comes.
func (dp *duelPanel) run(busy string, op func(ctx context.Context, c *duelCore) error) {
	dp.cancelJob()
	dp.token++
	token := dp.token
	ctx, cancel := context.WithCancel(context.Background())
	dp.cancel = cancel
	dp.setBusy(busy)
	agent, err := agents.ParseAgent(dp.Agent.Text)
	if err != nil {
		agent = dp.agent
	}
	dp.jobs.Add(1)
	go func() {
		defer dp.jobs.Done()
		defer cancel()
		c := &dp.core
		c.mu.Lock()
		defer c.mu.Unlock()
		defer dp.working.Store("")
		if ctx.Err() != nil {
			return
		}
		c.owner = token
		c.use(ctx)
		defer c.use(nil)
		err := op(ctx, c)
		for ctx.Err() == nil {
			v := c.view(dp, err)
			if ctx.Err() != nil {
				return
			}
			dp.wb.ui.onUI(func() {
				if token == dp.token {
					dp.display(v)
				}
			})
			if !v.agentNext {
				return
			}
			err = c.agentMove(ctx, dp, agent)
		}
	}()
}

// cancelJob stops the job in flight (its worker is killed) and drops its results.
func (dp *duelPanel) cancelJob() {
	dp.loading = ""
	dp.token++
	if dp.cancel != nil {
		dp.cancel()
		dp.cancel = nil
	}
}

// Stop cancels what the tab is doing (a slow script call, the agent's search): in a game the
// position stays as it was shown, and the next action replays it on a fresh worker; during a
// load no game is left open (the load already closed the game shown before).
func (dp *duelPanel) Stop() {
	if !dp.busy {
		return
	}
	doing, loading := dp.status.Text, dp.loading
	dp.cancelJob()
	dp.busy = false
	if loading != "" {
		dp.noGame("Stopped loading " + loading + ": no game is open. Choose a game.")
		return
	}
	dp.stopButton.Disable()
	dp.newGameButton.Enable()
	dp.undoButton.Enable()
	dp.status.SetText("Stopped (" + strings.TrimSuffix(doing, "…") + "). New game or Undo goes on from here.")
}

// Cancel stops the tab's work and gives its sandbox workers back (the window is closing).
func (dp *duelPanel) Cancel() {
	dp.cancelJob()
	dp.stopMatch()
	dp.busy = false
	dp.closeCore()
}

// closeCore closes the game's session and workers, once the job before has let go of them.
// A job started since (a load chosen at once) may take the core first: its games are spared,
// and the old ones are its to close (a load closes them when it opens its game, or leaves the
// tab with no game and closes the core again).
func (dp *duelPanel) closeCore() {
	asked := dp.token
	dp.jobs.Add(1)
	go func() {
		defer dp.jobs.Done()
		dp.core.mu.Lock() // after the job before has let go
		defer dp.core.mu.Unlock()
		if dp.core.owner <= asked {
			dp.core.close()
		}
	}()
}

// Working names the script call a job is waiting for ("" when none): what a slow script is
// doing, for the status and for tests.
func (dp *duelPanel) Working() string {
	s, _ := dp.working.Load().(string)
	return s
}

func (c *duelCore) use(ctx context.Context) {
	for _, g := range []*sandbox.Remote{c.game, c.agentGame} {
		if g != nil {
			g.Use(ctx)
		}
	}
}

// repair replays the session on a fresh worker when a cancelled call or a fault ended the
// board's one.
func (c *duelCore) repair(dp *duelPanel) error {
	if c.session == nil || c.game.Alive() {
		return nil
	}
	dp.working.Store("initial_state")
	moves, seed, maxPlies := c.session.Moves(), c.session.Seed, c.session.MaxPlies
	c.session.Close() // the dead worker's states need no release
	c.session = nil
	s, err := duel.NewSession(c.game, seed, maxPlies)
	if err != nil {
		return err
	}
	dp.working.Store("apply")
	for _, a := range moves {
		if err := s.Play(a); err != nil {
			s.Close()
			return err
		}
	}
	c.session = s
	return nil
}

// newSession starts the loaded game over from seed.
func (c *duelCore) newSession(dp *duelPanel, seed int64, human int) error {
	if c.game == nil {
		return errors.New("choose a game first")
	}
	if c.session != nil {
		c.session.Close()
		c.session = nil
	}
	c.human, c.log = human, nil
	dp.working.Store("initial_state")
	s, err := duel.NewSession(c.game, seed, core.DefaultMaxPlies)
	if err != nil {
		return err
	}
	c.session = s
	return nil
}

// play plays a on the session and logs it.
func (c *duelCore) play(dp *duelPanel, t core.Turn, a int, who string) error {
	dp.working.Store("action_label")
	// the board's own state: t may come from the agent's instance, whose states the board's
	// worker does not hold (its moves were logged as "action N")
	label, err := c.game.ActionLabel(c.session.State(), a)
	if err != nil {
		label = fmt.Sprintf("action %d", a)
	}
	dp.working.Store("apply")
	if err := c.session.Play(a); err != nil {
		return err
	}
	c.log = append(c.log, fmt.Sprintf("%3d. P%d %-5s %s", c.session.Ply(), t.Player, who, label))
	return nil
}

// agentMove lets the agent search, on its own instance of the game, and plays its move.
func (c *duelCore) agentMove(ctx context.Context, dp *duelPanel, agent core.Agent) error {
	dp.working.Store("agent " + agent.Name())
	// the agent thinks on a replay of the session: same seed, same moves
	think, err := c.session.On(c.agentGame)
	var t core.Turn
	var a int
	if err == nil {
		t, a, err = think.AgentMove(ctx, agent)
		think.Close()
	}
	if err != nil {
		return fmt.Errorf("the agent %s failed: %w", agent.Name(), err)
	}
	return c.play(dp, t, a, agent.Name())
}

// view computes what the tab shows of the session's position; opErr, when not nil, is the
// fault the status names.
func (c *duelCore) view(dp *duelPanel, opErr error) *duelView {
	var failed *loadError
	if errors.As(opErr, &failed) {
		return &duelView{failed: failed} // nothing of the game shown before
	}
	v := &duelView{game: c.game, human: c.human, log: slices.Clone(c.log), winner: -1}
	var faults []string
	if opErr != nil {
		faults = append(faults, opErr.Error())
	}
	s := c.session
	if c.game == nil || s == nil { // a new game's initial_state, or the replay on a fresh worker, failed
		if len(faults) == 0 {
			faults = append(faults, "no game")
		}
		v.lost = true
		setPlayFault(v, faults, true)
		return v
	}
	v.info, v.seed, v.ply = c.game.Info(), s.Seed, s.Ply()
	v.title, v.rules = gameText(v.info)
	dp.working.Store("render")
	board, err := c.game.Render(s.State())
	if err != nil {
		board = "(render failed: " + errorExcerpt(err.Error()) + ")"
		faults = append(faults, err.Error())
	} else if rows, ok := core.ParseGrid(board); ok {
		v.grid = rows
	}
	v.board = board
	dp.working.Store("legal_actions")
	o, truncated, err := s.Status()
	var t core.Turn
	if err == nil && !o.Done() && !truncated {
		t, err = s.Turn()
	}
	over := err == nil && (o.Done() || truncated)
	switch {
	case err != nil:
		faults = append(faults, err.Error())
	case o.Done():
		msg := "Draw."
		switch o.Winner() {
		case c.human:
			msg = "You win!"
		case 1 - c.human:
			msg = "The agent wins."
		}
		v.status, v.winner = fmt.Sprintf("%s (%d moves)", msg, s.Ply()), o.Winner()
	case truncated:
		v.status = fmt.Sprintf("Stopped at the %d-move cap: no winner.", s.MaxPlies)
	case t.Player != c.human:
		v.status, v.agentNext = "The agent is thinking…", opErr == nil
	default:
		v.status = fmt.Sprintf("Your turn (%s).", v.info.PlayerName(c.human)) // one numbering: Player 1/2
		v.yours, v.legal = true, t.Legal
		if err := c.moveDetails(dp, v, t); err != nil {
			faults = append(faults, err.Error())
		}
	}
	stuck := !v.yours && !over
	if opErr != nil && !over {
		// what the job did failed (the person's move, the agent's, a replay): doing it again
		// would fail again, so no move is offered from here, and the status never says
		// "Your turn" (Undo, New game or another game go on)
		v.yours, v.legal, v.labels, v.cells, stuck = false, nil, nil, nil, true
	}
	if len(faults) > 0 {
		v.agentNext = false
		// the person can go on when it is their turn, and the result stands when the game is over
		setPlayFault(v, faults, stuck)
	}
	return v
}

// moveDetails labels the legal moves (one round trip) and maps them to the board's cells.
func (c *duelCore) moveDetails(dp *duelPanel, v *duelView, t core.Turn) error {
	named := t.Legal[:min(len(t.Legal), dp.moveLimit)]
	v.labels = make(map[int]string, len(named))
	dp.working.Store("action_label")
	labels, err := core.ActionLabels(c.game, t.State, named)
	if err != nil {
		return err
	}
	for i, a := range named {
		v.labels[a] = labels[i]
	}
	if v.grid == nil {
		return nil
	}
	if len(named) < len(t.Legal) {
		v.status += "\n" + moveLimitHint(len(t.Legal), dp.moveLimit)
		return nil
	}
	dp.working.Store("action_cells")
	v.cells, err = core.MoveCells(c.game, t.State, t.Legal, v.labels, len(v.grid), len(v.grid[0]))
	return err
}

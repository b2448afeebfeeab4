package learn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"time"
)

// The targets a trained benchmark opponent is held to (issue #30's "done when"): it beats
// mcts-100 with random rollouts in at least TargetVsMCTS of the games, and a uniformly random
// player scores at most TargetRandom against it. A draw counts as a win for neither side in
// both (gg-bench's score: wins over all games counted, draws included), so in a drawn game a
// draw is neither the opponent's win nor random's.
const (
	TargetVsMCTS = 0.70
	TargetRandom = 0.10
)

// TargetOptions say how many games each measurement plays (first mover alternating).
type TargetOptions struct {
	RandomGames  int // the benchmark opponent against random (default 100)
	MCTSGames    int // against mcts-100 (default 50)
	CeilingGames int // a perfect player (Solver) against mcts-100 (default 50; negative: not measured)
	// BestResponseSamples, when positive, also estimates the most any player could win against
	// mcts-100 (agents.BestRespond over the tabled game, this many of mcts-100's moves drawn in
	// each position): the reach of the first target on a game small enough to table.
	BestResponseSamples int
	Seed                int64 // default 1<<21
	// Source, when set, is the game's script: a folder trained on another is refused.
	Source []byte
	// Progress, when set, is told each game as it ends (k from 0), and of a step that plays no
	// game (k = -1).
	Progress func(what string, k int)
}

// TargetRow is one game's training folder measured against the targets.
type TargetRow struct {
	Game       string        `json:"game"`
	Budget     time.Duration `json:"budget_ns"`
	CPU        time.Duration `json:"train_cpu_ns"`
	Iterations int           `json:"iterations"`
	Checkpoint string        `json:"checkpoint"`
	Lopsided   duel.Lopsided `json:"lopsided"`
	Decisive   bool          `json:"decisive"`
	VsMCTS     StrengthRow   `json:"vs_mcts_100"`
	VsRandom   StrengthRow   `json:"vs_random"`
	// Ceiling is a perfect player's record against mcts-100 (nil: not measured, or the game is
	// too large to solve; CeilingNote says which).
	Ceiling     *StrengthRow `json:"ceiling,omitempty"`
	CeilingNote string       `json:"ceiling_note,omitempty"`
	// BestResponse estimates the most any player wins against mcts-100 (nil: not asked, or the
	// game is too large to table; BestResponseNote says which).
	BestResponse     *agents.BestResponse `json:"best_response,omitempty"`
	BestResponseNote string               `json:"best_response_note,omitempty"`
}

// Verdict says whether an interval decides a target: "met" when the whole 95% interval is on
// the target's side, "not met" when it is all on the other, else "undecided".
func Verdict(iv duel.Interval, target float64, atLeast bool) string {
	switch {
	case atLeast && iv.Lo >= target, !atLeast && iv.Hi <= target:
		return "met"
	case atLeast && iv.Hi < target, !atLeast && iv.Lo > target:
		return "not met"
	}
	return "undecided"
}

// MeasureTargets measures the benchmark opponent of a training folder (RunTraining's) on g:
// its record against mcts-100 and random, and, when solve is not nil (an in-process copy of a
// trusted game: the Solver runs there), a perfect player's record against mcts-100.
func MeasureTargets(ctx context.Context, g, solve core.Game, dir string, opts TargetOptions) (*TargetRow, error) {
	if opts.RandomGames <= 0 {
		opts.RandomGames = 100
	}
	if opts.MCTSGames <= 0 {
		opts.MCTSGames = 50
	}
	if opts.CeilingGames == 0 {
		opts.CeilingGames = 50
	}
	if opts.Seed == 0 {
		opts.Seed = 1 << 21
	}
	run, err := readJSON[TrainRun](filepath.Join(dir, TrainFile))
	if err != nil {
		return nil, err
	}
	if opts.Source != nil && SourceHash(opts.Source) != run.Source {
		return nil, fmt.Errorf("%s holds the training of another script than %s", dir, run.Game)
	}
	b, agent, err := LoadBenchmark(dir)
	if err != nil {
		return nil, err
	}
	row := &TargetRow{Game: run.Game, Budget: run.Budget, CPU: run.CPU, Iterations: len(run.Iterations), Checkpoint: b.Checkpoint,
		Lopsided: b.Lopsided, Decisive: b.Decisive}
	play := func(g core.Game, a core.Agent, ref string, games int) (StrengthRow, error) {
		r, err := agents.ParseAgent(ref)
		if err != nil {
			return StrengthRow{}, err
		}
		what := a.Name() + " vs " + ref
		pr, err := duel.PlayMatch(ctx, g, [2]core.Agent{a, r}, games, opts.Seed, func(k int, _ [2]core.Agent, _ duel.Result, _ duel.PairResult) {
			if opts.Progress != nil {
				opts.Progress(what, k)
			}
		})
		return RowOf(r.Name(), pr, opts.Seed), err
	}
	if row.VsMCTS, err = play(g, agent, "mcts-100", opts.MCTSGames); err != nil {
		return nil, err
	}
	if row.VsRandom, err = play(g, agent, "random", opts.RandomGames); err != nil {
		return nil, err
	}
	switch {
	case opts.CeilingGames < 0:
		row.CeilingNote = "not measured"
	case solve == nil:
		row.CeilingNote = "not measured (the solver runs only on built-in games)"
	default:
		sv := &agents.Solver{}
		c, err := play(solve, sv, "mcts-100", opts.CeilingGames)
		switch {
		case errors.Is(err, agents.ErrTooLarge) || sv.TooLarge(): // a match counts the solver's give-up as its fault
			row.CeilingNote = "too large to solve"
		case err != nil:
			return nil, err
		default:
			row.Ceiling = &c
		}
	}
	if opts.Progress != nil && opts.BestResponseSamples > 0 && solve != nil {
		opts.Progress("best response to mcts-100", -1)
	}
	if err := bestResponse(ctx, solve, opts.BestResponseSamples, opts.Seed, row); err != nil {
		return nil, err
	}
	return row, nil
}

// bestResponse fills row's estimate of the most any player wins against mcts-100 on solve
// (an in-process copy of a trusted game), drawing samples of mcts-100's moves a position.
func bestResponse(ctx context.Context, solve core.Game, samples int, seed int64, row *TargetRow) error {
	switch {
	case samples <= 0:
		row.BestResponseNote = "not measured"
		return nil
	case solve == nil:
		row.BestResponseNote = "not measured (only built-in games are tabled)"
		return nil
	}
	tab, err := agents.Enumerate(ctx, solve, 0)
	switch {
	case errors.Is(err, agents.ErrTooLarge) || errors.Is(err, agents.ErrCycle):
		row.BestResponseNote = "too large to table"
		return nil
	case err != nil:
		return err
	}
	br, err := agents.BestRespond(ctx, tab, &agents.MCTS{Iterations: 100}, samples, uint64(seed))
	if err != nil {
		return err
	}
	row.BestResponse = &br
	return nil
}

// WriteTargetTable writes the rows as a Markdown table: the budget and what training made of
// it, the benchmark opponent's record against mcts-100 and random's score against it with
// their 95% Wilson intervals and verdicts, and a perfect player's record against mcts-100.
func WriteTargetTable(w io.Writer, rows []*TargetRow) {
	fmt.Fprintln(w, "| game | budget (CPU used) | iterations | benchmark (rule's most lopsided pair) | vs mcts-100: win rate, W-L-D | ≥ 70 %? | random's score, W-L-D | ≤ 10 %? | perfect player vs mcts-100 | best any player wins vs mcts-100 (estimate: first, second player) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	pct := func(iv duel.Interval) string {
		return fmt.Sprintf("%.1f %% [%.1f, %.1f]", 100*iv.Rate, 100*iv.Lo, 100*iv.Hi)
	}
	for _, r := range rows {
		rule := fmt.Sprintf("%s (%.0f %%", trimExt(r.Checkpoint), 100*r.Lopsided.Share)
		if !r.Decisive {
			rule += ", not decisive"
		}
		rule += ")"
		m, rnd := r.VsMCTS, r.VsRandom
		ceiling := r.CeilingNote
		if c := r.Ceiling; c != nil {
			ceiling = fmt.Sprintf("%s %d-%d-%d", pct(c.WinRate), c.Wins, c.Losses, c.Draws)
		}
		best := r.BestResponseNote
		if best == "" {
			best = "not measured" // a row written before the column existed
		}
		if b := r.BestResponse; b != nil {
			best = fmt.Sprintf("%.1f %% (%.1f, %.1f; %d samples a position)", 100*b.Mean, 100*b.Seat[0], 100*b.Seat[1], b.Samples)
		}
		fmt.Fprintf(w, "| %s | %s (%s) | %d | %s | %s %d-%d-%d | %s | %s %d-%d-%d | %s | %s | %s |\n", r.Game, r.Budget, r.CPU.Round(time.Second),
			r.Iterations, rule, pct(m.WinRate), m.Wins, m.Losses, m.Draws, Verdict(m.WinRate, TargetVsMCTS, true),
			pct(rnd.LossRate), rnd.Losses, rnd.Wins, rnd.Draws, Verdict(rnd.LossRate, TargetRandom, false), ceiling, best)
	}
}

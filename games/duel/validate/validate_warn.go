package validate

import (
	"context"
	"fmt"
	"pcgwb/games/duel"
	"time"

	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"pcgwb/internal/safeio"
)

// Validation's warnings: a game can pass every filter and still be a poor benchmark game. They
// do not reject it; they are in Report.Warnings and in the text report.
const (
	// SlowMoveCPU: an MCTS-100 move slower than this makes a 30-game evaluation against
	// mcts-100 (about 15 searched moves a game) cost more than a CPU-minute and a half, and an
	// MCTS-1000 strength check ten times that.
	SlowMoveCPU = 200 * time.Millisecond
	// GrowthStateBytes: a state whose text would exceed this is large for a board game (a
	// 19×19 board is under 2 KiB); one that reaches it by growing move after move grows without
	// bound.
	GrowthStateBytes = 256 << 10
	// growthPlayouts is how many of the random playouts measure their states.
	growthPlayouts = 10
	// slowPositions is how many positions (the start and after random moves) time an MCTS-100
	// move.
	slowPositions = 3
)

// stateSizes records the size (RenderSize) of every state of a playout.
type stateSizes struct {
	first, largest, largestPly int
}

func (z *stateSizes) add(s core.State, ply int) {
	v, err := script.StateValue(s)
	if err != nil {
		return
	}
	n := script.RenderSize(v, 4*GrowthStateBytes)
	if ply == 0 {
		z.first = n
	}
	if n > z.largest {
		z.largest, z.largestPly = n, ply
	}
}

// growthWarning is the warning for a state that grew past GrowthStateBytes, or "".
func growthWarning(sizes []stateSizes) string {
	for i, z := range sizes {
		if z.largest > GrowthStateBytes && z.largest > 4*z.first && z.largestPly > 0 {
			return fmt.Sprintf("the state grows without bound: in random playout %d it grew from about %d bytes to over %d KiB in %d moves (about %d bytes a move); a state should hold the position, not its history",
				i, z.first, z.largest>>10, z.largestPly, (z.largest-z.first)/z.largestPly)
		}
	}
	return ""
}

// slowWarning times an MCTS-100 move (CPU time of this process) at the start and after a
// few random moves, and warns when the mean exceeds SlowMoveCPU. It returns "" when the clock
// is not available or the game is fast. An error on the way (a call over its budget, a script
// error in a later position) ends the measuring, not the warning: the positions timed so far,
// a failed search's CPU included, still decide — the slowest games must not be the ones that
// go unwarned.
//
// cpu is the clock (script.CPUTime; tests give a fake one, so that a verdict does not depend on
// the machine's speed).
func slowWarning(ctx context.Context, g *script.ScriptGame, opts Options, cpu func() time.Duration) string {
	if cpu() == 0 {
		return ""
	}
	s, err := g.Initial(opts.Seed)
	if err != nil {
		return ""
	}
	rng := duel.SeatRNG(opts.Seed^0x510e, 0, 0)
	m := &agents.MCTS{Iterations: 100}
	var total time.Duration
	n := 0
	var stopped error
	for ply := 0; n < slowPositions && ply < opts.MaxPlies && stopped == nil; ply++ {
		o, err := g.Outcome(s)
		if err != nil || o.Done() {
			stopped = err
			break
		}
		p, err := g.ToMove(s)
		if err != nil {
			stopped = err
			break
		}
		legal, err := g.Legal(s)
		if err != nil || len(legal) == 0 {
			stopped = err
			break
		}
		if ply%2 == 0 && len(legal) > 1 {
			start := cpu()
			_, err := m.Search(ctx, g, core.Turn{State: s, Legal: legal, Player: p, Ply: ply, MaxPlies: opts.MaxPlies}, core.MoveRNG(uint64(ply)))
			total += cpu() - start
			n++
			if err != nil {
				stopped = err
				break
			}
		}
		if s, err = g.Apply(s, legal[rng.IntN(len(legal))]); err != nil {
			stopped = err
		}
	}
	if n == 0 || ctx.Err() != nil {
		return ""
	}
	mean := total / time.Duration(n)
	if mean <= SlowMoveCPU {
		return ""
	}
	w := fmt.Sprintf("the game is slow: an MCTS-100 move takes %s of CPU time on average (%d positions; over %s is slow), so a 30-game evaluation against mcts-100 takes about %s",
		mean.Round(time.Millisecond), n, SlowMoveCPU, (30 * 15 * mean).Round(time.Second))
	if stopped != nil {
		w += "; timing stopped at an error: " + safeio.ExcerptString(stopped.Error())
	}
	return w
}

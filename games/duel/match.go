package duel

import (
	"context"
	"fmt"
	"math/rand/v2"
	"pcgwb/games/duel/core"
	"slices"
)

// Result is how one game ended.
type Result struct {
	// Outcome is the final outcome; Ongoing when the game was truncated or faulted.
	Outcome core.Outcome `json:"outcome"`
	// Truncated: the ply cap was reached with the game still going.
	Truncated bool `json:"truncated,omitempty"`
	// Fault, when set, ended the game; FaultBy is the player whose agent caused it, or -1 for
	// the game itself (an env fault).
	Fault   *core.Fault `json:"fault,omitempty"`
	FaultBy int         `json:"fault_by"`
	Plies   int         `json:"plies"`
	Moves   []int       `json:"moves"`
}

// Decided reports whether the game ended by its own rules (a win or a draw).
func (r Result) Decided() bool { return r.Fault == nil && !r.Truncated && r.Outcome.Done() }

// envKinds are the faults that come from the game script, wherever they surface (also inside
// an agent's search).
func isEnvFault(f *core.Fault) bool {
	return f.Kind != core.FaultIllegal && f.Kind != core.FaultAgent
}

// Play runs one game: agents[p] plays player p, the game starts from Initial(seed), and the
// harness checks every move against the legal list before it is applied. The error is only
// the context's; everything else is in the Result.
func Play(ctx context.Context, g core.Game, agents [2]core.Agent, seed int64, maxPlies int, rngs [2]*rand.Rand) (Result, error) {
	if maxPlies <= 0 {
		maxPlies = core.DefaultMaxPlies
	}
	for p := range rngs {
		if rngs[p] == nil {
			rngs[p] = SeatRNG(seed, 0, p)
		}
	}
	res := Result{FaultBy: -1}
	envFault := func(err error) (Result, error) {
		f := core.FaultOf(err)
		if f == nil {
			f = &core.Fault{Kind: core.FaultScript, Msg: err.Error(), Err: err}
		}
		res.Fault, res.FaultBy = f, -1
		return res, nil
	}
	s, err := g.Initial(seed)
	if err != nil {
		return envFault(err)
	}
	for ply := 0; ; ply++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		o, err := g.Outcome(s)
		if err != nil {
			return envFault(err)
		}
		if o.Done() {
			res.Outcome = o
			return res, nil
		}
		if ply >= maxPlies {
			res.Truncated = true
			return res, nil
		}
		p, err := g.ToMove(s)
		if err != nil {
			return envFault(err)
		}
		legal, err := g.Legal(s)
		if err != nil {
			return envFault(err)
		}
		if len(legal) == 0 {
			return envFault(core.Contractf("legal_actions", "no legal actions while the game is ongoing"))
		}
		a, err := ActOn(ctx, g, agents[p], core.Turn{State: s, Legal: legal, Player: p, Ply: ply, MaxPlies: maxPlies}, rngs[p].Uint64())
		if err != nil {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			f := core.FaultOf(err)
			if f != nil && isEnvFault(f) {
				return envFault(f)
			}
			if f == nil {
				f = &core.Fault{Kind: core.FaultAgent, Msg: err.Error(), Err: err}
			}
			res.Fault, res.FaultBy = f, p
			return res, nil
		}
		if _, ok := slices.BinarySearch(legal, a); !ok {
			res.Fault = &core.Fault{Kind: core.FaultIllegal, Msg: fmt.Sprintf("%s chose action %d, which is not legal", agents[p].Name(), a)}
			res.FaultBy = p
			return res, nil
		}
		prev := s
		if s, err = g.Apply(s, a); err != nil {
			return envFault(err)
		}
		res.Moves = append(res.Moves, a)
		res.Plies = ply + 1
		release(g, prev)
	}
}

// SeatRNG is the random source of one seat in one game: reproducible from the run's seed, the
// game's index and the seat.
func SeatRNG(seed int64, game, seat int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed)^0x9e3779b97f4a7c15, uint64(game)<<1|uint64(seat&1)))
}

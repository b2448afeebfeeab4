package duel

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"
)

// TrainConfig configures self-play training (AlphaZero-style expert iteration): each iteration
// plays GamesPerIter games of the current network against itself, every move chosen by a
// NetAgent search of Simulations iterations, and then fits the network to the searches' visit
// shares and the games' results.
type TrainConfig struct {
	Seed         int64   `json:"seed"`
	Hidden       int     `json:"hidden"`         // default 64
	GamesPerIter int     `json:"games_per_iter"` // default 24
	Simulations  int     `json:"simulations"`    // default 50
	SampleMoves  int     `json:"sample_moves"`   // plies that sample a move in proportion to visits (default 6); later plies play the most visited
	Epochs       int     `json:"epochs"`         // default 4
	Batch        int     `json:"batch"`          // default 32
	LR           float64 `json:"lr"`             // default 0.002
	MaxPlies     int     `json:"max_plies"`      // default DefaultMaxPlies
}

// WithDefaults fills the zero fields.
func (c TrainConfig) WithDefaults() TrainConfig {
	if c.Hidden <= 0 {
		c.Hidden = 64
	}
	if c.GamesPerIter <= 0 {
		c.GamesPerIter = 24
	}
	if c.Simulations <= 0 {
		c.Simulations = 50
	}
	if c.SampleMoves <= 0 {
		c.SampleMoves = 6
	}
	if c.Epochs <= 0 {
		c.Epochs = 4
	}
	if c.Batch <= 0 {
		c.Batch = 32
	}
	if c.LR <= 0 {
		c.LR = 0.002
	}
	if c.MaxPlies <= 0 {
		c.MaxPlies = DefaultMaxPlies
	}
	return c
}

// InitialNet is the untrained network of a game for a configuration (iteration 0).
func InitialNet(info Info, cfg TrainConfig) *Net {
	cfg = cfg.WithDefaults()
	return NewNet(obsSize(info), cfg.Hidden, info.NumActions, uint64(cfg.Seed)^0x1a2b3c4d)
}

// IterStats describe one training iteration.
type IterStats struct {
	Iteration  int           `json:"iteration"`
	Games      int           `json:"games"`
	Samples    int           `json:"samples"`
	Loss       float64       `json:"loss"`
	FirstWins  int           `json:"first_wins"`
	SecondWins int           `json:"second_wins"`
	Draws      int           `json:"draws"`
	MeanPlies  float64       `json:"mean_plies"`
	CPU        time.Duration `json:"cpu_ns"`
}

// TrainIteration plays iteration iter's self-play games with net and returns the network
// fitted to them (net is not changed). The result depends only on the game, net, cfg and iter.
func TrainIteration(ctx context.Context, g Game, net *Net, cfg TrainConfig, iter int) (*Net, IterStats, error) {
	cfg = cfg.WithDefaults()
	st := IterStats{Iteration: iter}
	agent := &NetAgent{Net: net, Iterations: cfg.Simulations}
	var samples []sample
	plies := 0
	for k := 0; k < cfg.GamesPerIter; k++ {
		id := iter*cfg.GamesPerIter + k
		rng := SeatRNG(cfg.Seed, id, 0)
		s, err := g.Initial(cfg.Seed + int64(id))
		if err != nil {
			return nil, st, err
		}
		var players []int
		first := len(samples)
		outcome := Ongoing
		ply := 0
		for ; ply < cfg.MaxPlies; ply++ {
			o, err := g.Outcome(s)
			if err != nil {
				return nil, st, err
			}
			if o.Done() {
				outcome = o
				break
			}
			p, err := g.ToMove(s)
			if err != nil {
				return nil, st, err
			}
			legal, err := g.Legal(s)
			if err != nil {
				return nil, st, err
			}
			if len(legal) == 0 {
				return nil, st, contractf("legal_actions", "no legal actions while the game is ongoing")
			}
			a := legal[0]
			if len(legal) > 1 {
				visits, err := agent.search(ctx, g, Turn{State: s, Legal: legal, Player: p, Ply: ply, MaxPlies: cfg.MaxPlies}, MoveRNG(rng.Uint64()))
				if err != nil {
					return nil, st, err
				}
				x, err := observation(g, s, p)
				if err != nil {
					return nil, st, err
				}
				pi := visitPolicy(visits)
				samples = append(samples, sample{X: x, Legal: legal, Policy: pi})
				players = append(players, p)
				if ply < cfg.SampleMoves {
					a = legal[sampleIndex(pi, rng)]
				} else {
					best := 0
					for i, v := range visits {
						if v > visits[best] {
							best = i
						}
					}
					a = legal[best]
				}
			}
			if s, err = g.Apply(s, a); err != nil {
				return nil, st, err
			}
		}
		if outcome == Ongoing { // the ply cap: a draw for training
			if o, err := g.Outcome(s); err == nil && o.Done() {
				outcome = o
			}
		}
		for i := first; i < len(samples); i++ {
			samples[i].Z = outcome.Reward(players[i-first])
		}
		switch outcome {
		case FirstWins:
			st.FirstWins++
		case SecondWins:
			st.SecondWins++
		default:
			st.Draws++
		}
		st.Games++
		plies += ply
		release(g, s)
	}
	st.Samples = len(samples)
	st.MeanPlies = float64(plies) / float64(max(st.Games, 1))
	next := net.Clone()
	if len(samples) > 0 {
		st.Loss = next.train(samples, cfg.Epochs, cfg.Batch, cfg.LR, rand.New(rand.NewPCG(uint64(cfg.Seed), uint64(iter)+0x7472)))
	}
	return next, st, nil
}

// trainRequest is one iteration as the worker protocol carries it.
type trainRequest struct {
	Net       *Net        `json:"net"`
	Config    TrainConfig `json:"config"`
	Iteration int         `json:"iteration"`
}

type trainReply struct {
	Net   *Net      `json:"net"`
	Stats IterStats `json:"stats"`
}

// Train runs one training iteration on g: inside the sandbox worker for a Remote game (the
// script never runs in this process), here otherwise.
func Train(ctx context.Context, g Game, net *Net, cfg TrainConfig, iter int) (*Net, IterStats, error) {
	r, ok := g.(*Remote)
	if !ok {
		start := CPUTime()
		next, st, err := TrainIteration(ctx, g, net, cfg, iter)
		st.CPU = CPUTime() - start
		return next, st, err
	}
	r.gameCPU = 0 // an iteration is budgeted as a game of its own (its Move budget per request)
	rep, err := r.do(mergeCtx(ctx, r), workerRequest{Op: "train", Train: &trainRequest{Net: net, Config: cfg, Iteration: iter}})
	if err != nil {
		return nil, IterStats{}, err
	}
	if rep.Trained == nil || rep.Trained.Net == nil {
		return nil, IterStats{}, fmt.Errorf("duel: the sandbox worker returned no network")
	}
	if err := rep.Trained.Net.check(); err != nil {
		return nil, IterStats{}, err
	}
	rep.Trained.Stats.CPU = rep.CPU
	return rep.Trained.Net, rep.Trained.Stats, nil
}

func mergeCtx(ctx context.Context, r *Remote) context.Context {
	if ctx == nil {
		return r.ctx
	}
	return ctx
}

// serveTrain is the worker's side of Train.
func (w *worker) serveTrain(ctx context.Context, req *trainRequest) workerReply {
	if req == nil || req.Net == nil {
		return workerReply{Error: "no training request"}
	}
	if err := req.Net.check(); err != nil {
		return workerReply{Error: err.Error()}
	}
	next, st, err := TrainIteration(ctx, w.game, req.Net, req.Config, req.Iteration)
	if err != nil {
		if f := FaultOf(err); f != nil {
			return workerReply{Fault: f}
		}
		return workerReply{Error: err.Error()}
	}
	return workerReply{Trained: &trainReply{Net: next, Stats: st}}
}

// actSpec is the worker's side of a NetAgent's move: the agent is rebuilt from its spec once
// and kept under its name.
func (w *worker) specAgent(name string, spec json.RawMessage) (Agent, error) {
	if a, ok := w.agents[name]; ok {
		return a, nil
	}
	a, err := agentFromSpec(spec)
	if err != nil {
		return nil, err
	}
	if len(w.agents) > 16 {
		clear(w.agents)
	}
	w.agents[name] = a
	return a, nil
}

package learn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"pcgwb/games/duel"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"time"
)

// TrainConfig configures self-play training (AlphaZero-style expert iteration): each iteration
// plays GamesPerIter games of the current network against itself, every move chosen by a
// NetAgent search of Simulations iterations, and then fits the network to the searches' visit
// shares and the games' results.
type TrainConfig struct {
	Seed         int64 `json:"seed"`
	Hidden       int   `json:"hidden"`         // default 64
	GamesPerIter int   `json:"games_per_iter"` // default 24
	Simulations  int   `json:"simulations"`    // default 50
	SampleMoves  int   `json:"sample_moves"`   // plies that sample a move in proportion to visits (default 6); later plies play the most visited
	Epochs       int   `json:"epochs"`         // passes over the window per iteration (default 4)
	// Window is the number of iterations whose self-play samples the network is fitted to
	// (default 20, as alpha-zero-general's training-example history).
	Window   int     `json:"window"`
	Batch    int     `json:"batch"`     // default 32
	LR       float64 `json:"lr"`        // default 0.002
	MaxPlies int     `json:"max_plies"` // default DefaultMaxPlies
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
	if c.Window <= 0 {
		c.Window = 20
	}
	if c.Batch <= 0 {
		c.Batch = 32
	}
	if c.LR <= 0 {
		c.LR = 0.002
	}
	if c.MaxPlies <= 0 {
		c.MaxPlies = core.DefaultMaxPlies
	}
	return c
}

// InitialNet is the untrained network of a game for a configuration (iteration 0).
func InitialNet(info core.Info, cfg TrainConfig) *Net {
	cfg = cfg.WithDefaults()
	return NewNet(obsSize(info), cfg.Hidden, info.NumActions, uint64(cfg.Seed)^0x1a2b3c4d)
}

// IterStats describe one training iteration.
type IterStats struct {
	Iteration int     `json:"iteration"`
	Games     int     `json:"games"`
	Samples   int     `json:"samples"`
	Loss      float64 `json:"loss"`
	// Window is the number of samples the network was fitted to (this iteration's and the
	// earlier ones the window keeps).
	Window     int           `json:"window"`
	FirstWins  int           `json:"first_wins"`
	SecondWins int           `json:"second_wins"`
	Draws      int           `json:"draws"`
	MeanPlies  float64       `json:"mean_plies"`
	CPU        time.Duration `json:"cpu_ns"`
}

// selfPlay plays iteration iter's self-play games with net and returns their samples: each
// position's observation, the search's visit shares and the game's result for the player to
// move. Every search adds AlphaZero's Dirichlet noise to the root's priors, so that games
// differ even when the network is sure. The result depends only on the game, net, cfg and iter.
func selfPlay(ctx context.Context, g core.Game, net *Net, cfg TrainConfig, iter int) ([]sample, IterStats, error) {
	cfg = cfg.WithDefaults()
	st := IterStats{Iteration: iter}
	agent := &NetAgent{Net: net, Iterations: cfg.Simulations, rootNoise: true}
	var samples []sample
	plies := 0
	for k := 0; k < cfg.GamesPerIter; k++ {
		id := iter*cfg.GamesPerIter + k
		rng := duel.SeatRNG(cfg.Seed, id, 0)
		s, err := g.Initial(cfg.Seed + int64(id))
		if err != nil {
			return nil, st, err
		}
		var players []int
		first := len(samples)
		outcome := core.Ongoing
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
				return nil, st, core.Contractf("legal_actions", "no legal actions while the game is ongoing")
			}
			a := legal[0]
			if len(legal) > 1 {
				visits, err := agent.search(ctx, g, core.Turn{State: s, Legal: legal, Player: p, Ply: ply, MaxPlies: cfg.MaxPlies}, core.MoveRNG(rng.Uint64()))
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
		if outcome == core.Ongoing { // the ply cap: a draw for training
			if o, err := g.Outcome(s); err == nil && o.Done() {
				outcome = o
			}
		}
		for i := first; i < len(samples); i++ {
			samples[i].Z = outcome.Reward(players[i-first])
		}
		switch outcome {
		case core.FirstWins:
			st.FirstWins++
		case core.SecondWins:
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
	return samples, st, nil
}

// Replay is the training window (replay.json in a training folder): the self-play samples of
// the last Window iterations. Self-play positions cost thousands of times more CPU than a
// gradient step on them, so each is fitted to in Window iterations instead of one.
type Replay struct {
	Iterations []ReplayIteration `json:"iterations"`
}

// ReplayIteration holds one iteration's samples.
type ReplayIteration struct {
	Iteration int      `json:"iteration"`
	Samples   []sample `json:"samples"`
}

// add keeps iteration iter's samples and drops those that left the window.
func (r *Replay) add(iter int, samples []sample, window int) {
	r.Iterations = append(r.Iterations, ReplayIteration{Iteration: iter, Samples: samples})
	if n := len(r.Iterations); n > window {
		r.Iterations = append([]ReplayIteration(nil), r.Iterations[n-window:]...)
	}
}

// upTo drops the iterations from iter on (a window saved after a checkpoint whose iteration
// was not recorded: the run continues from before it).
func (r *Replay) upTo(iter int) {
	k := 0
	for _, it := range r.Iterations {
		if it.Iteration < iter {
			r.Iterations[k] = it
			k++
		}
	}
	r.Iterations = r.Iterations[:k]
}

func (r *Replay) samples() []sample {
	var out []sample
	for _, it := range r.Iterations {
		out = append(out, it.Samples...)
	}
	return out
}

// TrainIteration plays iteration iter's self-play games with net, adds them to the window rp
// (nil: a window of this iteration alone) and returns the network fitted to the window (net
// is not changed). The result depends only on the game, net, cfg, iter and the window.
func TrainIteration(ctx context.Context, g core.Game, net *Net, cfg TrainConfig, iter int, rp *Replay) (*Net, IterStats, error) {
	cfg = cfg.WithDefaults()
	samples, st, err := selfPlay(ctx, g, net, cfg, iter)
	if err != nil {
		return nil, st, err
	}
	next, loss, n := fit(net, cfg, iter, samples, rp)
	st.Loss, st.Window = loss, n
	return next, st, nil
}

// fit adds the samples to the window and fits a copy of net to it.
func fit(net *Net, cfg TrainConfig, iter int, samples []sample, rp *Replay) (*Net, float64, int) {
	if rp == nil {
		rp = &Replay{}
	}
	rp.add(iter, samples, cfg.Window)
	all := rp.samples()
	next := net.Clone()
	loss := 0.0
	if len(all) > 0 {
		loss = next.train(all, cfg.Epochs, cfg.Batch, cfg.LR, rand.New(rand.NewPCG(uint64(cfg.Seed), uint64(iter)+0x7472)))
	}
	return next, loss, len(all)
}

// trainRequest is one iteration's self-play as the worker protocol carries it.
type trainRequest struct {
	Net       *Net        `json:"net"`
	Config    TrainConfig `json:"config"`
	Iteration int         `json:"iteration"`
}

type trainReply struct {
	Samples []sample  `json:"samples"`
	Stats   IterStats `json:"stats"`
}

// trainOp is the worker's name of a training iteration's self-play (sandbox.RegisterGameOp).
const trainOp = "train"

func init() {
	sandbox.RegisterGameOp(trainOp, serveTrain)
	sandbox.RegisterAgentSpecs(func(spec json.RawMessage) (core.Agent, error) { return agentFromSpec(spec) })
}

// workerGame is a game whose registered operations run where it runs (sandbox.Remote).
type workerGame interface {
	Call(ctx context.Context, op string, args any) (json.RawMessage, time.Duration, error)
}

// Train runs one training iteration on g (TrainIteration): the self-play games inside the
// sandbox worker for a Remote game (the script never runs in this process), the fitting here.
// The iteration's CPU time is the worker's and this process's.
func Train(ctx context.Context, g core.Game, net *Net, cfg TrainConfig, iter int, rp *Replay) (*Net, IterStats, error) {
	r, ok := g.(workerGame)
	if !ok {
		start := script.CPUTime()
		next, st, err := TrainIteration(ctx, g, net, cfg, iter, rp)
		st.CPU = script.CPUTime() - start
		return next, st, err
	}
	// an iteration is budgeted as a game of its own (its Move budget per request)
	out, cpu, err := r.Call(ctx, trainOp, &trainRequest{Net: net, Config: cfg, Iteration: iter})
	if err != nil {
		return nil, IterStats{}, err
	}
	var trained *trainReply
	if err := json.Unmarshal(out, &trained); err != nil {
		return nil, IterStats{}, fmt.Errorf("duel: the sandbox worker's self-play: %w", err)
	}
	if trained == nil {
		return nil, IterStats{}, fmt.Errorf("duel: the sandbox worker returned no self-play samples")
	}
	cfg = cfg.WithDefaults()
	for _, s := range trained.Samples {
		if err := s.check(net); err != nil {
			return nil, IterStats{}, fmt.Errorf("duel: the sandbox worker returned a bad sample: %w", err)
		}
	}
	start := script.CPUTime()
	next, loss, n := fit(net, cfg, iter, trained.Samples, rp)
	st := trained.Stats
	st.Loss, st.Window = loss, n
	st.CPU = cpu + script.CPUTime() - start
	return next, st, nil
}

// check verifies that a sample fits net (samples come back from a sandbox worker).
func (s *sample) check(net *Net) error {
	if len(s.X) != net.In || len(s.Legal) == 0 || len(s.Legal) != len(s.Policy) {
		return fmt.Errorf("%d inputs (want %d), %d legal actions, %d shares", len(s.X), net.In, len(s.Legal), len(s.Policy))
	}
	for i, a := range s.Legal {
		if a < 0 || a >= net.Out || math.IsNaN(s.Policy[i]) || s.Policy[i] < 0 || s.Policy[i] > 1 {
			return fmt.Errorf("action %d with share %v", a, s.Policy[i])
		}
	}
	for _, x := range s.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("input %v", x)
		}
	}
	if math.IsNaN(s.Z) || s.Z < -1 || s.Z > 1 {
		return fmt.Errorf("result %v", s.Z)
	}
	return nil
}

// serveTrain is the worker's side of Train: the iteration's self-play games.
func serveTrain(ctx context.Context, g core.Game, args json.RawMessage) (any, error) {
	var req *trainRequest
	if err := json.Unmarshal(args, &req); err != nil {
		return nil, err
	}
	if req == nil || req.Net == nil {
		return nil, errors.New("no training request")
	}
	if err := req.Net.check(); err != nil {
		return nil, err
	}
	samples, st, err := selfPlay(ctx, g, req.Net, req.Config, req.Iteration)
	if err != nil {
		return nil, err
	}
	// a reply holds at most MaxReply bytes: about 24 bytes a number in JSON
	size := 0
	for _, s := range samples {
		size += 24 * (len(s.X) + 2*len(s.Legal) + 1)
	}
	if size > sandbox.MaxReply/2 {
		return nil, fmt.Errorf("an iteration's %d self-play positions are too large to return (about %d MiB): play fewer games per iteration", len(samples), size>>20)
	}
	return &trainReply{Samples: samples, Stats: st}, nil
}

// release tells a game that holds its states elsewhere (a sandbox.Remote) that they are
// dropped, as duel's Play does.
func release(g core.Game, states ...core.State) {
	if r, ok := g.(interface{ Release(states ...core.State) }); ok {
		r.Release(states...)
	}
}

package learn

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"pcgwb/games/duel"
	"pcgwb/games/duel/core"
	"time"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/folderlock"
	"pcgwb/internal/safeio"
)

// The files of a training folder (`duel train --out DIR`).
const (
	TrainFile     = "train.json"     // the run: configuration, iterations, checkpoints
	BenchmarkFile = "benchmark.json" // the benchmark opponent chosen among the checkpoints
	ReplayFile    = "replay.json"    // the training window: the last iterations' self-play samples
)

// CheckpointFile is the name of the network after iteration k (1-based).
func CheckpointFile(k int) string { return fmt.Sprintf("ckpt-%03d.json", k) }

// TrainRun is train.json: what a training folder holds, rewritten after every iteration.
type TrainRun struct {
	Game   string      `json:"game"`
	Source string      `json:"source_sha256"`
	Config TrainConfig `json:"config"`
	// Budget is the CPU time the iterations may use in all (over every run that continued
	// the folder); CPU what they used.
	Budget      time.Duration `json:"budget_ns"`
	CPU         time.Duration `json:"cpu_ns"`
	Iterations  []IterStats   `json:"iterations"`
	Checkpoints []string      `json:"checkpoints"`
}

// Benchmark is benchmark.json: the checkpoint chosen as the game's benchmark opponent by
// gg-bench's rule, and what it is worth.
type Benchmark struct {
	Game string `json:"game"`
	// Candidates are the checkpoints of the selection round robin (gg-bench's four, at a
	// quarter, half, three quarters and the end of training).
	Candidates []string         `json:"candidates"`
	Tournament *duel.Tournament `json:"tournament"`
	Lopsided   duel.Lopsided    `json:"lopsided"`
	// Decisive: the most lopsided pair's share is above gg-bench's 0.8 (gg-bench drops a game
	// where it is not).
	Decisive   bool      `json:"decisive"`
	Checkpoint string    `json:"checkpoint"`
	Agent      string    `json:"agent"`
	Iterations int       `json:"mcts_iterations"`
	Strength   *Strength `json:"strength,omitempty"`
	// TrainCPU is the training CPU time behind the checkpoints.
	TrainCPU time.Duration `json:"train_cpu_ns"`
}

// TrainOptions configure a training run.
type TrainOptions struct {
	Config TrainConfig
	// Budget is the CPU time of the iterations in all (default 10 minutes); MaxIterations, when
	// set, stops sooner. An iteration that starts runs to its end.
	Budget        time.Duration
	MaxIterations int
	// SelectGames is the number of games per pair of the selection round robin (default 6, as
	// gg-bench) and PlayIterations the search of the benchmark opponent (default 100).
	SelectGames, PlayIterations int
	// StrengthGames per reference agent (default 20; negative: not measured).
	StrengthGames int
	// Log, when set, is told what happens.
	Log func(format string, a ...any)
}

// SourceHash names a script's source.
func SourceHash(src []byte) string {
	h := sha256.Sum256(src)
	return hex.EncodeToString(h[:])
}

// RunTraining trains a game's opponent in dir (made and locked): it continues an earlier run
// of the same script there, trains until the budget is spent, saving each checkpoint and
// train.json atomically after every iteration, then chooses the benchmark opponent among the
// checkpoints (gg-bench's rule, SelectBenchmark), measures its strength and writes
// benchmark.json. newGame opens the game (a sandbox worker for a script): with training set,
// for the iterations (a budget per request long enough for one iteration), else for play.
func RunTraining(ctx context.Context, newGame func(training bool) (core.Game, error), src []byte, dir string, opts TrainOptions) (*TrainRun, *Benchmark, error) {
	logf := opts.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if opts.Budget <= 0 {
		opts.Budget = 10 * time.Minute
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	lock, err := folderlock.Acquire(dir)
	if err != nil {
		return nil, nil, err
	}
	defer lock.Release()
	g, err := newGame(true)
	if err != nil {
		return nil, nil, err
	}
	defer func() { closeGame(g) }() // the game of the moment: training's, then play's
	info := g.Info()
	cfg := opts.Config.WithDefaults()
	run := &TrainRun{Game: info.Name, Source: SourceHash(src), Config: cfg, Budget: opts.Budget}
	net := InitialNet(info, cfg)
	replay := &Replay{}
	if prev, err := readJSON[TrainRun](filepath.Join(dir, TrainFile)); err == nil {
		if prev.Source != run.Source || prev.Config != cfg {
			return nil, nil, fmt.Errorf("%s holds training of another script or configuration (seed %d): use another folder", dir, prev.Config.Seed)
		}
		run.Iterations, run.Checkpoints, run.CPU = prev.Iterations, prev.Checkpoints, prev.CPU
		if n := len(run.Checkpoints); n > 0 {
			last, err := readJSON[Net](filepath.Join(dir, run.Checkpoints[n-1]))
			if err != nil {
				return nil, nil, fmt.Errorf("continuing %s: %w", dir, err)
			}
			if err := last.check(); err != nil {
				return nil, nil, fmt.Errorf("continuing %s: %s: %w", dir, run.Checkpoints[n-1], err)
			}
			net = last
		}
		if rp, err := readJSON[Replay](filepath.Join(dir, ReplayFile)); err == nil {
			replay = rp
			replay.upTo(len(run.Iterations))
			for _, it := range replay.Iterations {
				for i := range it.Samples {
					if err := it.Samples[i].check(net); err != nil {
						return nil, nil, fmt.Errorf("continuing %s: %s: %w", dir, ReplayFile, err)
					}
				}
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("continuing %s: %w", dir, err)
		}
		logf("continuing %s: %d iterations, %s of CPU time done", dir, len(run.Iterations), run.CPU.Round(time.Second))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	for run.CPU < opts.Budget && (opts.MaxIterations <= 0 || len(run.Iterations) < opts.MaxIterations) {
		k := len(run.Iterations)
		next, st, err := Train(ctx, g, net, cfg, k, replay)
		if err != nil {
			return run, nil, fmt.Errorf("iteration %d: %w", k+1, err)
		}
		name := CheckpointFile(k + 1)
		if err := writeJSON(filepath.Join(dir, name), next); err != nil {
			return run, nil, err
		}
		// the window before train.json: a window ahead of train.json is cut back on resume
		if err := writeCompactJSON(filepath.Join(dir, ReplayFile), replay); err != nil {
			return run, nil, err
		}
		run.Iterations = append(run.Iterations, st)
		run.Checkpoints = append(run.Checkpoints, name)
		run.CPU += st.CPU
		if err := writeJSON(filepath.Join(dir, TrainFile), run); err != nil {
			return run, nil, err
		}
		net = next
		logf("iteration %d: %d games (%d-%d-%d), %d samples (window %d), loss %.3f, %s CPU (%s of %s)", k+1, st.Games, st.FirstWins, st.SecondWins, st.Draws,
			st.Samples, st.Window, st.Loss, st.CPU.Round(time.Millisecond), run.CPU.Round(time.Second), opts.Budget)
	}
	if len(run.Checkpoints) == 0 {
		return run, nil, errors.New("no checkpoint: the budget allowed no iteration")
	}
	closeGame(g)
	if g, err = newGame(false); err != nil {
		g = nil
		return run, nil, err
	}
	b, err := SelectBenchmark(ctx, g, dir, run, opts)
	if err != nil {
		return run, nil, err
	}
	if opts.StrengthGames >= 0 {
		n := opts.StrengthGames
		if n == 0 {
			n = 20
		}
		agent, err := b.Load(dir)
		if err != nil {
			return run, b, err
		}
		logf("strength of %s: %d games against each of %v", b.Agent, n, StrengthRefs)
		if b.Strength, err = MeasureStrength(ctx, g, agent, nil, n, cfg.Seed+1<<20, nil); err != nil {
			return run, b, err
		}
	}
	return run, b, writeJSON(filepath.Join(dir, BenchmarkFile), b)
}

// SelectBenchmark is gg-bench's upper-bound rule (spec §7.5) over the checkpoints: four of them
// (a quarter, half, three quarters and all of the iterations) play a round robin, each side an
// MCTS of PlayIterations guided by its network, SelectGames games a pair with the first mover
// alternating; the benchmark opponent is the loser of the most lopsided pair (something is
// known to beat it). Draws count for neither side (MostLopsided).
func SelectBenchmark(ctx context.Context, g core.Game, dir string, run *TrainRun, opts TrainOptions) (*Benchmark, error) {
	iters := opts.PlayIterations
	if iters <= 0 {
		iters = 100
	}
	games := opts.SelectGames
	if games <= 0 {
		games = 6
	}
	n := len(run.Checkpoints)
	var cands []string
	for q := 1; q <= 4; q++ {
		c := run.Checkpoints[max(0, (q*n+3)/4-1)]
		if len(cands) == 0 || cands[len(cands)-1] != c {
			cands = append(cands, c)
		}
	}
	b := &Benchmark{Game: run.Game, Candidates: cands, Iterations: iters, TrainCPU: run.CPU}
	if len(cands) == 1 {
		b.Checkpoint = cands[0]
	} else {
		agents := make([]core.Agent, len(cands))
		for i, c := range cands {
			net, err := readJSON[Net](filepath.Join(dir, c))
			if err != nil {
				return nil, err
			}
			if err := net.check(); err != nil {
				return nil, fmt.Errorf("%s: %w", c, err)
			}
			agents[i] = &NetAgent{Net: net, Label: trimExt(c), Iterations: iters}
		}
		// the round robin of RunTournament, played on g (one game, one worker)
		seed := run.Config.Seed + 1<<19
		t := &duel.Tournament{Options: duel.TournamentOptions{GamesPerPair: games, Seed: seed}}
		for _, a := range agents {
			t.Agents = append(t.Agents, a.Name())
		}
		for i := range agents {
			for j := i + 1; j < len(agents); j++ {
				pr, err := duel.PlayMatch(ctx, g, [2]core.Agent{agents[i], agents[j]}, games, seed, nil)
				if err != nil {
					return nil, err
				}
				pr.A, pr.B = i, j
				t.Pairs = append(t.Pairs, pr)
			}
		}
		b.Tournament = t
		l, ok := t.MostLopsided()
		if !ok {
			return nil, errors.New("the selection round robin decided nothing")
		}
		b.Lopsided, b.Decisive = l, l.Share > 0.8
		for i, a := range agents {
			if a.Name() == l.Loser {
				b.Checkpoint = cands[i]
			}
		}
	}
	agent, err := b.Load(dir)
	if err != nil {
		return nil, err
	}
	b.Agent = agent.Name()
	return b, nil
}

// Load makes the benchmark opponent from its checkpoint in dir.
func (b *Benchmark) Load(dir string) (*NetAgent, error) {
	net, err := readJSON[Net](filepath.Join(dir, b.Checkpoint))
	if err != nil {
		return nil, err
	}
	if err := net.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", b.Checkpoint, err)
	}
	return &NetAgent{Net: net, Label: trimExt(b.Checkpoint), Iterations: b.Iterations}, nil
}

// LoadBenchmark reads a training folder's benchmark opponent.
func LoadBenchmark(dir string) (*Benchmark, *NetAgent, error) {
	b, err := readJSON[Benchmark](filepath.Join(dir, BenchmarkFile))
	if err != nil {
		return nil, nil, err
	}
	a, err := b.Load(dir)
	return b, a, err
}

func trimExt(name string) string { return name[:len(name)-len(filepath.Ext(name))] }

func closeGame(g core.Game) {
	if c, ok := g.(interface{ Close() }); ok && g != nil {
		c.Close()
	}
}

func readJSON[T any](path string) (*T, error) {
	b, err := safeio.ReadFile(path, 64<<20)
	if err != nil {
		return nil, err
	}
	v := new(T)
	if err := json.Unmarshal(b, v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

func writeCompactJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'), 0o644)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'), 0o644)
}

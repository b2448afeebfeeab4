package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime/debug"
	"text/tabwriter"
	"time"

	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
)

func duelBenchSetup(fs *flag.FlagSet) Runner {
	iters := fs.Int("iterations", 100, "MCTS iterations per move")
	positions := fs.Int("positions", 10, "positions searched per game (the opening, then random-play positions)")
	target := fs.Duration("target", 20*time.Millisecond, "the time an in-process move should take at most")
	return func(ctx context.Context, names []string, io IO) error {
		if len(names) == 0 {
			names = script.Builtins()
		}
		// search allocates a state per move and keeps little alive: collecting less often cuts
		// MCTS time by about a third (the sandbox workers do the same)
		defer debug.SetGCPercent(debug.SetGCPercent(400))
		tw := tabwriter.NewWriter(io.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "game\tms/move\tCPU ms/move\trollouts/s\tsandboxed ms/move\tsandboxed CPU ms/move\tCPU sandboxed/in-process\tCPU ≤ %s\t\n", *target)
		slow := 0
		for _, name := range names {
			b, err := benchGame(ctx, name, *iters, *positions)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			ok := "yes"
			if b.cpuPerMove > *target {
				ok, slow = "NO", slow+1
			}
			fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.0f\t%.2f\t%.2f\t%.2f×\t%s\t\n", name, millis(b.perMove), millis(b.cpuPerMove), b.rollouts,
				millis(b.sandboxed), millis(b.sandboxedCPU), float64(b.sandboxedCPU)/float64(b.cpuPerMove), ok)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(io.Stdout, "MCTS with %d iterations and random rollouts, %d positions per game, in this process and in a\n"+
			"warm sandbox worker (the same searches: same positions, same move seeds). CPU time is user + system of the\n"+
			"whole process (GC included; the worker's as it measured it, plus this process's share of the round trip),\n"+
			"which a busy machine inflates less than wall\n"+
			"time; the sandboxed wall time adds a round trip between processes, which a busy machine delays. The target\n"+
			"is checked on in-process CPU time\n", *iters, *positions)
		if slow > 0 {
			return fmt.Errorf("%d game(s) slower than %s per move", slow, *target)
		}
		return nil
	}
}

type benchResult struct {
	perMove, cpuPerMove, sandboxed, sandboxedCPU time.Duration
	rollouts                                     float64
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// benchGame times MCTS moves from the opening and from positions a few random moves in, in
// this process and then in a sandbox worker.
func benchGame(ctx context.Context, name string, iters, positions int) (benchResult, error) {
	p, err := script.Open(name, script.Limits{})
	if err != nil {
		return benchResult{}, err
	}
	g, err := p.New()
	if err != nil {
		return benchResult{}, err
	}
	defer g.Close()
	remote, err := sandbox.DefaultPool.Open(ctx, p.Name(), p.Source(), sandbox.SandboxOptions{})
	if err != nil {
		return benchResult{}, err
	}
	defer remote.Close()
	m := &agents.MCTS{Iterations: iters}
	var total, cpu, sandboxed, sandboxedCPU time.Duration
	rollouts, moves := 0, 0
	for k := 0; k < positions; k++ {
		rng := duel.SeatRNG(int64(k), k, 0)
		local, err := duel.NewSession(g, int64(k), 0)
		if err != nil {
			return benchResult{}, err
		}
		far, err := duel.NewSession(remote, int64(k), 0)
		if err != nil {
			return benchResult{}, err
		}
		for i := 0; i < k%8; i++ {
			t, err := local.Turn()
			if err != nil {
				break
			}
			a := t.Legal[rng.IntN(len(t.Legal))]
			if err := local.Play(a); err != nil {
				return benchResult{}, err
			}
			if err := far.Play(a); err != nil {
				return benchResult{}, err
			}
		}
		t, err := local.Turn()
		if err != nil {
			far.Close()
			continue // the random moves ended the game
		}
		seed := rng.Uint64()
		start, startCPU := time.Now(), script.CPUTime()
		st, err := m.Search(ctx, g, t, core.MoveRNG(seed))
		if err != nil {
			return benchResult{}, err
		}
		total += time.Since(start)
		cpu += script.CPUTime() - startCPU
		rollouts += st.Rollouts
		ft, err := far.Turn()
		if err != nil {
			return benchResult{}, err
		}
		start, startCPU = time.Now(), remote.CPU()
		hostCPU := script.CPUTime()
		if _, err := duel.ActOn(ctx, remote, m, ft, seed); err != nil {
			return benchResult{}, err
		}
		sandboxed += time.Since(start)
		// the worker's CPU time and this process's share (the round trip)
		sandboxedCPU += remote.CPU() - startCPU + script.CPUTime() - hostCPU
		far.Close()
		moves++
	}
	if moves == 0 {
		return benchResult{}, errors.New("no position to search")
	}
	n := time.Duration(moves)
	return benchResult{perMove: total / n, cpuPerMove: cpu / n, sandboxed: sandboxed / n, sandboxedCPU: sandboxedCPU / n,
		rollouts: float64(rollouts) / total.Seconds()}, nil
}

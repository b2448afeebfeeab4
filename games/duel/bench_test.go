package duel

import (
	"context"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"testing"
)

// BenchmarkMCTS100 is one 100-iteration MCTS move from the opening of each built-in game; it
// reports rollouts per second too.
func BenchmarkMCTS100(b *testing.B) {
	for _, name := range script.Builtins() {
		b.Run(name, func(b *testing.B) {
			g, err := script.LoadBuiltin(name, script.Limits{})
			if err != nil {
				b.Fatal(err)
			}
			defer g.Close()
			s, err := g.Initial(0)
			if err != nil {
				b.Fatal(err)
			}
			p, _ := g.ToMove(s)
			legal, _ := g.Legal(s)
			m := &agents.MCTS{Iterations: 100}
			rng := SeatRNG(1, 0, 0)
			rollouts := 0
			b.ResetTimer()
			cpu := script.CPUTime()
			for i := 0; i < b.N; i++ {
				st, err := m.Search(context.Background(), g, core.Turn{State: s, Legal: legal, Player: p, MaxPlies: core.DefaultMaxPlies}, rng)
				if err != nil {
					b.Fatal(err)
				}
				rollouts += st.Rollouts
			}
			b.ReportMetric(float64(rollouts)/b.Elapsed().Seconds(), "rollouts/s")
			b.ReportMetric(float64(script.CPUTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// BenchmarkMCTS100Sandboxed is BenchmarkMCTS100 with the search in a warm sandbox worker (one
// request per move, as every command and the Games tab run it): next to BenchmarkMCTS100 it
// shows what the process boundary costs.
func BenchmarkMCTS100Sandboxed(b *testing.B) {
	ctx := context.Background()
	for _, name := range script.Builtins() {
		b.Run(name, func(b *testing.B) {
			g, err := sandbox.OpenSandboxed(ctx, name, sandbox.SandboxOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer g.Close()
			s, err := g.Initial(0)
			if err != nil {
				b.Fatal(err)
			}
			p, _ := g.ToMove(s)
			legal, _ := g.Legal(s)
			m := &agents.MCTS{Iterations: 100}
			rng := SeatRNG(1, 0, 0)
			t := core.Turn{State: s, Legal: legal, Player: p, MaxPlies: core.DefaultMaxPlies}
			b.ResetTimer()
			cpu, workerCPU := script.CPUTime(), g.CPU()
			for i := 0; i < b.N; i++ {
				if _, err := ActOn(ctx, g, m, t, rng.Uint64()); err != nil {
					b.Fatal(err)
				}
			}
			// the worker's CPU time and this process's (the round trips), to set beside
			// BenchmarkMCTS100's cpu-ms/op
			b.ReportMetric(float64(g.CPU()-workerCPU+script.CPUTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

package arcade

import (
	"math"
	"math/rand/v2"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/numpyrng"
)

// checkPlayouts walks one random game of an engine and, from every state on the way and from
// each of its five successors (the states the MCTS plays out from), plays a random play-out
// with Engine.update and with the compact play-out from the same two generators: the outcome
// must be the same and both generators must end in the same state. It returns the number of
// play-outs compared; the generators carry on from one play-out to the next, as in a game.
func checkPlayouts(t testing.TB, e *Engine, walk *rand.Rand) int {
	t.Helper()
	agent := numpyrng.New(uint64(e.Rules.Seed) + 1)
	reference := &FlatMCTS{rng: agent}
	s := e.Initialize()
	n := 0
	compare := func(from State) {
		if !compactable(e, &from) {
			t.Fatalf("rules %s: a state of the game is not compactable: %+v", e.Rules.Script(), from)
		}
		engine0, agent0 := e.rng, *agent
		want := reference.simulate(e, from) == 1
		engine1, agent1 := e.rng, *agent
		e.rng, *agent = engine0, agent0
		var pl playout
		pl.reset(e, &from)
		got, _ := pl.run(pl.load(&from), agent, &e.rng)
		if got != want || e.rng != engine1 || *agent != agent1 {
			t.Fatalf("rules %s\nstate %+v: compact play-out won %v (Engine.update: %v); engine generator equal %v, agent generator equal %v",
				e.Rules.Script(), from, got, want, e.rng == engine1, *agent == agent1)
		}
		n++
	}
	for {
		compare(s)
		if e.Over(&s) {
			return n
		}
		for _, d := range Directions {
			next := s
			e.Update(&next, d)
			compare(next)
		}
		e.Update(&s, Directions[walk.IntN(len(Directions))])
	}
}

// randomEngine samples a content of a variant and prepares its game, or returns nil when the
// player starts on a wall (Info plays no game then).
func randomEngine(t testing.TB, a *Arcade, r *rand.Rand) *Engine {
	t.Helper()
	e, err := a.Engine(a.ContentSpace().Sample(r))
	if err != nil {
		t.Fatal(err)
	}
	if a.grid.At(e.Rules.X, e.Rules.Y) != 1 {
		return nil
	}
	return e
}

// The compact play-outs are Engine.update's, draw for draw, on random rules of every variant.
func TestPlayoutEqualsEngineUpdates(t *testing.T) {
	for _, name := range []string{"arcade-v0", "arcade-wide-v0", "arcade-large-v0"} {
		t.Run(name, func(t *testing.T) {
			p, err := problems.Make(name)
			if err != nil {
				t.Fatal(err)
			}
			a := p.(*Arcade)
			r := rand.New(rand.NewPCG(11, uint64(len(name))))
			played := 0
			for i := 0; i < 150; i++ {
				if e := randomEngine(t, a, r); e != nil {
					played += checkPlayouts(t, e, r)
				}
			}
			if played < 1000 {
				t.Fatalf("only %d play-outs compared", played)
			}
		})
	}
}

// States the compact play-out does not take (the player or a piece on a wall, a count out of
// range) are refused, so the MCTS plays them with Engine.update.
func TestCompactableRefusesHandMadeStates(t *testing.T) {
	p, _ := problems.Make("arcade-v0")
	a := p.(*Arcade)
	e := NewEngine(&Rules{X: 0, Y: 0, Starts: [Colours]Start{{Num: 1, X: [MaxPieces]int{2}, Y: [MaxPieces]int{2}}}}, a.layout)
	start := e.Initialize()
	tests := []struct {
		name   string
		change func(s *State)
		want   bool
	}{
		{"start", func(*State) {}, true},
		{"player on the padding", func(s *State) { s.Player.X = 0 }, false},
		{"player outside", func(s *State) { s.Player.Y = 100 }, false},
		{"player on a wall", func(s *State) { s.Player.X, s.Player.Y = 4, 2 }, false},
		{"piece on a wall", func(s *State) { s.Pieces[Red][0].X, s.Pieces[Red][0].Y = 4, 2 }, false},
		{"count too large", func(s *State) { s.Count[Green] = MaxPieces + 1 }, false},
		{"count negative", func(s *State) { s.Count[Green] = -1 }, false},
	}
	for _, tt := range tests {
		s := start
		tt.change(&s)
		if got := compactable(e, &s); got != tt.want {
			t.Errorf("%s: compactable = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// FuzzPlayout compares the two play-outs on rules drawn from a fuzzed seed.
func FuzzPlayout(f *testing.F) {
	f.Add(uint64(1), uint64(2), uint8(0))
	f.Add(uint64(77), uint64(5), uint8(2))
	names := []string{"arcade-v0", "arcade-wide-v0", "arcade-large-v0"}
	f.Fuzz(func(t *testing.T, s1, s2 uint64, variant uint8) {
		p, err := problems.Make(names[int(variant)%len(names)])
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(s1, s2))
		if e := randomEngine(t, p.(*Arcade), r); e != nil {
			checkPlayouts(t, e, r)
		}
	})
}

// BenchmarkGames plays the three agents' games of 40 random rule sets, without the memo: the
// cost of the evaluations a search makes.
func BenchmarkGames(b *testing.B) {
	p, _ := problems.Make("arcade-v0")
	a := p.(*Arcade)
	r := rand.New(rand.NewPCG(3, 4))
	var engines []*Engine
	for len(engines) < 40 {
		if e := randomEngine(b, a, r); e != nil {
			engines = append(engines, e)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, e := range engines {
			RunGame(e, DoNothing{})
			RunGame(e, NewRandomAgent(e.Rules.Seed))
			RunGame(e, NewFlatMCTS(e.Rules.Seed))
		}
	}
}

// BenchmarkPlayout runs the compact play-outs from the states of random games (ns/step is per
// step played).
func BenchmarkPlayout(b *testing.B) {
	p, _ := problems.Make("arcade-v0")
	a := p.(*Arcade)
	r := rand.New(rand.NewPCG(5, 6))
	type start struct {
		e *Engine
		s State
	}
	var starts []start
	for len(starts) < 400 {
		e := randomEngine(b, a, r)
		if e == nil {
			continue
		}
		s := e.Initialize()
		for !e.Over(&s) {
			starts = append(starts, start{e, s})
			e.Update(&s, Directions[r.IntN(len(Directions))])
		}
	}
	agent := numpyrng.New(1)
	steps := 0
	b.ResetTimer()
	var pl playout
	for i := 0; i < b.N; i++ {
		for _, st := range starts {
			pl.reset(st.e, &st.s)
			for k := 0; k < 10; k++ {
				_, n := pl.run(pl.load(&st.s), agent, &st.e.rng)
				steps += n
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
}

// choice5 is the generator's Choice(5), and the engine's IntN(4) and IntN(2) are a 32-bit
// draw's top bits, draw for draw from generators of several seeds.
func TestDrawsAreTheGenerators(t *testing.T) {
	for _, seed := range []uint64{0, 1, 7, 999999} {
		g1, g2 := numpyrng.New(seed), numpyrng.New(seed)
		for i := 0; i < 200000; i++ {
			if got, want := choice5(g1), g2.Choice(len(Directions)); got != want {
				t.Fatalf("seed %d, draw %d: choice5 %d, Choice %d", seed, i, got, want)
			}
			if got, want := int(g1.Uint32()>>30), g2.IntN(4); got != want {
				t.Fatalf("seed %d, draw %d: top two bits %d, IntN(4) %d", seed, i, got, want)
			}
			if got, want := int(g1.Uint32()>>31), g2.IntN(2); got != want {
				t.Fatalf("seed %d, draw %d: top bit %d, IntN(2) %d", seed, i, got, want)
			}
		}
	}
}

// UCB1's tables hold the terms Action computed per play-out before, bit for bit, for every
// count a decision reaches.
func TestUCBTablesAreTheTerms(t *testing.T) {
	logs, terms, shares := logVisits(), exploreTerms(), winShares()
	if len(logs) != len(Directions)+mctsRollouts+1 {
		t.Fatalf("%d logs, want %d", len(logs), len(Directions)+mctsRollouts+1)
	}
	for n := len(Directions); n < len(logs); n++ {
		for v := 1; v <= n; v++ {
			if want := float64(math.Sqrt2 * math.Sqrt(logs[n]/float64(v))); terms[n][v] != want {
				t.Fatalf("exploration term (n %d, v %d) = %v, want %v", n, v, terms[n][v], want)
			}
			if want := float64(v) / float64(n); shares[n][v] != want {
				t.Fatalf("win share (total %d, v %d) = %v, want %v", n, v, shares[n][v], want)
			}
		}
	}
	if shares[0][0] != 0 {
		t.Fatalf("win share of no wins = %v", shares[0][0])
	}
}

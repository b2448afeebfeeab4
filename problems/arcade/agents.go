package arcade

import (
	"math"
	"strconv"
	"sync"

	"pcgwb/problems/numpyrng"
	"pcgwb/problems/shape"
)

// Agent picks the player's move in a state. It must not change the state (the trace records
// it); it may play the engine forward on copies, which draws from the engine's generator.
type Agent interface {
	Action(e *Engine, s *State) Action
}

// DoNothing never moves.
type DoNothing struct{}

func (DoNothing) Action(*Engine, *State) Action { return Directions[4] }

// RandomAgent picks uniformly among the five moves with its own generator.
type RandomAgent struct{ rng *numpyrng.Generator }

// NewRandomAgent seeds the agent's generator as the reference does (with the content's seed).
func NewRandomAgent(seed int) *RandomAgent { return &RandomAgent{numpyrng.New(uint64(seed))} }

func (r *RandomAgent) Action(*Engine, *State) Action {
	return Directions[r.rng.Choice(len(Directions))]
}

// FlatMCTS is the reference's flat Monte-Carlo tree search: one random play-out after each of
// the five moves, then 40 more play-outs spread by UCB1, and the most visited move wins.
type FlatMCTS struct {
	rng      *numpyrng.Generator
	rollouts int
	// playout is the play-outs' tables, made again for every decision (kept to reuse its
	// buffers).
	playout playout
}

// mctsRollouts is the number of UCB-guided play-outs per decision.
const mctsRollouts = 40

// NewFlatMCTS seeds the agent's own generator (for its random play-outs) with the content's seed.
func NewFlatMCTS(seed int) *FlatMCTS {
	return &FlatMCTS{rng: numpyrng.New(uint64(seed)), rollouts: mctsRollouts}
}

// logVisits[n] is glibc's log(n) for the visit counts UCB sees (5 … 45): Go's math.Log(14)
// differs from glibc's in the last bit, which can flip the argmax between two moves.
var logVisits = sync.OnceValue(func() []float64 {
	t := make([]float64, len(Directions)+mctsRollouts+1)
	for n := 1; n < len(t); n++ {
		t[n] = shape.Log(float64(n))
	}
	return t
})

// exploreTerms[n][v] is UCB1's exploration term √2·√(log n / v) for n plays in all and v of
// one move, computed once with exactly the expression Action used to evaluate per play-out (the
// product rounded, glibc's log): a table look-up gives the same bits as the square root it
// replaces, 200 times per decision.
var exploreTerms = sync.OnceValue(func() [][]float64 {
	logs := logVisits()
	t := make([][]float64, len(logs))
	for n := range t {
		t[n] = make([]float64, len(logs))
		for v := 1; v < len(logs); v++ {
			t[n][v] = exploreTerm(logs[n], v)
		}
	}
	return t
})

// winShares[t][v] is UCB1's exploitation term v/max(1, t) for v wins of one move among t
// wins in all (a division gives the same bits wherever it is done).
var winShares = sync.OnceValue(func() [][]float64 {
	n := len(logVisits())
	t := make([][]float64, n)
	for total := range t {
		t[total] = make([]float64, n)
		for v := range t[total] {
			t[total][v] = float64(v) / float64(max(1, total))
		}
	}
	return t
})

// exploreTerm is UCB1's exploration term for log n = logN and v plays of one move. The
// explicit conversion keeps a compiler from fusing the product into a later addition (the
// reference rounds it first).
func exploreTerm(logN float64, v int) float64 {
	return float64(math.Sqrt2 * math.Sqrt(logN/float64(v)))
}

// simulate is a random play-out with Engine.update, for states the compact play-out does not
// take (see compactable).
func (m *FlatMCTS) simulate(e *Engine, s State) int {
	for !e.Over(&s) {
		e.update(&s, Directions[m.rng.Choice(len(Directions))])
	}
	if e.IsWin(&s) {
		return 1
	}
	return 0
}

func (m *FlatMCTS) Action(e *Engine, s *State) Action {
	var (
		next   [len(Directions)]State
		value  [len(Directions)]int
		visits [len(Directions)]int
		// compact[i] is next[i] for the compact play-outs (when fast).
		compact [len(Directions)]simState
	)
	fast := compactable(e, s)
	pl := &m.playout
	if fast {
		pl.reset(e, s)
	}
	simulate := func(i int) int {
		if !fast {
			return m.simulate(e, next[i])
		}
		if won, _ := pl.run(compact[i], m.rng, &e.rng); won {
			return 1
		}
		return 0
	}
	total, n := 0, 0
	for i, d := range Directions {
		next[i] = *s
		e.Update(&next[i], d)
		if fast {
			compact[i] = pl.load(&next[i])
		}
		value[i] = simulate(i)
		visits[i] = 1
		n++
		total += value[i]
	}
	logs, terms, shares := logVisits(), exploreTerms(), winShares()
	for k := 0; k < m.rollouts; k++ {
		best, bestU := -1, -1.0
		var (
			logN       float64
			row, share []float64
		)
		if n < len(logs) {
			logN, row = logs[n], terms[n]
		} else {
			logN = shape.Log(float64(n))
		}
		if total < len(shares) {
			share = shares[total]
		}
		for i := range Directions {
			var explore, exploit float64
			if v := visits[i]; v < len(row) {
				explore = row[v]
			} else {
				explore = exploreTerm(logN, v)
			}
			if v := value[i]; v < len(share) {
				exploit = share[v]
			} else {
				exploit = float64(v) / float64(max(1, total))
			}
			u := exploit + explore
			if u > bestU {
				best, bestU = i, u
			}
		}
		v := simulate(best)
		value[best] += v
		visits[best]++
		total += v
		n++
	}
	best, most := -1, -1
	for i := range Directions {
		if visits[i] > most {
			best, most = i, visits[i]
		}
	}
	return Directions[best]
}

// Step is one entry of a trace: the state before the agent's move and the move (the last
// step, the final state, has none). Win and Lose are the state's end flags.
type Step struct {
	State     State
	Action    Action
	HasAction bool
	Win, Lose bool
}

// Trace is a played game; its JSON is the reference's list of [state, action] pairs.
type Trace []Step

// RunGame plays the rules with an agent from the start until the game is won or lost.
func RunGame(e *Engine, a Agent) Trace {
	s := e.Initialize()
	trace := make(Trace, 0, e.MaxTime+1)
	for !e.Over(&s) {
		before := s
		act := a.Action(e, &before)
		e.Update(&s, act)
		trace = append(trace, Step{State: before, Action: act, HasAction: true, Win: e.IsWin(&before), Lose: e.IsLose(&before)})
	}
	return append(trace, Step{State: s, Win: e.IsWin(&s), Lose: e.IsLose(&s)})
}

// Replay recomputes a trace's states from its actions: the engine's generator makes the game
// deterministic, so a recorded agent's moves reproduce its game exactly.
func Replay(e *Engine, actions []Action) Trace {
	s := e.Initialize()
	trace := make(Trace, 0, len(actions)+1)
	for _, act := range actions {
		if e.Over(&s) {
			break
		}
		before := s
		e.Update(&s, act)
		trace = append(trace, Step{State: before, Action: act, HasAction: true, Win: e.IsWin(&before), Lose: e.IsLose(&before)})
	}
	return append(trace, Step{State: s, Win: e.IsWin(&s), Lose: e.IsLose(&s)})
}

// Actions lists the trace's moves.
func (t Trace) Actions() []Action {
	out := make([]Action, 0, len(t))
	for _, s := range t {
		if s.HasAction {
			out = append(out, s.Action)
		}
	}
	return out
}

// MarshalJSON writes [state, action] with the reference's serialisation of a state.
func (s Step) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 512)
	b = append(b, `[{"_player":{"x":`...)
	p := s.State.Player
	b = strconv.AppendInt(b, int64(p.X), 10)
	b = append(b, `,"y":`...)
	b = strconv.AppendInt(b, int64(p.Y), 10)
	b = append(b, `,"score":`...)
	b = strconv.AppendInt(b, int64(p.Score), 10)
	b = append(b, `,"time":`...)
	b = strconv.AppendInt(b, int64(p.Time), 10)
	b = append(b, `,"alive":`...)
	b = strconv.AppendBool(b, p.Alive)
	b = append(b, '}')
	for _, c := range [...]struct {
		key    string
		colour int
	}{{"_reds", Red}, {"_yellows", Yellow}, {"_greens", Green}} {
		b = append(b, `,"`...)
		b = append(b, c.key...)
		b = append(b, `":[`...)
		for i := 0; i < int(s.State.Count[c.colour]); i++ {
			o := s.State.Pieces[c.colour][i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"x":`...)
			b = strconv.AppendInt(b, int64(o.X), 10)
			b = append(b, `,"y":`...)
			b = strconv.AppendInt(b, int64(o.Y), 10)
			b = append(b, `,"state":`...)
			b = strconv.AppendInt(b, int64(o.State), 10)
			b = append(b, `,"value":`...)
			b = strconv.AppendInt(b, int64(o.Value), 10)
			b = append(b, `,"alive":`...)
			b = strconv.AppendBool(b, o.Alive)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"isWin":`...)
	b = strconv.AppendBool(b, s.Win)
	b = append(b, `,"isLose":`...)
	b = strconv.AppendBool(b, s.Lose)
	b = append(b, '}', ',')
	if s.HasAction {
		b = append(b, `{"x":`...)
		b = strconv.AppendInt(b, int64(s.Action.X), 10)
		b = append(b, `,"y":`...)
		b = strconv.AppendInt(b, int64(s.Action.Y), 10)
		b = append(b, '}')
	} else {
		b = append(b, "null"...)
	}
	return append(b, ']'), nil
}

package duel

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"

	"golang.org/x/sync/errgroup"

	"pcgwb/stats"
)

// TournamentOptions configure a round robin.
type TournamentOptions struct {
	GamesPerPair int   // default 6 (gg-bench's upper-bound tournament)
	MaxPlies     int   // default DefaultMaxPlies
	Seed         int64 // game k of every pair starts from Initial(Seed + k)
	Workers      int   // parallel games, default 1
	// Progress, when set, is called after every game (from any worker goroutine, serialised).
	Progress func(done, total int)
}

// PairResult counts the games between agents A and B (indices into the agent list); A is
// player 0 in the even-numbered games.
type PairResult struct {
	A, B       int
	Games      int
	AWins      int
	BWins      int
	Draws      int
	Truncated  int // ply cap reached: counted as draws in scores
	EnvFaults  int // the game script failed: left out of scores
	AFaults    int // A's agent failed (illegal move, LLM never answered): a loss for A
	BFaults    int
	TotalPlies int
	// Faults name the faults of the pair's games (the distinct ones, at most maxFaultNotes),
	// so no game is left out of a score without saying why.
	Faults []string `json:"faults,omitempty"`
}

const maxFaultNotes = 5

// Score is A's points in [0, 1]: wins count 1, draws and truncated games 1/2, faults of the
// other side 1; games lost to env faults are left out. n is the number of games counted.
func (p PairResult) Score() (score float64, n int) {
	n = p.Games - p.EnvFaults
	if n == 0 {
		return math.NaN(), 0
	}
	pts := float64(p.AWins+p.BFaults) + 0.5*float64(p.Draws+p.Truncated)
	return pts / float64(n), n
}

// Tournament is the outcome of a round robin.
type Tournament struct {
	Agents  []string          `json:"agents"`
	Options TournamentOptions `json:"-"`
	Pairs   []PairResult      `json:"pairs"`
}

// RunTournament plays every pair of agents GamesPerPair times, alternating who moves first.
// newGame makes one game instance per worker.
func RunTournament(ctx context.Context, newGame func() (core.Game, error), agents []core.Agent, opts TournamentOptions) (*Tournament, error) {
	if opts.GamesPerPair <= 0 {
		opts.GamesPerPair = 6
	}
	if opts.MaxPlies <= 0 {
		opts.MaxPlies = core.DefaultMaxPlies
	}
	workers := max(opts.Workers, 1)
	t := &Tournament{Options: opts}
	for _, a := range agents {
		t.Agents = append(t.Agents, a.Name())
	}
	type job struct{ pair, a, b, game int }
	var jobs []job
	for i := range agents {
		for j := i + 1; j < len(agents); j++ {
			t.Pairs = append(t.Pairs, PairResult{A: i, B: j})
			for k := 0; k < opts.GamesPerPair; k++ {
				jobs = append(jobs, job{len(t.Pairs) - 1, i, j, k})
			}
		}
	}
	games := make([]core.Game, workers)
	for w := range games {
		g, err := newGame()
		if err != nil {
			return nil, err
		}
		games[w] = g
	}
	// the first error (a cancelled context: Play's only error) cancels the others' games
	eg, egctx := errgroup.WithContext(ctx)
	var mu sync.Mutex
	done := 0
	next := make(chan job)
	for w := 0; w < workers; w++ {
		g := games[w]
		eg.Go(func() error {
			for jb := range next {
				seats := [2]core.Agent{agents[jb.a], agents[jb.b]}
				aSeat := 0
				if jb.game%2 == 1 {
					seats[0], seats[1], aSeat = seats[1], seats[0], 1
				}
				id := jb.pair*opts.GamesPerPair + jb.game
				rngs := [2]*rand.Rand{SeatRNG(opts.Seed, id, 0), SeatRNG(opts.Seed, id, 1)}
				res, err := Play(egctx, g, seats, opts.Seed+int64(jb.game), opts.MaxPlies, rngs)
				if err != nil {
					return err
				}
				mu.Lock()
				t.Pairs[jb.pair].Add(res, aSeat)
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(jobs))
				}
				mu.Unlock()
			}
			return nil
		})
	}
feed:
	for _, jb := range jobs {
		select {
		case next <- jb:
		case <-egctx.Done():
			break feed
		}
	}
	close(next)
	err := eg.Wait()
	for _, g := range games {
		if c, ok := g.(interface{ Close() }); ok {
			c.Close()
		}
	}
	if err != nil {
		return t, err
	}
	return t, ctx.Err()
}

// Add counts one game; aSeat is the player agent A played in it.
func (p *PairResult) Add(r Result, aSeat int) {
	p.Games++
	p.TotalPlies += r.Plies
	if r.Fault != nil && len(p.Faults) < maxFaultNotes {
		who := "the game"
		switch {
		case r.FaultBy == aSeat:
			who = "agent A"
		case r.FaultBy >= 0:
			who = "agent B"
		}
		note := who + ": " + script.Clip(r.Fault.Error(), 300)
		if !slices.Contains(p.Faults, note) {
			p.Faults = append(p.Faults, note)
			slices.Sort(p.Faults) // games end in any order when played in parallel
		}
	}
	switch {
	case r.Fault != nil && r.FaultBy < 0:
		p.EnvFaults++
	case r.Fault != nil && r.FaultBy == aSeat:
		p.AFaults++
	case r.Fault != nil:
		p.BFaults++
	case r.Truncated:
		p.Truncated++
	case r.Outcome == core.Draw:
		p.Draws++
	case r.Outcome.Winner() == aSeat:
		p.AWins++
	default:
		p.BWins++
	}
}

// Wilson is the 95% Wilson score interval of a score p (draws as half a win) over n games:
// the statistics layer's WilsonScore. With no games it is the whole of [0, 1].
func Wilson(p float64, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	iv := stats.WilsonScore(p, n)
	return iv.Lo, iv.Hi
}

// Cell is one agent's record against another (or against all, with Opponent -1).
type Cell struct {
	Wins, Losses, Draws, Faults, EnvFaults, N int
	Score, Lo, Hi                             float64
}

// Record is agent i's record against agent j (j = -1: against everyone).
func (t *Tournament) Record(i, j int) Cell {
	var c Cell
	pts := 0.0
	for _, p := range t.Pairs {
		var w, l, own, their int
		switch {
		case p.A == i && (j < 0 || p.B == j):
			w, l, own, their = p.AWins, p.BWins, p.AFaults, p.BFaults
		case p.B == i && (j < 0 || p.A == j):
			w, l, own, their = p.BWins, p.AWins, p.BFaults, p.AFaults
		default:
			continue
		}
		c.Wins += w + their
		c.Losses += l + own
		c.Draws += p.Draws + p.Truncated
		c.Faults += own
		c.EnvFaults += p.EnvFaults
		c.N += p.Games - p.EnvFaults
		pts += float64(w+their) + 0.5*float64(p.Draws+p.Truncated)
	}
	if c.N > 0 {
		c.Score = pts / float64(c.N)
		c.Lo, c.Hi = Wilson(c.Score, c.N)
	} else {
		c.Score, c.Lo, c.Hi = math.NaN(), 0, 1
	}
	return c
}

// WriteTable prints the win-rate table: each row agent's score against each column agent
// (wins 1, draws 1/2) with its 95% Wilson interval, then each agent's overall record.
func (t *Tournament) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "score (row vs column)")
	for _, name := range t.Agents {
		fmt.Fprintf(tw, "\t%s", name)
	}
	fmt.Fprintln(tw, "\toverall\tW-L-D\tfaults")
	for i, name := range t.Agents {
		fmt.Fprint(tw, name)
		for j := range t.Agents {
			if i == j {
				fmt.Fprint(tw, "\t-")
				continue
			}
			fmt.Fprintf(tw, "\t%s", formatScore(t.Record(i, j)))
		}
		all := t.Record(i, -1)
		fmt.Fprintf(tw, "\t%s\t%d-%d-%d\t%d\n", formatScore(all), all.Wins, all.Losses, all.Draws, all.Faults)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	env, plies, games := 0, 0, 0
	for _, p := range t.Pairs {
		env += p.EnvFaults
		plies += p.TotalPlies
		games += p.Games
	}
	if games > 0 {
		fmt.Fprintf(w, "%d games, %.1f plies on average, %d env faults; score = (wins + draws/2) / games, 95%% Wilson interval\n",
			games, float64(plies)/float64(games), env)
	}
	for _, p := range t.Pairs {
		for _, f := range p.Faults {
			fmt.Fprintf(w, "fault in %s vs %s: %s\n", t.Agents[p.A], t.Agents[p.B], core.PrintableLine(f))
		}
	}
	return nil
}

func formatScore(c Cell) string {
	if c.N == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f [%.2f,%.2f]", c.Score, c.Lo, c.Hi)
}

// Lopsided is the most one-sided pair of a tournament, as gg-bench's upper-bound filter reads
// it (spec §7.5): Winner beat Loser in Share of their games. gg-bench takes the loser as the
// benchmark opponent: something is known to beat it.
type Lopsided struct {
	Winner, Loser string
	Share         float64
}

// MostLopsided finds the pair with the highest share of games won by one side. Unlike gg-bench,
// draws count as wins for neither side, so an all-draw matrix is never decisive (spec §14.3).
func (t *Tournament) MostLopsided() (Lopsided, bool) {
	var best Lopsided
	found := false
	for _, p := range t.Pairs {
		n := p.Games - p.EnvFaults
		if n == 0 {
			continue
		}
		a := float64(p.AWins+p.BFaults) / float64(n)
		b := float64(p.BWins+p.AFaults) / float64(n)
		if a >= b && (!found || a > best.Share) {
			best, found = Lopsided{t.Agents[p.A], t.Agents[p.B], a}, true
		} else if b > a && (!found || b > best.Share) {
			best, found = Lopsided{t.Agents[p.B], t.Agents[p.A], b}, true
		}
	}
	return best, found
}

// AgentNames joins agent names for messages.
func AgentNames(agents []core.Agent) string {
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = a.Name()
	}
	return strings.Join(names, ", ")
}

// PlayMatch plays games games between agents[0] (A) and agents[1] (B) on g, A moving first in
// the even-numbered games; game k starts from seed+k with the seats' random sources
// SeatRNG(seed, k, seat). onGame, when set, is told after each game with the running record
// (the CLI's match and the Games tab's agent match show it live). The error is only the
// context's.
func PlayMatch(ctx context.Context, g core.Game, agents [2]core.Agent, games int, seed int64, onGame func(k int, seats [2]core.Agent, res Result, pr PairResult)) (PairResult, error) {
	pr := PairResult{A: 0, B: 1}
	for k := 0; k < games; k++ {
		seats := agents
		if k%2 == 1 {
			seats[0], seats[1] = seats[1], seats[0]
		}
		rngs := [2]*rand.Rand{SeatRNG(seed, k, 0), SeatRNG(seed, k, 1)}
		res, err := Play(ctx, g, seats, seed+int64(k), 0, rngs)
		if err != nil {
			return pr, err
		}
		pr.Add(res, k%2)
		if onGame != nil {
			onGame(k, seats, res, pr)
		}
	}
	return pr, nil
}

// Record is A's record in the pair (Opponent is B): wins, losses, draws, faults, and the score
// (wins + draws/2 over the games counted) with its 95% Wilson interval.
func (p PairResult) Record() Cell {
	p.A, p.B = 0, 1
	t := Tournament{Agents: []string{"A", "B"}, Pairs: []PairResult{p}}
	return t.Record(0, 1)
}

// Interval is a rate with its 95% interval and the number of games behind it.
type Interval struct {
	Rate float64 `json:"rate"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
	N    int     `json:"n"`
}

func (iv Interval) String() string {
	return fmt.Sprintf("%.1f%% [%.1f, %.1f] over %d games", 100*iv.Rate, 100*iv.Lo, 100*iv.Hi, iv.N)
}

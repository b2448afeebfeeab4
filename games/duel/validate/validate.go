package validate

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"slices"
	"strings"
	"time"
)

// The filters a generated game must pass, in order (gg-bench §7 and the acceptance pipeline of
// spec §15.3). Program stops at the first that rejects.
const (
	// FilterLoad: parses with while, recursion and global reassignment disabled, initialises
	// within the limits, defines every contract name with the right kind, NUM_ACTIONS <= 512
	// (which replaces gg-bench's regular expression against exponential action spaces).
	FilterLoad = "load"
	// FilterExecution: gg-bench's execution filter: build the initial state, check every
	// contract function on it, then take the first legal move 5 times, checking render and
	// the other functions after each.
	FilterExecution = "execution"
	// FilterTermination: gg-bench's timeout filter: a first-legal-move player against a random
	// player (gg-bench used gpt-4o-mini) must finish every game within the ply cap, from both
	// seats.
	FilterTermination = "termination"
	// FilterPlayouts: random playouts from fixed seeds under every contract check, the ply cap
	// and a per-game step budget.
	FilterPlayouts = "playouts"
	// FilterDeterminism: replaying a seed and its moves gives the same renders and outcome.
	FilterDeterminism = "determinism"
	// FilterDegenerate: under random play both players win sometimes and not every game is
	// drawn.
	FilterDegenerate = "degenerate"
	// FilterSkill: gg-bench's upper-bound filter: in a round robin of agents of different
	// strength, some agent beats another in more than 80% of their games; the loser of that
	// pair is the benchmark opponent.
	FilterSkill = "skill"
)

// Filters lists the filters in the order they run.
var Filters = []string{FilterLoad, FilterExecution, FilterTermination, FilterPlayouts, FilterDeterminism, FilterDegenerate, FilterSkill}

// Options configure Program, Source and Sandboxed; zero fields take the defaults shown.
type Options struct {
	Limits script.Limits
	// MaxPlies is the ply cap (default 100).
	MaxPlies int
	// Playouts is the number of random playouts (default 200); Replays how many of them the
	// determinism filter replays (default 20); TerminationGames the games per seat of the
	// termination filter (default 10).
	Playouts, Replays, TerminationGames int
	// GameSteps is the Starlark step budget of one whole playout (default 5e7).
	GameSteps uint64
	// SkillAgents play the skill round robin (default random, mcts-25, mcts-100); SkillGames
	// is the number of games per pair (default 6) and SkillThreshold the share of games the
	// winner of the most lopsided pair must exceed (default 0.8).
	SkillAgents    []core.Agent
	SkillGames     int
	SkillThreshold float64
	// SkipSkill leaves out the (slowest) skill filter.
	SkipSkill bool
	// Seed offsets every seed the filters use.
	Seed int64
	// Workers run the skill tournament's games in parallel (default 1).
	Workers int
	// Progress, when set, is told when each filter starts.
	Progress func(filter string)
}

func (o Options) withDefaults() Options {
	if o.MaxPlies <= 0 {
		o.MaxPlies = core.DefaultMaxPlies
	}
	if o.Playouts <= 0 {
		o.Playouts = 200
	}
	if o.Replays <= 0 {
		o.Replays = 20
	}
	if o.TerminationGames <= 0 {
		o.TerminationGames = 10
	}
	if o.GameSteps == 0 {
		o.GameSteps = 50_000_000
	}
	if len(o.SkillAgents) == 0 {
		o.SkillAgents = []core.Agent{agents.Random{}, &agents.MCTS{Iterations: 25}, &agents.MCTS{Iterations: 100}}
	}
	if o.SkillGames <= 0 {
		o.SkillGames = 6
	}
	if o.SkillThreshold == 0 {
		o.SkillThreshold = 0.8
	}
	return o
}

// Check is the verdict of one filter.
type Check struct {
	Filter   string        `json:"filter"`
	Passed   bool          `json:"passed"`
	Detail   string        `json:"detail"`
	Duration time.Duration `json:"duration_ns"`
}

// RandomPlayStats summarise the random playouts.
type RandomPlayStats struct {
	Games     int     `json:"games"`
	FirstWins int     `json:"first_wins"`
	SecondWin int     `json:"second_wins"`
	Draws     int     `json:"draws"`
	MeanPlies float64 `json:"mean_plies"`
}

// Report is the result of validating one game.
type Report struct {
	Game   string `json:"game"`
	Passed bool   `json:"passed"`
	// Rejected names the filter that rejected the game and Reason says why.
	Rejected string      `json:"rejected,omitempty"`
	Reason   string      `json:"reason,omitempty"`
	Fault    *core.Fault `json:"fault,omitempty"`
	Checks   []Check     `json:"checks"`
	Info     *core.Info  `json:"info,omitempty"`

	Random            *RandomPlayStats `json:"random_play,omitempty"`
	Skill             *duel.Tournament `json:"skill,omitempty"`
	Lopsided          *duel.Lopsided   `json:"lopsided,omitempty"`
	BenchmarkOpponent string           `json:"benchmark_opponent,omitempty"`
	// Warnings say what makes an accepted game a poor benchmark game: a slow game (CPU time
	// per MCTS-100 move), a state that grows without bound.
	Warnings []string `json:"warnings,omitempty"`
}

// filterError rejects a game in one filter.
type filterError struct {
	msg   string
	fault *core.Fault
}

func (e *filterError) Error() string { return e.msg }

func reject(err error, format string, a ...any) error {
	msg := fmt.Sprintf(format, a...)
	f := core.FaultOf(err)
	if err != nil {
		msg += ": " + err.Error()
	}
	return &filterError{msg: msg, fault: f}
}

// Source compiles a script and validates it.
func Source(ctx context.Context, name string, src []byte, opts Options) Report {
	opts = opts.withDefaults()
	rep := Report{Game: name}
	if opts.Progress != nil {
		opts.Progress(FilterLoad)
	}
	start := time.Now()
	p, err := script.Compile(name, src, opts.Limits)
	if err == nil {
		var g *script.ScriptGame
		if g, err = p.New(); err == nil {
			g.Close()
		}
	}
	if err != nil {
		rep.record(FilterLoad, start, reject(err, "the script does not load"))
		return rep
	}
	rep.record(FilterLoad, start, nil)
	return validate(ctx, p, opts, rep)
}

// Program runs the filters on a compiled game.
func Program(ctx context.Context, p *script.Program, opts Options) Report {
	opts = opts.withDefaults()
	rep := Report{Game: p.Name()}
	start := time.Now()
	g, err := p.New()
	if err != nil {
		rep.record(FilterLoad, start, reject(err, "the script does not load"))
		return rep
	}
	g.Close()
	rep.record(FilterLoad, start, nil)
	return validate(ctx, p, opts, rep)
}

func (r *Report) record(filter string, start time.Time, err error) bool {
	c := Check{Filter: filter, Passed: err == nil, Duration: time.Since(start)}
	if err != nil {
		c.Detail = err.Error()
		r.Passed = false
		r.Rejected = filter
		r.Reason = err.Error()
		if fe, ok := err.(*filterError); ok {
			r.Fault = fe.fault
		} else {
			r.Fault = core.FaultOf(err)
		}
	}
	r.Checks = append(r.Checks, c)
	return err == nil
}

func validate(ctx context.Context, p *script.Program, opts Options, rep Report) Report {
	g, err := p.New()
	if err != nil {
		rep.record(FilterLoad, time.Now(), reject(err, "the script does not load"))
		return rep
	}
	defer g.Close()
	info := g.Info()
	rep.Info = &info
	var records []playoutRecord
	steps := []struct {
		name string
		run  func() error
	}{
		{FilterExecution, func() error { return checkExecution(g, opts) }},
		{FilterTermination, func() error { return checkTermination(ctx, g, opts) }},
		{FilterPlayouts, func() error {
			var err error
			var sizes []stateSizes
			rep.Random, records, sizes, err = checkPlayouts(ctx, g, opts)
			if w := growthWarning(sizes); w != "" {
				rep.Warnings = append(rep.Warnings, w)
			}
			if err == nil {
				if w := slowWarning(ctx, g, opts, script.CPUTime); w != "" {
					rep.Warnings = append(rep.Warnings, w)
				}
			}
			return err
		}},
		{FilterDeterminism, func() error { return checkDeterminism(ctx, p, records, opts) }},
		{FilterDegenerate, func() error { return checkDegenerate(rep.Random) }},
		{FilterSkill, func() error {
			if opts.SkipSkill {
				return nil
			}
			return checkSkill(ctx, p, opts, &rep)
		}},
	}
	for _, st := range steps {
		if err := ctx.Err(); err != nil {
			rep.record(st.name, time.Now(), reject(nil, "cancelled"))
			return rep
		}
		if opts.Progress != nil {
			opts.Progress(st.name)
		}
		start := time.Now()
		if !rep.record(st.name, start, st.run()) {
			return rep
		}
		if st.name == FilterSkill && opts.SkipSkill {
			rep.Checks[len(rep.Checks)-1].Detail = "skipped"
		}
	}
	rep.Passed = true
	return rep
}

// inspect checks every contract function on one ongoing or finished state and returns its
// outcome, player to move and legal list.
func inspect(g core.Game, s core.State, labels bool) (core.Outcome, int, []int, error) {
	if err := script.CheckData(s); err != nil {
		return core.Ongoing, 0, nil, core.Contractf("", "%v", err)
	}
	o, err := g.Outcome(s)
	if err != nil {
		return o, 0, nil, err
	}
	if _, err := g.Render(s); err != nil {
		return o, 0, nil, err
	}
	for p := 0; p < 2; p++ {
		if _, err := g.Observe(s, p); err != nil {
			return o, 0, nil, err
		}
	}
	if o.Done() {
		return o, 0, nil, nil
	}
	p, err := g.ToMove(s)
	if err != nil {
		return o, 0, nil, err
	}
	legal, err := g.Legal(s)
	if err != nil {
		return o, p, nil, err
	}
	if len(legal) == 0 {
		return o, p, nil, core.Contractf("legal_actions", "returned no actions while the game is ongoing (a pass must be an explicit action)")
	}
	if labels {
		seen := make(map[string]int, len(legal))
		for _, a := range legal {
			l, err := g.ActionLabel(s, a)
			if err != nil {
				return o, p, legal, err
			}
			if b, dup := seen[l]; dup {
				return o, p, legal, core.Contractf("action_label", "actions %d and %d have the same label %q", b, a, l)
			}
			seen[l] = a
		}
	}
	return o, p, legal, nil
}

func checkExecution(g *script.ScriptGame, opts Options) error {
	s, err := g.Initial(opts.Seed)
	if err != nil {
		return reject(err, "initial_state(%d) failed", opts.Seed)
	}
	for step := 0; step <= 5; step++ {
		o, _, legal, err := inspect(g, s, true)
		if err != nil {
			return reject(err, "after %d first-legal moves", step)
		}
		if o.Done() || step == 5 {
			return nil
		}
		if s, err = g.Apply(s, legal[0]); err != nil {
			return reject(err, "move %d (action %d)", step+1, legal[0])
		}
	}
	return nil
}

func checkTermination(ctx context.Context, g *script.ScriptGame, opts Options) error {
	for seat := 0; seat < 2; seat++ {
		for k := 0; k < opts.TerminationGames; k++ {
			seats := [2]core.Agent{agents.FirstLegal{}, agents.Random{}}
			if seat == 1 {
				seats = [2]core.Agent{agents.Random{}, agents.FirstLegal{}}
			}
			id := seat*opts.TerminationGames + k
			res, err := duel.Play(ctx, g, seats, opts.Seed+int64(k), opts.MaxPlies, [2]*rand.Rand{duel.SeatRNG(opts.Seed, id, 0), duel.SeatRNG(opts.Seed, id, 1)})
			if err != nil {
				return err
			}
			if res.Fault != nil {
				return reject(res.Fault, "game %d (first-legal as Player %d)", k, seat+1)
			}
			if res.Truncated {
				return reject(nil, "game %d (first-legal as Player %d, seed %d) did not end within %d plies", k, seat+1, opts.Seed+int64(k), opts.MaxPlies)
			}
		}
	}
	return nil
}

// playout plays one game under every contract check, random moves from rng or, when replay is
// set, the recorded moves, and returns the moves, the hash of its renders and its outcome.
func playout(ctx context.Context, g *script.ScriptGame, seed int64, rng *rand.Rand, opts Options, replay bool, moves []int, sizes *stateSizes) ([]int, uint64, core.Outcome, error) {
	h := fnv.New64a()
	startSteps := g.Steps()
	s, err := g.Initial(seed)
	if err != nil {
		return nil, 0, core.Ongoing, err
	}
	for ply := 0; ; ply++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, core.Ongoing, err
		}
		if g.Steps()-startSteps > opts.GameSteps {
			return nil, 0, core.Ongoing, &core.Fault{Kind: core.FaultSteps, Msg: fmt.Sprintf("the game used more than %d execution steps", opts.GameSteps)}
		}
		if sizes != nil {
			sizes.add(s, ply)
		}
		txt, err := g.Render(s)
		if err != nil {
			return nil, 0, core.Ongoing, err
		}
		io.WriteString(h, txt)
		o, _, legal, err := inspect(g, s, ply < 3 && !replay)
		if err != nil {
			return nil, 0, core.Ongoing, err
		}
		if o.Done() {
			return moves, h.Sum64(), o, nil
		}
		if ply >= opts.MaxPlies {
			return moves, h.Sum64(), core.Ongoing, &core.Fault{Kind: core.FaultContract, Msg: fmt.Sprintf("no outcome after %d plies", opts.MaxPlies)}
		}
		var a int
		if replay {
			if ply >= len(moves) {
				return moves, h.Sum64(), o, fmt.Errorf("the replay is still going after the %d recorded moves", len(moves))
			}
			a = moves[ply]
			if _, ok := slices.BinarySearch(legal, a); !ok {
				return moves, h.Sum64(), o, fmt.Errorf("recorded move %d (ply %d) is not legal in the replay", a, ply)
			}
		} else {
			a = legal[rng.IntN(len(legal))]
			if _, err := g.ActionLabel(s, a); err != nil {
				return nil, 0, core.Ongoing, err
			}
			moves = append(moves, a)
		}
		if s, err = g.Apply(s, a); err != nil {
			return nil, 0, core.Ongoing, err
		}
	}
}

type playoutRecord struct {
	seed    int64
	moves   []int
	hash    uint64
	outcome core.Outcome
}

func checkPlayouts(ctx context.Context, g *script.ScriptGame, opts Options) (*RandomPlayStats, []playoutRecord, []stateSizes, error) {
	st := &RandomPlayStats{}
	var records []playoutRecord
	var sizes []stateSizes
	plies := 0
	for i := 0; i < opts.Playouts; i++ {
		seed := opts.Seed + int64(i)
		var z *stateSizes
		if i < growthPlayouts {
			sizes = append(sizes, stateSizes{})
			z = &sizes[len(sizes)-1]
		}
		moves, h, o, err := playout(ctx, g, seed, duel.SeatRNG(opts.Seed^0x5eed, i, 0), opts, false, nil, z)
		if err != nil {
			return st, nil, sizes, reject(err, "random playout %d (seed %d)", i, seed)
		}
		st.Games++
		plies += len(moves)
		switch o {
		case core.FirstWins:
			st.FirstWins++
		case core.SecondWins:
			st.SecondWin++
		default:
			st.Draws++
		}
		if i < opts.Replays {
			records = append(records, playoutRecord{seed, moves, h, o})
		}
	}
	st.MeanPlies = float64(plies) / float64(max(st.Games, 1))
	return st, records, sizes, nil
}

// checkDeterminism replays recorded playouts on a fresh instance: a script has no clock and no
// randomness besides the seed, so a difference means state leaking between calls.
func checkDeterminism(ctx context.Context, p *script.Program, records []playoutRecord, opts Options) error {
	g, err := p.New()
	if err != nil {
		return reject(err, "a second instance does not load")
	}
	defer g.Close()
	for i, r := range records {
		_, h, o, err := playout(ctx, g, r.seed, nil, opts, true, r.moves, nil)
		if err != nil {
			return reject(err, "replay of playout %d (seed %d)", i, r.seed)
		}
		if h != r.hash || o != r.outcome {
			return reject(nil, "replay of playout %d (seed %d) gave different renders or outcome (%v, was %v)", i, r.seed, o, r.outcome)
		}
	}
	return nil
}

func checkDegenerate(st *RandomPlayStats) error {
	switch {
	case st == nil || st.Games == 0:
		return reject(nil, "no random playouts to judge")
	case st.Draws == st.Games:
		return reject(nil, "all %d random games were draws", st.Games)
	case st.FirstWins == 0:
		return reject(nil, "Player 1 (the first mover) never won in %d random games (%d losses, %d draws)", st.Games, st.SecondWin, st.Draws)
	case st.SecondWin == 0:
		return reject(nil, "Player 2 (the second mover) never won in %d random games (%d losses, %d draws)", st.Games, st.FirstWins, st.Draws)
	}
	return nil
}

func checkSkill(ctx context.Context, p *script.Program, opts Options, rep *Report) error {
	t, err := duel.RunTournament(ctx, func() (core.Game, error) { return p.New() }, opts.SkillAgents, duel.TournamentOptions{
		GamesPerPair: opts.SkillGames,
		MaxPlies:     opts.MaxPlies,
		Seed:         opts.Seed,
		Workers:      opts.Workers,
	})
	if err != nil {
		return reject(err, "skill tournament")
	}
	rep.Skill = t
	for _, pr := range t.Pairs {
		if pr.EnvFaults > 0 {
			return reject(nil, "%d of %d games between %s and %s ended in a game fault", pr.EnvFaults, pr.Games, t.Agents[pr.A], t.Agents[pr.B])
		}
	}
	l, ok := t.MostLopsided()
	if !ok || l.Share == 0 {
		return reject(nil, "no agent won a game in the round robin of %s", duel.AgentNames(opts.SkillAgents))
	}
	rep.Lopsided = &l
	if l.Share <= opts.SkillThreshold {
		return reject(nil, "no agent beat another in more than %.0f%% of their games (best: %s over %s, %.0f%%)",
			100*opts.SkillThreshold, l.Winner, l.Loser, 100*l.Share)
	}
	rep.BenchmarkOpponent = l.Loser
	return nil
}

// WriteText prints a report for people: one line per filter, then the verdict.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "game %s", core.PrintableLine(r.Game))
	if r.Info != nil {
		fmt.Fprintf(w, " (%d actions, observation of %d)", r.Info.NumActions, r.Info.ObsSize)
	}
	fmt.Fprintln(w)
	for _, c := range r.Checks {
		status := "ok"
		if !c.Passed {
			status = "REJECTED"
		}
		fmt.Fprintf(w, "  %-12s %-9s %8s", c.Filter, status, c.Duration.Round(time.Millisecond))
		if c.Passed && c.Detail != "" {
			fmt.Fprintf(w, "  %s", core.PrintableLine(c.Detail))
		}
		fmt.Fprintln(w)
	}
	if st := r.Random; st != nil {
		fmt.Fprintf(w, "random play: %d games, Player 1 won %d, Player 2 won %d, %d draws, %.1f plies on average\n",
			st.Games, st.FirstWins, st.SecondWin, st.Draws, st.MeanPlies)
	}
	if r.Skill != nil {
		fmt.Fprintln(w, "skill round robin:")
		var b strings.Builder
		r.Skill.WriteTable(&b)
		for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			fmt.Fprintln(w, "  "+line)
		}
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", core.PrintableLine(warn))
	}
	if r.Passed {
		fmt.Fprint(w, "verdict: accepted")
		if r.BenchmarkOpponent != "" {
			fmt.Fprintf(w, "; benchmark opponent %s (%s beat it in %.0f%% of their games)", r.BenchmarkOpponent, r.Lopsided.Winner, 100*r.Lopsided.Share)
		}
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintf(w, "verdict: rejected by the %s filter: %s\n", r.Rejected, core.PrintableLine(r.Reason))
}

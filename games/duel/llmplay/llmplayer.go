package llmplay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"pcgwb/games/duel"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/learn"
	"pcgwb/games/duel/script"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Query is one fresh conversation for a model: a system message (none when empty) and a user
// message.
type Query struct {
	System, User string
	// Sample tells apart asks of the same prompt that must get independent replies: a retry
	// (gg-bench resends the identical prompt) or the same position in another game. Glue that
	// caches replies must make it part of the cache key (llm.Request.Sample).
	Sample int
}

// Asker is the one thing the language-model glue has to provide: answer a Query. Package llm
// adapts its client to it; tests use scripted fakes.
type Asker interface {
	Ask(ctx context.Context, q Query) (string, error)
}

// AskFunc adapts a function to Asker.
type AskFunc func(ctx context.Context, q Query) (string, error)

func (f AskFunc) Ask(ctx context.Context, q Query) (string, error) { return f(ctx, q) }

// DefaultRetries is gg-bench's number of attempts per LLM move (spec §10).
const DefaultRetries = 5

// LLMPlayer plays a game through a language model the way gg-bench's evaluation does (spec
// §10): every turn is a new conversation holding the rulebook and the action text in the system
// message and the board plus the sorted legal moves in the user message; the reply must be
// digits only; a non-number or an illegal number is asked again with the identical prompt, up
// to Retries attempts, after which the game ends as an LLM fault; a forced move is played
// without asking.
type LLMPlayer struct {
	Model string
	Ask   Asker
	// Rules is the rulebook; Actions explains what each action index means (gg-bench's stage C
	// text). When Actions is empty, the player asks the game for a label of every legal move.
	Rules, Actions string
	// Retries is the number of attempts per move (default 5).
	Retries int
	// MergeSystem puts the system text into the user message (gg-bench did so for o1-mini).
	MergeSystem bool
	// Deviations from gg-bench, off by default: TrimReply accepts a reply with surrounding
	// spaces; ShowLabels lists each legal move's label next to its number; Feedback tells the
	// model on a retry what was wrong with its previous reply.
	TrimReply, ShowLabels, Feedback bool
}

func (p *LLMPlayer) Name() string {
	if p.Model == "" {
		return "llm"
	}
	return p.Model
}

// Prompts for the evaluation, paraphrasing gg-bench's: the system message introduces the game
// and the task, the user message shows the position.
const (
	llmSystemIntro = "You are playing a two-player game. Here are its rules:\n\n"
	llmSystemTask  = "\n\nEach turn you will be shown the current state of the game and the list of moves that are " +
		"legal for you. Choose the best move. Moves are numbered as follows:\n\n"
	llmTurnMoves  = "\n\nYour legal moves: "
	llmTurnAnswer = "\n\nReply with the number of your move and nothing else."
)

// SystemPrompt is the system message of every turn.
func (p *LLMPlayer) SystemPrompt(g core.Game) string {
	actions := p.Actions
	if actions == "" {
		actions = fmt.Sprintf("Moves are numbers from 0 to %d; the list of legal moves names each one.", g.Info().NumActions-1)
	}
	rules := p.Rules
	if rules == "" {
		rules = g.Info().Rules
	}
	return llmSystemIntro + strings.TrimSpace(rules) + llmSystemTask + strings.TrimSpace(actions)
}

// TurnPrompt is the user message of a turn: the board, then the legal moves.
func (p *LLMPlayer) TurnPrompt(g core.Game, t core.Turn) (string, error) {
	board, err := g.Render(t.State)
	if err != nil {
		return "", err
	}
	var moves string
	if p.ShowLabels || p.Actions == "" {
		parts := make([]string, len(t.Legal))
		for i, a := range t.Legal {
			l, err := g.ActionLabel(t.State, a)
			if err != nil {
				return "", err
			}
			parts[i] = fmt.Sprintf("%d (%s)", a, l)
		}
		moves = strings.Join(parts, ", ")
	} else {
		parts := make([]string, len(t.Legal))
		for i, a := range t.Legal {
			parts[i] = strconv.Itoa(a)
		}
		moves = "[" + strings.Join(parts, ", ") + "]"
	}
	return board + llmTurnMoves + moves + llmTurnAnswer, nil
}

// ParseMove reads a reply as gg-bench does: only a reply made entirely of digits is a number
// (no sign, no spaces, no trailing newline, no words).
func ParseMove(reply string) (int, bool) {
	if reply == "" || len(reply) > 9 {
		return 0, false
	}
	for _, r := range reply {
		if !unicode.IsDigit(r) || r > unicode.MaxASCII {
			return 0, false
		}
	}
	n, err := strconv.Atoi(reply)
	return n, err == nil
}

// LLMMoveError is an LLM fault: no usable move in all attempts.
type LLMMoveError struct {
	Attempts int
	Replies  []string
	Err      error // the last transport error, if any
}

func (e *LLMMoveError) Error() string {
	last := ""
	if n := len(e.Replies); n > 0 {
		last = script.Clip(e.Replies[n-1], 80)
	}
	if e.Err != nil {
		return fmt.Sprintf("no legal move in %d attempts (last error: %v)", e.Attempts, e.Err)
	}
	return fmt.Sprintf("no legal move in %d attempts (last reply %q)", e.Attempts, last)
}

func (p *LLMPlayer) Act(ctx context.Context, g core.Game, t core.Turn, rng *rand.Rand) (int, error) {
	if len(t.Legal) == 1 {
		return t.Legal[0], nil
	}
	system := p.SystemPrompt(g)
	user, err := p.TurnPrompt(g, t)
	if err != nil {
		return 0, err
	}
	if p.MergeSystem {
		system, user = "", system+"\n\n"+user
	}
	retries := p.Retries
	if retries <= 0 {
		retries = DefaultRetries
	}
	// the seat's random source is seeded per game, so samples differ between games and plies
	// and a rerun asks the same samples again
	base := 0
	if rng != nil {
		base = int(rng.Uint32() >> 1)
	}
	merr := &LLMMoveError{}
	ask := user
	for attempt := 1; attempt <= retries; attempt++ {
		merr.Attempts = attempt
		reply, err := p.Ask.Ask(ctx, Query{System: system, User: ask, Sample: base + attempt - 1})
		if err != nil {
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			merr.Err = err
			continue
		}
		merr.Replies = append(merr.Replies, reply)
		text := reply
		if p.TrimReply {
			text = strings.TrimSpace(text)
		}
		a, ok := ParseMove(text)
		if ok {
			if _, legal := slices.BinarySearch(t.Legal, a); legal {
				return a, nil
			}
		}
		if p.Feedback {
			why := "was not a number"
			if ok {
				why = fmt.Sprintf("%d is not a legal move", a)
			}
			ask = user + fmt.Sprintf("\n\nYour previous reply %q %s. Reply with one of the legal move numbers only.", script.Clip(reply, 40), why)
		}
	}
	return 0, &core.Fault{Kind: core.FaultAgent, Msg: merr.Error(), Err: merr}
}

// EvalOptions configure an evaluation of a model against an opponent agent on one game.
type EvalOptions struct {
	Games    int   // default 30 (gg-bench's num_games_per_env)
	MaxPlies int   // default DefaultMaxPlies
	Seed     int64 // game k starts from Initial(Seed + k)
	// Progress, when set, is called after every game.
	Progress func(done, total int, r EvalGame)
	// Resume, when set, holds the games of an earlier run of the same evaluation (same game,
	// model, opponent and seed): they are counted as they are and play goes on from the next
	// game.
	Resume *EvalResult
	// Saved, when set, is given the result after every game (an error stops the evaluation):
	// what `duel eval --out` writes, so an interrupted run loses at most one game.
	Saved func(r *EvalResult) error
}

// EvalGame is one game of an evaluation.
type EvalGame struct {
	Index    int         `json:"index"`
	LLMFirst bool        `json:"llm_first"`
	Result   duel.Result `json:"result"`
	// Outcome from the model's point of view: "win", "loss", "draw", "llm-fault",
	// "agent-fault", "env-fault" or "truncated".
	Outcome string `json:"outcome"`
}

// EvalResult counts an evaluation's games as gg-bench stores them.
type EvalResult struct {
	Game        string     `json:"game"`
	Model       string     `json:"model"`
	Opponent    string     `json:"opponent"`
	Games       []EvalGame `json:"games"`
	LLMWins     int        `json:"llm_wins"`
	AgentWins   int        `json:"agent_wins"`
	Draws       int        `json:"draws"`
	LLMFaults   int        `json:"llm_faults"`
	AgentFaults int        `json:"agent_faults"`
	EnvFaults   int        `json:"env_faults"`
	Truncated   int        `json:"truncated"`
	TotalPlies  int        `json:"total_plies"`
	// Planned is the number of games asked for and Seed the first game's seed: a result with
	// fewer games is a run still going (or interrupted), which a rerun continues.
	Planned int   `json:"games_planned,omitempty"`
	Seed    int64 `json:"seed"`
	// Costs are what the model's requests cost, over every run that played these games.
	Costs *EvalCosts `json:"costs,omitempty"`
	// OpponentStrength says what the opponent is: its win rates against reference agents.
	OpponentStrength *learn.Strength `json:"opponent_strength,omitempty"`
}

// EvalCosts are the requests, tokens and price of an evaluation (gg-bench saves them after
// every game).
type EvalCosts struct {
	Requests  int     `json:"requests"`
	CacheHits int     `json:"cache_hits"`
	TokensIn  int     `json:"tokens_in"`
	TokensOut int     `json:"tokens_out"`
	Price     float64 `json:"price"`
}

// Plus is the sum of two cost records.
func (c EvalCosts) Plus(d EvalCosts) EvalCosts {
	return EvalCosts{Requests: c.Requests + d.Requests, CacheHits: c.CacheHits + d.CacheHits,
		TokensIn: c.TokensIn + d.TokensIn, TokensOut: c.TokensOut + d.TokensOut, Price: c.Price + d.Price}
}

// Complete reports whether every planned game was played.
func (r *EvalResult) Complete() bool { return r.Planned == 0 || len(r.Games) >= r.Planned }

// Evaluate plays the model against the opponent: Games games, the model moving first in the
// even-numbered ones (spec §10).
func Evaluate(ctx context.Context, g core.Game, model, opponent core.Agent, opts EvalOptions) (*EvalResult, error) {
	if opts.Games <= 0 {
		opts.Games = 30
	}
	r := &EvalResult{Game: g.Info().Name, Model: model.Name(), Opponent: opponent.Name(), Planned: opts.Games, Seed: opts.Seed}
	if prev := opts.Resume; prev != nil {
		if prev.Game != r.Game || prev.Model != r.Model || prev.Opponent != r.Opponent || prev.Seed != r.Seed {
			return r, fmt.Errorf("the earlier result is of %s vs %s on %s from seed %d, not of %s vs %s on %s from seed %d",
				prev.Model, prev.Opponent, prev.Game, prev.Seed, r.Model, r.Opponent, r.Game, r.Seed)
		}
		for _, eg := range prev.Games {
			if eg.Index != len(r.Games) || len(r.Games) >= opts.Games {
				break
			}
			llmSeat := 1
			if eg.LLMFirst {
				llmSeat = 0
			}
			eg.Outcome = r.add(eg.Result, llmSeat)
			r.Games = append(r.Games, eg)
		}
		r.Costs, r.OpponentStrength = prev.Costs, prev.OpponentStrength
	}
	for k := len(r.Games); k < opts.Games; k++ {
		llmSeat := k % 2
		seats := [2]core.Agent{model, opponent}
		if llmSeat == 1 {
			seats = [2]core.Agent{opponent, model}
		}
		res, err := duel.Play(ctx, g, seats, opts.Seed+int64(k), opts.MaxPlies, [2]*rand.Rand{duel.SeatRNG(opts.Seed, k, 0), duel.SeatRNG(opts.Seed, k, 1)})
		if err != nil {
			return r, err
		}
		eg := EvalGame{Index: k, LLMFirst: llmSeat == 0, Result: res, Outcome: r.add(res, llmSeat)}
		r.Games = append(r.Games, eg)
		if opts.Saved != nil {
			if err := opts.Saved(r); err != nil {
				return r, err
			}
		}
		if opts.Progress != nil {
			opts.Progress(k+1, opts.Games, eg)
		}
	}
	return r, nil
}

func (r *EvalResult) add(res duel.Result, llmSeat int) string {
	r.TotalPlies += res.Plies
	switch {
	case res.Fault != nil && res.FaultBy < 0:
		r.EnvFaults++
		return "env-fault"
	case res.Fault != nil && res.FaultBy == llmSeat:
		r.LLMFaults++
		return "llm-fault"
	case res.Fault != nil:
		r.AgentFaults++
		return "agent-fault"
	case res.Truncated:
		r.Truncated++
		return "truncated"
	case res.Outcome == core.Draw:
		r.Draws++
		return "draw"
	case res.Outcome.Winner() == llmSeat:
		r.LLMWins++
		return "win"
	default:
		r.AgentWins++
		return "loss"
	}
}

// WinRate is gg-bench's per-game score (spec §11): LLM wins over wins + losses + draws, where
// env faults and games stopped by the ply cap count as draws (gg-bench turned both into
// 0-reward games) and the faults of either player are left out. ok is false when every game was
// a player fault; gg-bench drops such games.
func (r *EvalResult) WinRate() (rate float64, ok bool) {
	den := r.LLMWins + r.AgentWins + r.Draws + r.EnvFaults + r.Truncated
	if den == 0 {
		return 0, false
	}
	return float64(r.LLMWins) / float64(den), true
}

// StrictWinRate is the strict variant of spec §15.1: the model's faults count as losses, the
// agent's as wins for the model, and env faults are left out (the game's fault, not a result);
// cap-stopped games are draws.
func (r *EvalResult) StrictWinRate() (rate float64, ok bool) {
	den := r.LLMWins + r.AgentWins + r.Draws + r.Truncated + r.LLMFaults + r.AgentFaults
	if den == 0 {
		return 0, false
	}
	return float64(r.LLMWins+r.AgentFaults) / float64(den), true
}

// MeanPlies is the average game length.
func (r *EvalResult) MeanPlies() float64 {
	if len(r.Games) == 0 {
		return 0
	}
	return float64(r.TotalPlies) / float64(len(r.Games))
}

// BenchScore is a benchmark score over games: the mean of the per-game rates and the half
// width of its 95% interval, 1.96 s / sqrt(n) with s the sample standard deviation (spec §11).
type BenchScore struct {
	Mean, CI95 float64
	N          int
}

func (s BenchScore) String() string {
	return fmt.Sprintf("%.2f ± %.2f over %d games", 100*s.Mean, 100*s.CI95, s.N)
}

// Score aggregates per-game results into the benchmark score, gg-bench's or the strict one.
func Score(results []*EvalResult, strict bool) (BenchScore, error) {
	var rates []float64
	for _, r := range results {
		rate, ok := r.WinRate()
		if strict {
			rate, ok = r.StrictWinRate()
		}
		if ok {
			rates = append(rates, rate)
		}
	}
	if len(rates) == 0 {
		return BenchScore{}, errors.New("no game has a score")
	}
	mean := 0.0
	for _, x := range rates {
		mean += x
	}
	mean /= float64(len(rates))
	s := BenchScore{Mean: mean, N: len(rates)}
	if len(rates) > 1 {
		ss := 0.0
		for _, x := range rates {
			ss += (x - mean) * (x - mean)
		}
		s.CI95 = 1.96 * math.Sqrt(ss/float64(len(rates)-1)) / math.Sqrt(float64(len(rates)))
	}
	return s, nil
}

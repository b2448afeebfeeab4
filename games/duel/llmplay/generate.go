package llmplay

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"pcgwb/games/duel"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"pcgwb/games/duel/validate"
	"regexp"
	"strings"
	"time"

	"pcgwb/assets"
)

// The generation pipeline of gg-bench (spec §3-§5), with Starlark in place of Python and the
// repair loop of spec §15.3: a model writes a rulebook, implements it against the game contract,
// the implementation is validated, and any rejection is sent back with the sandbox's error
// until the game passes or the repairs run out; finally the model explains the action indices.

// DefaultGenre is the genre gg-bench's run used ("game"; card, word, number and abstract
// strategy games were prepared but not used).
const DefaultGenre = "game"

// Generator drives a model through the pipeline.
type Generator struct {
	Ask Asker
	// Genre fills the rulebook prompt's slot (default "game").
	Genre string
	// MaxRepairs is how many times a rejected implementation is sent back (default 3).
	MaxRepairs int
	// Validate configures the filters an implementation must pass.
	Validate validate.Options
	// Example is the worked example shown with the contract (default: the built-in
	// tic-tac-toe).
	Example string
	// Sandbox, when set, runs every implementation in a worker of this pool (validation and
	// the log for the repair prompt); nil runs them in this process.
	Sandbox *sandbox.Pool
	// ValidateBudget is the CPU time a sandboxed validation may use (default
	// DefaultValidationBudget).
	ValidateBudget time.Duration
	// OnAccepted, when set, is called with each accepted game as soon as it is accepted (the
	// CLI writes it to disk then, so a later hostile game cannot lose it).
	OnAccepted func(*Generated) error
	// Sample is passed with every query; give each game generated from the same prompt its own
	// (gg-bench asked the identical rulebook prompt 1000 times).
	Sample int
}

// Attempt is one implementation and its validation report.
type Attempt struct {
	Source string          `json:"source"`
	Report validate.Report `json:"report"`
}

// Generated is a game made by the pipeline.
type Generated struct {
	Name       string    `json:"name"`
	Rulebook   string    `json:"rulebook"`
	Source     string    `json:"source"`
	ActionText string    `json:"action_text"`
	Accepted   bool      `json:"accepted"`
	Attempts   []Attempt `json:"attempts"`
}

// RulebookPrompt asks for a new game's rulebook (a paraphrase of gg-bench's stage A prompt).
func RulebookPrompt(genre string) string {
	if genre == "" {
		genre = DefaultGenre
	}
	return "Invent a new " + genre + ` for two players who take turns, meant to be played in a text terminal.
Requirements: it must be easy to program; it must not be able to end in a draw; games must be
short; a skilled player should beat an unskilled one consistently; and it must be original, not a
variant of well-known games such as Go, Nim, Tic-Tac-Toe or Chess.

Write the game's rulebook with these sections:
1. Objective: the goal, how a player wins, what counts as a win or a loss.
2. Setup: the starting layout, positions and conditions.
3. Game Components: the pieces, tokens, boards or cards, how they look and what they do.
4. Turns: how a turn is structured, the order of actions, how play passes on.
5. Rules and Mechanics: how moves work, how pieces interact, any special mechanics.
6. Scoring: how points are kept, if any, and how they decide the winner.
7. Examples: sample situations and a sample exchange in the terminal.

Make the rulebook clear, well organised and complete, while keeping the game strategically deep.`
}

// contractText describes the Starlark contract for the implementation and repair prompts.
const contractText = `Implement the game as a Starlark module (Starlark is a small dialect of Python: no classes,
no imports, no try/except, no while loops, no recursion, and a global name cannot be assigned
twice; use for loops over range(), lists, dicts and tuples; there is no load() and no access to
files, time or randomness). The module must define, at top level:

- NUM_ACTIONS: the number of possible actions (an int, at most 512); actions are 0..NUM_ACTIONS-1.
- OBS_SIZE: the length of the observation vector (an int).
- TITLE and RULES (optional): the game's name and a short statement of its rules.
- initial_state(seed): the starting state, built from ints, strings, lists, dicts and tuples
  only. Any chance in the game must be derived from the int seed.
- to_move(state): the player to move, 0 or 1 (player 0 moves first).
- legal_actions(state): the sorted list of legal actions. It must never be empty while the game
  is still going: if a player has to pass, make passing an explicit action.
- apply(state, action): the state after the player to move plays a legal action. Return a NEW
  state: the input state is frozen and cannot be changed (copy lists with list(x), dicts with
  dict(x)).
- outcome(state): None while the game goes on, otherwise the winner, 0 or 1, or "draw".
- observe(state, player): a flat list of OBS_SIZE numbers describing the state from player's
  point of view.
- render(state): the state as a non-empty string, which is what players see.
- action_label(state, action): a few words naming the action in this state, different for
  every legal action.

The harness rejects illegal moves itself, asks to_move who plays next (it does not alternate
players on its own), stops any game after 100 moves, and gives each call a budget of one
million steps. Prefer computing the
winner inside apply and storing it in the state, so that outcome() is cheap. String formatting
supports %d, %s and %r without widths; sum() is available.`

// ImplementPrompt asks for an implementation of a rulebook (gg-bench's stage B with the
// Starlark contract of spec §15.2 in place of a Gym environment).
func ImplementPrompt(rulebook, example string) string {
	return "Here is the rulebook of a two-player game:\n\n" + strings.TrimSpace(rulebook) + "\n\n" + contractText +
		"\n\nAs an example of the format, here is a complete implementation of tic-tac-toe:\n\n```python\n" +
		strings.TrimSpace(example) + "\n```\n\nWrite the complete implementation of the game above in one ```python code block. " +
		"It must run as it is: no placeholders, no TODOs, no test code."
}

// RepairPrompt sends a rejected implementation back with the reason.
func RepairPrompt(rulebook, source string, rep validate.Report, log string) string {
	var b strings.Builder
	b.WriteString("Here is the rulebook of a two-player game:\n\n" + strings.TrimSpace(rulebook) + "\n\n")
	b.WriteString(contractText)
	b.WriteString("\n\nThis implementation was rejected:\n\n```python\n" + strings.TrimSpace(source) + "\n```\n\n")
	fmt.Fprintf(&b, "It failed the %q check: %s\n", rep.Rejected, rep.Reason)
	if log = strings.TrimSpace(log); log != "" {
		b.WriteString("\nIt printed:\n" + script.Clip(log, 2000) + "\n")
	}
	b.WriteString("\nFix the problem and reply with the complete corrected implementation in one ```python code block.")
	return b.String()
}

// ActionTextPrompt asks for the explanation of action indices (gg-bench's stage C).
func ActionTextPrompt(rulebook, source string) string {
	return "Here is the rulebook of a two-player game:\n\n" + strings.TrimSpace(rulebook) +
		"\n\nand its implementation:\n\n```python\n" + strings.TrimSpace(source) + "\n```\n\n" +
		"Explain briefly, without any introduction and without repeating yourself, how the action indices map to moves in the game."
}

var fence = regexp.MustCompile("(?s)```[a-zA-Z]*[ \t]*\r?\n(.*?)```")

// ExtractCode joins the fenced code blocks of a reply (gg-bench joined every python block);
// ok is false when there is none.
func ExtractCode(reply string) (string, bool) {
	var parts []string
	for _, m := range fence.FindAllStringSubmatch(reply, -1) {
		parts = append(parts, strings.TrimRight(m[1], " \t\r\n"))
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, "\n\n") + "\n", true
}

func (gen *Generator) ask(ctx context.Context, user string) (string, error) {
	if gen.Ask == nil {
		return "", errors.New("duel: the generator has no model")
	}
	return gen.Ask.Ask(ctx, Query{User: user, Sample: gen.Sample})
}

// Rulebook asks the model for a new game's rulebook.
func (gen *Generator) Rulebook(ctx context.Context) (string, error) {
	reply, err := gen.ask(ctx, RulebookPrompt(gen.Genre))
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(reply) == "" {
		return "", errors.New("the model wrote an empty rulebook")
	}
	return strings.TrimSpace(reply), nil
}

func (gen *Generator) example() string {
	if gen.Example != "" {
		return gen.Example
	}
	src, err := assets.GameSource("tic-tac-toe")
	if err != nil {
		panic(err) // embedded
	}
	return string(src)
}

// Implement turns a rulebook into a validated implementation, repairing rejected ones; the
// result holds every attempt. The action text is asked for once a version passes.
func (gen *Generator) Implement(ctx context.Context, name, rulebook string) (*Generated, error) {
	out := &Generated{Name: name, Rulebook: rulebook}
	repairs := gen.MaxRepairs
	if repairs <= 0 {
		repairs = 3
	}
	prompt := ImplementPrompt(rulebook, gen.example())
	for attempt := 0; attempt <= repairs; attempt++ {
		reply, err := gen.ask(ctx, prompt)
		if err != nil {
			return out, err
		}
		src, ok := ExtractCode(reply)
		var rep validate.Report
		log := ""
		if !ok {
			rep = validate.Report{Game: name, Rejected: validate.FilterLoad, Reason: "the reply has no fenced code block"}
			src = reply
		} else {
			if gen.Sandbox != nil {
				rep = validate.Sandboxed(ctx, gen.Sandbox, name, []byte(src), gen.Validate, gen.ValidateBudget)
			} else {
				rep = validate.Source(ctx, name, []byte(src), gen.Validate)
			}
			if !rep.Passed && ctx.Err() == nil {
				log = gen.scriptLog(ctx, name, src)
			}
		}
		out.Attempts = append(out.Attempts, Attempt{Source: src, Report: rep})
		out.Source = src
		if rep.Passed {
			out.Accepted = true
			text, err := gen.ask(ctx, ActionTextPrompt(rulebook, src))
			if err != nil {
				return out, err
			}
			out.ActionText = strings.TrimSpace(text)
			if gen.OnAccepted != nil {
				if err := gen.OnAccepted(out); err != nil {
					return out, err
				}
			}
			return out, nil
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		prompt = RepairPrompt(rulebook, src, rep, log)
	}
	return out, nil
}

// scriptLog is what the script prints while it starts and plays its first moves, for the
// repair prompt.
func (gen *Generator) scriptLog(ctx context.Context, name, src string) string {
	var g interface {
		core.Game
		Log() string
		Close()
	}
	var err error
	if gen.Sandbox != nil {
		call := gen.Validate.Limits.WithDefaults().CallTime
		g, err = gen.Sandbox.Open(ctx, name, []byte(src), sandbox.SandboxOptions{Limits: gen.Validate.Limits,
			Budgets: sandbox.Budgets{Call: call, Move: 2 * call, Game: 4 * call}})
	} else {
		g, err = script.Load(name, []byte(src), gen.Validate.Limits)
	}
	if err != nil {
		return ""
	}
	defer g.Close()
	if s, err := g.Initial(0); err == nil {
		if legal, err := g.Legal(s); err == nil && len(legal) > 0 {
			g.Apply(s, legal[0])
		}
	}
	return g.Log()
}

// Generate runs the whole pipeline for one new game.
func (gen *Generator) Generate(ctx context.Context, name string) (*Generated, error) {
	rb, err := gen.Rulebook(ctx)
	if err != nil {
		return nil, err
	}
	return gen.Implement(ctx, name, rb)
}

// Fingerprint summarises how a game behaves, for finding near-duplicates among generated games
// (gg-bench's set has many: at least ten "subtract a divisor" games, spec §13): the sizes of its
// spaces, and the set of (ply, legal moves, result) events seen in seeded random playouts. Two games with the same rules produce the same events whatever their text, names or
// layout.
type Fingerprint struct {
	NumActions, ObsSize int
	events              map[uint64]struct{}
}

// FingerprintOf plays the given number of seeded random playouts (default 30).
func FingerprintOf(ctx context.Context, g core.Game, playouts int) (*Fingerprint, error) {
	if playouts <= 0 {
		playouts = 30
	}
	info := g.Info()
	fp := &Fingerprint{NumActions: info.NumActions, ObsSize: info.ObsSize, events: map[uint64]struct{}{}}
	h := fnv.New64a()
	for k := 0; k < playouts; k++ {
		sess, err := duel.NewSession(g, int64(k), 0)
		if err != nil {
			return nil, err
		}
		rng := duel.SeatRNG(int64(k), k, 0)
		var legals [][]int
		var end core.Outcome
		for {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			o, trunc, err := sess.Status()
			if err != nil {
				return nil, err
			}
			if o.Done() || trunc {
				end = o
				break
			}
			t, err := sess.Turn()
			if err != nil {
				return nil, err
			}
			legals = append(legals, t.Legal)
			if err := sess.Play(t.Legal[rng.IntN(len(t.Legal))]); err != nil {
				return nil, err
			}
		}
		// every event carries the playout's result, so games that play alike but score
		// differently (nim and misere nim) do not look alike
		for ply, legal := range legals {
			h.Reset()
			fmt.Fprintf(h, "%d|%v|%d", ply, legal, end)
			fp.events[h.Sum64()] = struct{}{}
		}
		h.Reset()
		fmt.Fprintf(h, "end|%d|%d", len(legals), end)
		fp.events[h.Sum64()] = struct{}{}
	}
	return fp, nil
}

// Similarity is the Jaccard similarity of two fingerprints' events, 0 for games with different
// action or observation sizes.
func Similarity(a, b *Fingerprint) float64 {
	if a.NumActions != b.NumActions || a.ObsSize != b.ObsSize {
		return 0
	}
	return jaccard(a.events, b.events)
}

func jaccard(a, b map[uint64]struct{}) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	common := 0
	for k := range a {
		if _, ok := b[k]; ok {
			common++
		}
	}
	return float64(common) / float64(len(a)+len(b)-common)
}

var tokenRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*|[0-9]+|"[^"\n]*"|'[^'\n]*'|\S`)

// SourceSimilarity compares two scripts' code, ignoring comments, string contents and the
// names chosen for variables: the Jaccard similarity of their 4-token shingles.
func SourceSimilarity(a, b string) float64 {
	return jaccard(shingles(a), shingles(b))
}

var keywords = map[string]bool{"def": true, "return": true, "for": true, "in": true, "if": true, "elif": true,
	"else": true, "and": true, "or": true, "not": true, "None": true, "True": true, "False": true,
	"lambda": true, "pass": true, "break": true, "continue": true}

func shingles(src string) map[uint64]struct{} {
	var toks []string
	for _, line := range strings.Split(src, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 && !strings.ContainsAny(line[:i], `"'`) {
			line = line[:i]
		}
		for _, t := range tokenRE.FindAllString(line, -1) {
			switch c := t[0]; {
			case c == '"' || c == '\'':
				t = "STR"
			case c >= '0' && c <= '9':
			case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
				if !keywords[t] && !contractName(t) {
					t = "ID"
				}
			}
			toks = append(toks, t)
		}
	}
	out := map[uint64]struct{}{}
	h := fnv.New64a()
	for i := 0; i+4 <= len(toks); i++ {
		h.Reset()
		h.Write([]byte(strings.Join(toks[i:i+4], " ")))
		out[h.Sum64()] = struct{}{}
	}
	return out
}

func contractName(s string) bool { return script.IsContractFunc(s) }

// Dedup keeps the first of every group of near-identical games: a game is dropped when its
// behaviour (or, when sources are given, its code) is at least threshold similar to a game kept
// before it (default 0.9). It returns the indices kept.
func Dedup(fps []*Fingerprint, sources []string, threshold float64) []int {
	if threshold <= 0 {
		threshold = 0.9
	}
	var kept []int
next:
	for i, fp := range fps {
		for _, j := range kept {
			if Similarity(fp, fps[j]) >= threshold {
				continue next
			}
			if len(sources) == len(fps) && SourceSimilarity(sources[i], sources[j]) >= threshold {
				continue next
			}
		}
		kept = append(kept, i)
	}
	return kept
}

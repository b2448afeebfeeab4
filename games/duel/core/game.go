package core

import (
	"errors"
	"fmt"
)

// State is one position of a game. It is immutable: Apply returns a new State and never
// changes the one it was given, so a search tree can share states freely. For script games it
// holds a frozen Starlark value.
type State any

// Outcome is the result of a position: still ongoing, won by one player, or drawn.
type Outcome uint8

const (
	Ongoing Outcome = iota
	FirstWins
	SecondWins
	Draw
)

// WinFor is the outcome in which player p (0 or 1) has won.
func WinFor(p int) Outcome {
	if p == 0 {
		return FirstWins
	}
	return SecondWins
}

// Done reports whether the game is over.
func (o Outcome) Done() bool { return o != Ongoing }

// Winner is 0 or 1 for a decided game and -1 for a draw or an ongoing game.
func (o Outcome) Winner() int {
	switch o {
	case FirstWins:
		return 0
	case SecondWins:
		return 1
	}
	return -1
}

// Reward is the harness's reward for player p at a finished position: +1 win, -1 loss, 0 draw.
func (o Outcome) Reward(p int) float64 {
	switch w := o.Winner(); {
	case w < 0:
		return 0
	case w == p:
		return 1
	default:
		return -1
	}
}

func (o Outcome) String() string {
	switch o {
	case Ongoing:
		return "ongoing"
	case FirstWins:
		return "Player 1 wins"
	case SecondWins:
		return "Player 2 wins"
	case Draw:
		return "draw"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// Info describes a game: its name, its rules for people and language models, and the sizes
// the contract fixes.
type Info struct {
	Name       string `json:"name"`
	Title      string `json:"title,omitempty"`
	Rules      string `json:"rules,omitempty"`
	NumActions int    `json:"num_actions"`
	ObsSize    int    `json:"obs_size"`
	// Players are the rulebook's names of the first and second player (PLAYERS in a script),
	// or empty: PlayerName then says "Player 1" and "Player 2".
	Players [2]string `json:"players,omitzero"`
}

// PlayerName is how text shown to people names player p (0 or 1): the rulebook's name, or
// "Player 1" for the first mover and "Player 2" for the second, as rulebooks count.
func (i Info) PlayerName(p int) string {
	if p == 0 || p == 1 {
		if i.Players[p] != "" {
			return i.Players[p]
		}
		return fmt.Sprintf("Player %d", p+1)
	}
	return fmt.Sprintf("Player %d", p+1)
}

// OutcomeText says o in the rulebook's names ("White wins", "Player 2 wins", "draw").
func (i Info) OutcomeText(o Outcome) string {
	if w := o.Winner(); w >= 0 {
		return i.PlayerName(w) + " wins"
	}
	return o.String()
}

// Game is the contract every game fulfils (gg-bench §15.2 in Go form). Players are 0 and 1;
// actions are ints in [0, NumActions). Implementations need not be safe for concurrent use:
// make one instance per goroutine (ScriptGame.Clone), while States may be shared.
type Game interface {
	Info() Info
	// Initial is the starting position; any chance in the game comes only from seed.
	Initial(seed int64) (State, error)
	// ToMove is the player to act, 0 or 1.
	ToMove(s State) (int, error)
	// Legal is the sorted, duplicate-free list of legal actions; never empty while the game is
	// ongoing, and ignored once it is over.
	Legal(s State) ([]int, error)
	// Apply plays a legal action and returns the new position.
	Apply(s State, action int) (State, error)
	// Outcome reports whether the game is over and who won.
	Outcome(s State) (Outcome, error)
	// Observe is a flat vector of ObsSize numbers describing s from player's point of view.
	Observe(s State, player int) ([]float64, error)
	// Render is the position as text, what people and language models see.
	Render(s State) (string, error)
	// ActionLabel names a move in s in a few words.
	ActionLabel(s State, action int) (string, error)
}

// FaultKind says what went wrong when a game or an agent failed.
type FaultKind string

const (
	// FaultLoad: the script does not parse, resolve, initialise, or lacks a required name.
	FaultLoad FaultKind = "load"
	// FaultScript: the script raised an error (fail(), a type error, a frozen-value mutation).
	FaultScript FaultKind = "script"
	// FaultContract: a function returned a value of the wrong kind (an unsorted legal list, an
	// action out of range, a short observation, an empty render, an empty legal list while the
	// game is ongoing, ...).
	FaultContract FaultKind = "contract"
	// FaultSteps: a call exceeded its Starlark execution-step budget.
	FaultSteps FaultKind = "steps"
	// FaultTimeout: a call exceeded its wall-time budget.
	FaultTimeout FaultKind = "timeout"
	// FaultMemory: a call tried to allocate more than the sandbox allows.
	FaultMemory FaultKind = "memory"
	// FaultPanic: Go code under the script panicked; the panic was recovered.
	FaultPanic FaultKind = "panic"
	// FaultIllegal: an agent chose a move that is not in the legal list.
	FaultIllegal FaultKind = "illegal"
	// FaultAgent: an agent failed for its own reasons (an LLM that never answered a number).
	FaultAgent FaultKind = "agent"
)

// Fault is an error raised while running a game, classified by kind. Func names the contract
// function that was running, when one was.
type Fault struct {
	Kind FaultKind `json:"kind"`
	Func string    `json:"func,omitempty"`
	Msg  string    `json:"message"`
	Err  error     `json:"-"`
}

func (f *Fault) Error() string {
	s := string(f.Kind) + " fault"
	if f.Func != "" {
		s += " in " + f.Func
	}
	if f.Msg != "" {
		s += ": " + Printable(f.Msg) // the message may quote the script: no terminal controls
	}
	return s
}

func (f *Fault) Unwrap() error { return f.Err }

// FaultOf returns the Fault in err's chain, or nil.
func FaultOf(err error) *Fault {
	var f *Fault
	if errors.As(err, &f) {
		return f
	}
	return nil
}

// Contractf is a contract fault of the script function fn (a value of the wrong type, an
// impossible answer), with its message formatted as fmt.Sprintf does.
func Contractf(fn, format string, a ...any) *Fault {
	return &Fault{Kind: FaultContract, Func: fn, Msg: fmt.Sprintf(format, a...)}
}

package play

import (
	"errors"
	"fmt"

	"pcgwb/problems"
)

// Checker is a game that can say, before any move, what is wrong with its level when it
// cannot be played (no hidden word, no key, crates that cannot pair with targets).
type Checker interface {
	// Unplayable is the reason, or "" for a level that can be played.
	Unplayable() string
}

// ErrUnplayable is matched (errors.Is) by every error Unplayable and Check return.
var ErrUnplayable = errors.New("this level cannot be played")

// UnplayableError says what is wrong with a level.
type UnplayableError struct{ Reason string }

func (e *UnplayableError) Error() string { return ErrUnplayable.Error() + ": " + e.Reason }

// Is makes errors.Is(err, ErrUnplayable) hold.
func (e *UnplayableError) Is(target error) bool { return target == ErrUnplayable }

// Unplayable is the one "can this level be played" check of the play windows, Watch and
// playtests: nil for a level a person can play, else an *UnplayableError saying what is wrong
// with it (its game cannot be made, the game's own check fails, or it is already won or lost
// before the first move). A problem with no play view gives ErrNoPlayView (wrapped) instead.
func Unplayable(name string, p problems.Problem, content problems.Content) error {
	g, err := New(name, p, content)
	if err != nil {
		if errors.Is(err, ErrNoPlayView) {
			return err
		}
		return &UnplayableError{Reason: err.Error()}
	}
	return Check(g)
}

// Check is Unplayable for a game already made and not yet played.
func Check(g Game) error {
	if c, ok := g.(Checker); ok {
		if r := c.Unplayable(); r != "" {
			return &UnplayableError{Reason: r}
		}
	}
	switch g.Status() {
	case Won:
		return &UnplayableError{Reason: "it is won before the first move: there is nothing to do"}
	case Lost:
		reason := "it is lost before the first move"
		if b, ok := g.(Bannered); ok {
			reason = fmt.Sprintf("it is lost before the first move (%s)", b.Banner())
		}
		return &UnplayableError{Reason: reason}
	}
	return nil
}

// Mover is a game that counts its own moves (the number its HUD shows: steps taken, crates
// pushed or not, words tried); an Outcome's Moves is that number. For other games the session
// counts the key presses that changed the game's state.
type Mover interface {
	Moves() int
}

// HumanTimeFactor is how much longer a person gets than the benchmark's agent on a Mario level:
// the Mario AI Framework's PlayLevel gives a person 200 s on the level its agent runs with 20 s.
// The problem's timer is the agent's (ceil(width/10) s), so a person's time grows with the
// level's length: width seconds.
const HumanTimeFactor = 10

// tally is one kind of tile a level needs exactly one of.
type tally struct {
	what string // singular noun: "player"
	n    int
}

// exactlyOne is the reason a level breaks the benchmark's rule of exactly one of each tally
// ("it has 2 players; a level needs exactly one"), or "".
func exactlyOne(ts ...tally) string {
	for _, t := range ts {
		switch {
		case t.n == 0:
			return fmt.Sprintf("it has no %s; a level needs exactly one", t.what)
		case t.n > 1:
			return fmt.Sprintf("it has %d %ss; a level needs exactly one", t.n, t.what)
		}
	}
	return ""
}

package play

import (
	"errors"
	"fmt"

	"pcgwb/problems"
)

// Factory makes the game of one content of a problem (a member of its content space, as
// problems.DecodeItems or the space's Normalize gives it).
type Factory func(p problems.Problem, content problems.Content) (Game, error)

// ErrNoPlayView is returned (wrapped) by New for a problem that has no play view.
var ErrNoPlayView = errors.New("has no play view yet")

// views are the play views by problem family (problems.Family).
var views = problems.NewFamilyTable[Factory]("play view")

// Register adds the play view of a problem family: every registered problem whose
// problems.FamilyOf is family ("sokoban" covers sokoban-v0 and sokoban-large-v0). Each game
// registers itself from its own file's init, so the list of playable problems is open.
// Registering a family twice panics (a programming error).
func Register(family problems.Family, f Factory) { views.Register(family, f) }

// registerTyped registers a factory that needs the problem's concrete type; any other type
// under the family's name is ErrNoPlayView.
func registerTyped[P problems.Problem](family problems.Family, f func(P, problems.Content) (Game, error)) {
	Register(family, func(p problems.Problem, c problems.Content) (Game, error) {
		tp, ok := p.(P)
		if !ok {
			return nil, fmt.Errorf("%s (%T) %w", family, p, ErrNoPlayView)
		}
		return f(tp, c)
	})
}

func lookup(name string) (Factory, bool) { return views.Of(name) }

// New makes the game of a content of the problem registered as name (p is that problem).
func New(name string, p problems.Problem, content problems.Content) (Game, error) {
	f, ok := lookup(name)
	if !ok {
		return nil, fmt.Errorf("%s %w", name, ErrNoPlayView)
	}
	return f(p, content)
}

// Playable reports whether the problem registered as name has a play view.
func Playable(name string) bool {
	_, ok := lookup(name)
	return ok
}

// Families lists the families with a play view, sorted.
func Families() []problems.Family { return views.Families() }

package play

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"pcgwb/problems"
)

// Factory makes the game of one content of a problem (a member of its content space, as
// problems.DecodeItems or the space's Normalize gives it).
type Factory func(p problems.Problem, content problems.Content) (Game, error)

// ErrNoPlayView is returned (wrapped) by New for a problem that has no play view.
var ErrNoPlayView = errors.New("has no play view yet")

var (
	regMu     sync.RWMutex
	factories = map[string]Factory{}
)

// Register adds the play view of a problem family: every registered problem whose name is
// family or starts with family+"-" ("sokoban" covers sokoban-v0 and sokoban-large-v0). Each
// game registers itself from its own file's init, so the list of playable problems is open.
// Registering a family twice panics (a programming error).
func Register(family string, f Factory) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, ok := factories[family]; ok {
		panic(fmt.Sprintf("play: %q registered twice", family))
	}
	factories[family] = f
}

// registerTyped registers a factory that needs the problem's concrete type; any other type
// under the family's name is ErrNoPlayView.
func registerTyped[P problems.Problem](family string, f func(P, problems.Content) (Game, error)) {
	Register(family, func(p problems.Problem, c problems.Content) (Game, error) {
		tp, ok := p.(P)
		if !ok {
			return nil, fmt.Errorf("%s (%T) %w", family, p, ErrNoPlayView)
		}
		return f(tp, c)
	})
}

// Family is the family part of a problem name: "sokoban" for "sokoban-large-v0".
func Family(name string) string {
	if i := strings.IndexByte(name, '-'); i >= 0 {
		return name[:i]
	}
	return name
}

func lookup(name string) (Factory, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	f, ok := factories[Family(name)]
	return f, ok
}

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

// Families lists the registered play views, sorted.
func Families() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]string, 0, len(factories))
	for f := range factories {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

package play

import (
	"fmt"
	"image"
	"strings"

	"pcgwb/problems"
	"pcgwb/problems/shape"
	"pcgwb/problems/sokoban"
	"pcgwb/problems/solver"
)

func init() {
	registerTyped("sokoban", newSokoban)
}

// sokobanGame plays the problem's engine (State.Move). The engine has no losing state; a crate
// pushed onto one of the engine's deadlock cells (a corner or a wall run without a target,
// where the agents prune) can never reach a target again, so that loses — and undo takes it
// back.
type sokobanGame struct {
	start    sokoban.State
	cur      sokoban.State
	history  []sokobanMove
	moves    int
	pushes   int
	solution []solver.Dir
	// players, crates and targets are the level's counts (the info's).
	players, crates, targets int
}

type sokobanMove struct {
	state         sokoban.State
	moves, pushes int
}

func newSokoban(p *sokoban.Sokoban, c problems.Content) (Game, error) {
	g, err := shape.GridFromContent(c)
	if err != nil {
		return nil, err
	}
	start, err := sokoban.NewGame(g)
	if err != nil {
		return nil, err
	}
	info, err := p.Info(c)
	if err != nil {
		return nil, err
	}
	in := info.(*sokoban.Info)
	s := &sokobanGame{start: start, solution: in.Solution, players: in.Players, crates: in.Crates, targets: in.Targets}
	s.Reset()
	return s, nil
}

func (s *sokobanGame) Reset() {
	s.cur, s.history, s.moves, s.pushes = s.start, nil, 0, 0
}

func (s *sokobanGame) Input(k Key) {
	dx, dy, ok := arrow(k)
	if !ok || s.Status() != Running {
		return
	}
	next := s.cur
	moved, pushed := next.Move(solver.Dir{X: dx, Y: dy})
	if !moved {
		return
	}
	s.history = append(s.history, sokobanMove{s.cur, s.moves, s.pushes})
	s.cur = next
	s.moves++
	if pushed {
		s.pushes++
	}
}

func (s *sokobanGame) Undo() bool {
	if len(s.history) == 0 {
		return false
	}
	last := s.history[len(s.history)-1]
	s.history = s.history[:len(s.history)-1]
	s.cur, s.moves, s.pushes = last.state, last.moves, last.pushes
	return true
}

func (s *sokobanGame) Update() {}

func (s *sokobanGame) stuck() bool {
	l := s.cur.Level()
	for _, c := range s.cur.Crates() {
		if l.Deadlock(c.X, c.Y) {
			return true
		}
	}
	return false
}

func (s *sokobanGame) Status() Status {
	switch {
	case s.cur.Win():
		return Won
	case s.stuck():
		return Lost
	}
	return Running
}

func (s *sokobanGame) Banner() string {
	if s.Status() == Lost {
		return "STUCK - U UNDO"
	}
	return "SOLVED"
}

func (s *sokobanGame) Board() image.Image { return sokoban.RenderState(s.cur) }

func (s *sokobanGame) onTarget() (int, int) {
	l := s.cur.Level()
	n, crates := 0, s.cur.Crates()
	for _, c := range crates {
		if l.Target(c.X, c.Y) {
			n++
		}
	}
	return n, len(crates)
}

func (s *sokobanGame) HUD() string {
	n, total := s.onTarget()
	return fmt.Sprintf("moves %d  pushes %d  crates on targets %d/%d", s.moves, s.pushes, n, total)
}

func (s *sokobanGame) Unplayable() string {
	switch {
	case s.players != 1:
		return exactlyOne(tally{"player", s.players})
	case s.crates == 0:
		return "it has no crate: there is nothing to push"
	case s.crates != s.targets:
		return fmt.Sprintf("it has %d crates for %d targets; every crate needs a target", s.crates, s.targets)
	case s.stuck():
		return "a crate starts in a corner or along a wall without a target, where it can never reach one"
	}
	return ""
}

// Moves is the HUD's count: steps taken (pushes included), less those taken back.
func (s *sokobanGame) Moves() int { return s.moves }

func (s *sokobanGame) Controls() string { return "arrows walk and push" }

// Text: # wall, . floor, t target, c crate, C crate on a target, @ player, + player on a target.
func (s *sokobanGame) Text() string {
	l := s.cur.Level()
	p := s.cur.Player()
	var b strings.Builder
	for y := 1; y < l.H-1; y++ {
		for x := 1; x < l.W-1; x++ {
			c := byte('.')
			switch {
			case l.Solid(x, y):
				c = '#'
			case s.cur.CrateAt(x, y) && l.Target(x, y):
				c = 'C'
			case s.cur.CrateAt(x, y):
				c = 'c'
			case p.X == x && p.Y == y && l.Target(x, y):
				c = '+'
			case p.X == x && p.Y == y:
				c = '@'
			case l.Target(x, y):
				c = 't'
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (s *sokobanGame) Solution() []Key { return dirKeys(s.solution) }

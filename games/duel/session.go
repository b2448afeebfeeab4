package duel

import (
	"context"
	"fmt"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"slices"
)

// The seeding rule of agents' moves, the one rule of the package: every move an agent makes is
// searched with a fresh random source made by core.MoveRNG from one 64-bit move seed. In a game
// between agents (Play) the move seed is drawn from the seat's random source (SeatRNG); in a
// Session it is SessionMoveSeed(session seed, ply). Whether the agent runs in this process or
// in a sandbox worker, the same seed gives the same move.

// SessionMoveSeed is the move seed of the agent's move at ply in a session started from seed.
func SessionMoveSeed(seed int64, ply int) uint64 {
	return SeatRNG(seed, ply, 0).Uint64()
}

// remoteActor is a game whose agent moves can run where the game runs (a sandboxed game:
// sandbox.Remote runs them in its worker).
type remoteActor interface {
	RunAgent(ctx context.Context, agent string, spec []byte, t core.Turn, seed uint64) (int, error)
}

// stateReleaser is a game that holds its states elsewhere and is told when one is dropped
// (sandbox.Remote).
type stateReleaser interface {
	Release(states ...core.State)
}

func release(g core.Game, states ...core.State) {
	if r, ok := g.(stateReleaser); ok {
		r.Release(states...)
	}
}

// specAgent is an agent a sandbox worker rebuilds from a description (its Spec) rather than
// from its name: learn.NetAgent, whose network travels with it.
type specAgent interface {
	Spec() ([]byte, error)
}

// ActOn asks agent for its move in t with the move seed seed. Built-in agents (those
// ParseAgent rebuilds from their name) playing a sandboxed game search inside the sandbox;
// others (a language model) run here and only call the game.
func ActOn(ctx context.Context, g core.Game, agent core.Agent, t core.Turn, seed uint64) (int, error) {
	if r, ok := g.(remoteActor); ok {
		if portable(agent) {
			return r.RunAgent(ctx, agent.Name(), nil, t, seed)
		}
		if sa, ok := agent.(specAgent); ok {
			spec, err := sa.Spec()
			if err != nil {
				return 0, err
			}
			return r.RunAgent(ctx, agent.Name(), spec, t, seed)
		}
	}
	return agent.Act(ctx, g, t, core.MoveRNG(seed))
}

// portable reports whether agent is a built-in agent that ParseAgent makes from its name.
func portable(agent core.Agent) bool {
	switch agent.(type) {
	case agents.Random, agents.FirstLegal, *agents.MCTS:
		b, err := agents.ParseAgent(agent.Name())
		return err == nil && b.Name() == agent.Name()
	}
	return false
}

// Session is a game in progress driven move by move, with undo: what a person plays through.
type Session struct {
	Game     core.Game
	Seed     int64
	MaxPlies int
	states   []core.State
	moves    []int
}

// NewSession starts a game from Initial(seed).
func NewSession(g core.Game, seed int64, maxPlies int) (*Session, error) {
	if maxPlies <= 0 {
		maxPlies = core.DefaultMaxPlies
	}
	s, err := g.Initial(seed)
	if err != nil {
		return nil, err
	}
	return &Session{Game: g, Seed: seed, MaxPlies: maxPlies, states: []core.State{s}}, nil
}

// State is the current position.
func (s *Session) State() core.State { return s.states[len(s.states)-1] }

// Ply is the number of moves played.
func (s *Session) Ply() int { return len(s.moves) }

// Moves are the moves played so far.
func (s *Session) Moves() []int { return slices.Clone(s.moves) }

// Status is the current outcome and whether the ply cap has ended the game.
func (s *Session) Status() (o core.Outcome, truncated bool, err error) {
	o, err = s.Game.Outcome(s.State())
	if err != nil || o.Done() {
		return o, false, err
	}
	return o, s.Ply() >= s.MaxPlies, nil
}

// Turn is the position as an agent sees it; it fails when the game is over.
func (s *Session) Turn() (core.Turn, error) {
	o, trunc, err := s.Status()
	if err != nil {
		return core.Turn{}, err
	}
	if o.Done() || trunc {
		return core.Turn{}, fmt.Errorf("the game is over")
	}
	p, err := s.Game.ToMove(s.State())
	if err != nil {
		return core.Turn{}, err
	}
	legal, err := s.Game.Legal(s.State())
	if err != nil {
		return core.Turn{}, err
	}
	if len(legal) == 0 {
		return core.Turn{}, core.Contractf("legal_actions", "no legal actions while the game is ongoing")
	}
	return core.Turn{State: s.State(), Legal: legal, Player: p, Ply: s.Ply(), MaxPlies: s.MaxPlies}, nil
}

// Play applies a move after checking it is legal.
func (s *Session) Play(a int) error {
	t, err := s.Turn()
	if err != nil {
		return err
	}
	if _, ok := slices.BinarySearch(t.Legal, a); !ok {
		return &core.Fault{Kind: core.FaultIllegal, Msg: fmt.Sprintf("action %d is not legal (legal: %v)", a, t.Legal)}
	}
	next, err := s.Game.Apply(s.State(), a)
	if err != nil {
		return err
	}
	s.states = append(s.states, next)
	s.moves = append(s.moves, a)
	return nil
}

// Undo takes back the last n moves (fewer if fewer were played) and returns how many it took.
func (s *Session) Undo(n int) int {
	n = min(n, len(s.moves))
	release(s.Game, s.states[len(s.states)-n:]...)
	s.states = s.states[:len(s.states)-n]
	s.moves = s.moves[:len(s.moves)-n]
	return n
}

// AgentMove asks agent for the move of the player to act, seeded by the session's rule
// (SessionMoveSeed), without playing it: the GUI and the CLI show it, then Play it.
func (s *Session) AgentMove(ctx context.Context, agent core.Agent) (core.Turn, int, error) {
	t, err := s.Turn()
	if err != nil {
		return t, 0, err
	}
	a, err := ActOn(ctx, s.Game, agent, t, SessionMoveSeed(s.Seed, t.Ply))
	return t, a, err
}

// UndoTo takes back moves until player is to move again with at least one move taken back
// (the other side's reply goes with it), or the start is reached.
func (s *Session) UndoTo(player int) {
	for s.Ply() > 0 {
		s.Undo(1)
		if p, err := s.Game.ToMove(s.State()); err == nil && p == player {
			return
		}
	}
}

// Close releases the states the session holds; it must not be used afterwards.
func (s *Session) Close() {
	release(s.Game, s.states...)
	s.states, s.moves = nil, nil
}

// On replays the session on another instance of the same game (from the same seed, with the
// same moves): an agent can think on its own instance while the first one keeps serving the
// board. The caller closes the new session.
func (s *Session) On(g core.Game) (*Session, error) {
	c, err := NewSession(g, s.Seed, s.MaxPlies)
	if err != nil {
		return nil, err
	}
	for _, a := range s.moves {
		if err := c.Play(a); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

package arcade

import "pcgwb/problems/numpyrng"

// The flat MCTS's random play-outs are nearly all of an evaluation's cost (45 play-outs of up
// to 40 steps per move), and nothing of them is kept but who won and how far the two random
// generators moved. They run on a compact copy of the state, with the rules compiled once per
// decision into flat tables, instead of Engine.update: the same steps in the same order, so
// every draw of both generators happens with the same value (TestPlayoutEqualsEngineUpdates
// and FuzzPlayout check outcome and both generators against Engine.update).

// simPiece is a piece of a play-out: its padded cell index instead of X and Y, so that a move
// is one addition and two pieces meet when their cells are equal.
type simPiece struct {
	cell         int32
	state, value int16
	alive        bool
}

// simState is a play-out's state. The pieces are in the engine's update order (red, green,
// yellow, each in placement order); the first playout.n are placed.
type simState struct {
	cell, score, time int32
	alive             bool
	p                 [Colours * MaxPieces]simPiece
}

// indexPair is two pieces whose colours' rule does something (first the lower colour's).
type indexPair struct{ a, b int8 }

// playout is what a play-out reads of the engine, its rules and the pieces placed (which
// never change during a game), copied into flat tables once per decision.
type playout struct {
	empty []bool
	dist  [][]int16
	w     int32
	// step[k] is the cell offset of walkDirs[k]; move[k] of Directions[k].
	step [4]int32
	move [len(Directions)]int32
	// wander[b-WanderHorz][state] is the offset a wandering piece tries.
	wander [2][2]int32
	// n pieces are placed; behaviour[k] is piece k's colour's, hitRule[k] its colour's rule
	// with the player.
	n         int
	behaviour [Colours * MaxPieces]int
	hitRule   [Colours * MaxPieces]Rule
	// meets are the piece pairs whose colours' rule does something: the pair loop (collide)
	// runs only when two of them meet.
	meets  []indexPair
	meetsA [Colours * MaxPieces * (Colours*MaxPieces - 1) / 2]indexPair
	// pairs[c] are colour c's pair rules (as in prepared); colour c's pieces are from[c]:from[c+1].
	pairs [Colours][]pairRule
	from  [Colours + 1]int8
	// target is the score the win rule asks for (0: survive until maxTime).
	target, maxTime int32
}

// reset compiles the engine's current rules and layout and the pieces placed in s (done per
// decision, so a changed Rules is never played with stale tables).
func (p *playout) reset(e *Engine, s *State) {
	if e.prep.rules != e.Rules {
		e.prepare()
	}
	w := int32(e.Layout.W)
	*p = playout{
		empty:   e.Layout.empty,
		dist:    e.Layout.dist,
		w:       w,
		pairs:   e.prep.pairs,
		target:  int32(winScores[e.Rules.Win]),
		maxTime: int32(e.MaxTime),
	}
	off := func(a Action) int32 { return int32(a.Y)*w + int32(a.X) }
	for k, d := range walkDirs {
		p.step[k] = off(d)
	}
	for k, d := range Directions {
		p.move[k] = off(d)
	}
	for k := range horzDirs {
		p.wander[0][k], p.wander[1][k] = off(horzDirs[k]), off(vertDirs[k])
	}
	var colour [Colours * MaxPieces]int
	n := 0
	for c := 0; c < Colours; c++ {
		p.from[c] = int8(n)
		for i := 0; i < int(s.Count[c]); i++ {
			colour[n] = c
			p.behaviour[n] = e.Rules.Behaviour[c]
			p.hitRule[n] = e.Rules.Collide[player][c]
			n++
		}
	}
	p.from[Colours] = int8(n)
	p.n = n
	p.meets = p.meetsA[:0]
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if e.Rules.Collide[colour[i]][colour[j]] != (Rule{}) {
				p.meets = append(p.meets, indexPair{int8(i), int8(j)})
			}
		}
	}
}

// load copies a state into the compact form.
func (p *playout) load(s *State) simState {
	t := simState{
		cell:  int32(s.Player.Y)*p.w + int32(s.Player.X),
		score: s.Player.Score,
		time:  s.Player.Time,
		alive: s.Player.Alive,
	}
	n := 0
	for c := 0; c < Colours; c++ {
		for i := 0; i < int(s.Count[c]); i++ {
			o := &s.Pieces[c][i]
			t.p[n] = simPiece{cell: int32(o.Y)*p.w + int32(o.X), state: o.State, value: o.Value, alive: o.Alive}
			n++
		}
	}
	return t
}

// over is Engine.Over.
func (p *playout) over(s *simState) bool {
	if p.target > 0 {
		return s.score >= p.target || s.time >= p.maxTime
	}
	return s.time >= p.maxTime || !s.alive
}

// win is Engine.IsWin.
func (p *playout) win(s *simState) bool {
	if p.target > 0 {
		return s.score >= p.target
	}
	return s.time >= p.maxTime
}

// run plays random moves drawn from agent until the game is over, as the MCTS's simulate did
// with Engine.update, and reports whether it was won and how many steps it played.
func (p *playout) run(s simState, agent, engine *numpyrng.Generator) (won bool, steps int) {
	for !p.over(&s) {
		p.update(&s, choice5(agent), engine)
		steps++
	}
	return p.win(&s), steps
}

// update is Engine.update on the compact state with the player moving by Directions[move].
//
// Engine.update moves every piece, then lets the player meet every piece, then runs the pair
// loop. Here each piece meets the player right after it moved: a meeting changes only the
// player's life and score and that piece's life, which no later piece's move reads (chasers
// read the player's cell, which is settled before any piece moves), so the meetings happen in
// the same order with the same effects. Each live piece then marks its cell, and the pair
// loop runs only if two pieces may share one.
func (p *playout) update(s *simState, move int, rng *numpyrng.Generator) {
	s.time++
	if c := s.cell + p.move[move]; p.empty[c] {
		s.cell = c
	}
	d := p.dist[s.cell]
	// marks has bit cell%64 of every live piece's cell: two live pieces on one cell set one bit
	// twice (so do two cells 64 apart, which the exact test below then tells apart).
	var marks uint64
	meet := false
	for k := range s.p[:p.n] {
		o := &s.p[k]
		b := p.behaviour[k]
		if !o.alive && b != Flicker {
			continue
		}
		o.value++
		switch b {
		case Flicker:
			o.alive = (o.value/5)%2 == 0
		case RandomShort, RandomLong:
			if (b == RandomShort && o.value%5 == 1) || (b == RandomLong && o.value%10 == 1) {
				o.state = int16(rng.Uint32() >> 30) // rng.IntN(4), see intN4
			}
			if n := o.cell + p.step[o.state]; p.empty[n] {
				o.cell = n
			}
		case WanderHorz, WanderVert:
			if o.value == 1 {
				o.state = int16(rng.Uint32() >> 31) // rng.IntN(2), see intN4
			}
			if n := o.cell + p.wander[b-WanderHorz][o.state]; p.empty[n] {
				o.cell = n
			} else {
				o.state = 1 - o.state
			}
		case Chase, Flee:
			// The first of left, right, up, down with the best distance (walls count -1).
			best := p.step[0]
			bestV := d[o.cell+best]
			for _, k := range p.step[1:] {
				v := d[o.cell+k]
				if (b == Chase && v < bestV) || (b == Flee && v > bestV) {
					best, bestV = k, v
				}
			}
			if n := o.cell + best; p.empty[n] {
				o.cell = n
			}
		}
		if !o.alive {
			continue
		}
		if o.cell == s.cell {
			if r := p.hitRule[k]; r != (Rule{}) {
				applyRule(r, &s.alive, &o.alive)
				s.score += int32(points[r.Score])
				if !o.alive {
					continue
				}
			}
		}
		bit := uint64(1) << (o.cell & 63)
		if marks&bit != 0 {
			meet = true
		}
		marks |= bit
	}
	if !meet {
		return
	}
	// The pair loop fires only for two live pieces whose colours' rule does something, on
	// one cell, with records that differ.
	for _, m := range p.meets {
		a, b := &s.p[m.a], &s.p[m.b]
		if a.cell == b.cell && a.alive && b.alive && *a != *b {
			p.collide(s)
			return
		}
	}
}

// collide is the piece-pair loop of Engine.update, in its order.
func (p *playout) collide(s *simState) {
	for c1 := 0; c1 < Colours; c1++ {
		pairs := p.pairs[c1]
		for i := p.from[c1]; i < p.from[c1+1]; i++ {
			a := &s.p[i]
			if !a.alive {
				continue
			}
			for _, pr := range pairs {
				for j := p.from[pr.second]; j < p.from[pr.second+1]; j++ {
					b := &s.p[j]
					if a.cell != b.cell || !a.alive || !b.alive || *a == *b {
						continue
					}
					applyRule(pr.rule, &a.alive, &b.alive)
					s.score += int32(points[pr.rule.Score])
				}
			}
		}
	}
}

// applyRule kills what a collision rule's action kills.
func applyRule(r Rule, first, second *bool) {
	switch r.Action {
	case KillFirst:
		*first = false
	case KillSecond:
		*second = false
	case KillBoth:
		*first, *second = false, false
	}
}

// compactable reports whether the compact play-out takes a state: the player and every piece
// stand on empty cells, so that each of their neighbours is inside the layout (its padding's
// ring of walls surrounds the empty cells) and a move needs no bounds check. Every state of a
// game whose player starts on an empty cell is so (moves only go to empty cells, and Info
// plays no other game); anything else, a state built by hand or a player started on a wall,
// is played with Engine.update.
func compactable(e *Engine, s *State) bool {
	if !e.Layout.Empty(int(s.Player.X), int(s.Player.Y)) {
		return false
	}
	for c := 0; c < Colours; c++ {
		if s.Count[c] < 0 || s.Count[c] > MaxPieces {
			return false
		}
		for i := 0; i < int(s.Count[c]); i++ {
			if o := &s.Pieces[c][i]; !e.Layout.Empty(int(o.X), int(o.Y)) {
				return false
			}
		}
	}
	return true
}

// choice5 is g.Choice(5) (a move) without its general-purpose dispatch: numpy's bounded draw
// for a range of 5 multiplies a 32-bit draw by 5 and keeps the high half, redrawing while the
// low half is below (2³²-5) mod 5 = 1. For 4 and 2 choices nothing is ever redrawn (2³² is
// divisible), so IntN(4) is the draw's top two bits and IntN(2) its top bit.
// TestDrawsAreTheGenerators compares them with the generator's own methods.
func choice5(g *numpyrng.Generator) int {
	m := uint64(g.Uint32()) * 5
	for uint32(m) < 1 {
		m = uint64(g.Uint32()) * 5
	}
	return int(m >> 32)
}

package arcade

import "pcgwb/problems/numpyrng"

// The flat MCTS's random play-outs are nearly all of an evaluation's cost (45 play-outs of up
// to 40 steps per move), and nothing of them is kept but who won and how far the two random
// generators moved. They run on a compact copy of the state, with the rules compiled once per
// decision into flat tables, instead of Engine.update: the same steps in the same order, so
// every draw of both generators happens with the same value, and a play-out whose end no
// longer depends on the moves is not played to its end but its remaining draws are made
// (finish). TestPlayoutEqualsEngineUpdates and FuzzPlayout check the outcome and both
// generators against Engine.update's play-out.

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
	open []int32
	// chase and flee are the layout's pursuit tables (Layout.pursuits) of cells² entries.
	chase, flee []int16
	cells       int
	w           int32
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
	// slot is differ's table of the last record per cell%64 (read only where marked).
	slot [64]uint64
	// pairs[c] are colour c's pair rules (as in prepared); colour c's pieces are from[c]:from[c+1].
	pairs [Colours][]pairRule
	from  [Colours + 1]int8
	// target is the score the win rule asks for (0: survive until maxTime).
	target, maxTime int32
	// colour[k] is piece k's colour. settled[live] says that a state whose live colours (those
	// with a live piece, and flickering ones, which come back) are the bits of live has its
	// outcome and its draws fixed whatever the moves: see finish.
	colour  [Colours * MaxPieces]uint8
	settled [1 << Colours]bool
	// recheck is set by update when a piece met the player or another piece (and may have
	// died), so that run looks at settled again.
	recheck bool
}

// reset compiles the engine's current rules and layout and the pieces placed in s (done per
// decision, so a changed Rules is never played with stale tables).
func (p *playout) reset(e *Engine, s *State) {
	if e.prep.rules != e.Rules {
		e.prepare()
	}
	w := int32(e.Layout.W)
	*p = playout{
		open:    e.Layout.open,
		chase:   e.Layout.chase,
		flee:    e.Layout.flee,
		cells:   len(e.Layout.empty),
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
			p.colour[n] = uint8(c)
			p.behaviour[n] = e.Rules.Behaviour[c]
			p.hitRule[n] = e.Rules.Collide[player][c]
			n++
		}
	}
	p.from[Colours] = int8(n)
	p.n = n
	for live := range p.settled {
		p.settled[live] = settled(e.Rules, live)
	}
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
	p.recheck = true
	for !p.over(&s) {
		if p.recheck {
			p.recheck = false
			if p.settled[p.live(&s)] {
				return p.finish(&s, agent, engine, steps)
			}
		}
		p.update(&s, choice5(agent), engine)
		steps++
	}
	return p.win(&s), steps
}

// live is the set of colours with a live or flickering piece (the others' pieces are dead for
// good).
func (p *playout) live(s *simState) int {
	live := 0
	for k := range s.p[:p.n] {
		if s.p[k].alive || p.behaviour[k] == Flicker {
			live |= 1 << p.colour[k]
		}
	}
	return live
}

// settled reports whether a game whose live colours are the bits of live ends at the time
// limit with a known outcome, and with a known number of engine draws, whatever the player
// does: the player cannot die (win rule "time": it wins) or the score cannot grow (a score
// win rule: it loses), and no live random walker can die, so each draws at every turn until
// the end. A piece dies only by a rule with a live colour (its own included) that kills it.
func settled(r *Rules, live int) bool {
	has := func(c int) bool { return live&(1<<c) != 0 }
	for c := 0; c < Colours; c++ {
		if !has(c) {
			continue
		}
		pr := r.Collide[player][c]
		if r.Win == WinTime && (pr.Action == KillFirst || pr.Action == KillBoth) {
			return false
		}
		if r.Win != WinTime && pr.Score > 0 {
			return false
		}
		walker := r.Behaviour[c] == RandomShort || r.Behaviour[c] == RandomLong
		if walker && (pr.Action == KillSecond || pr.Action == KillBoth) {
			return false
		}
		for c2 := 0; c2 < Colours; c2++ {
			if !has(c2) {
				continue
			}
			lo, hi := min(c, c2), max(c, c2)
			rule := r.Collide[lo][hi]
			if r.Win != WinTime && rule.Score > 0 {
				return false
			}
			killsC := rule.Action == KillBoth || (c == lo && rule.Action == KillFirst) || (c == hi && rule.Action == KillSecond)
			if walker && killsC {
				return false
			}
		}
	}
	return true
}

// finish ends a settled play-out (steps played so far) without playing it: the game runs to
// the time limit, so the agent draws one move per remaining step, and the engine draws once
// per turn of each live random walker (IntN(4), one 32-bit draw) and once for a live wandering
// piece that has not moved yet (IntN(2), one 32-bit draw); the two generators are separate, so
// only the number of each one's draws matters. Nothing else draws.
func (p *playout) finish(s *simState, agent, engine *numpyrng.Generator, steps int) (won bool, total int) {
	left := int(p.maxTime - s.time)
	for range left {
		choice5(agent)
	}
	draws := 0
	for k := range s.p[:p.n] {
		o := &s.p[k]
		if !o.alive {
			continue
		}
		period := 0
		switch p.behaviour[k] {
		case RandomShort:
			period = 5
		case RandomLong:
			period = 10
		case WanderHorz, WanderVert:
			if o.value == 0 && left > 0 {
				draws++
			}
		}
		for v := int(o.value) + 1; period > 0 && v <= int(o.value)+left; v++ {
			if v%period == 1 {
				draws++
			}
		}
	}
	for range draws {
		engine.Uint32()
	}
	return p.target == 0, steps + left
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
	// Moves are branch-free: open[cell] is -1 (all bits) on empty cells and 0 on walls, so
	// step & open[cell+step] is the step where it can be taken and 0 where it is blocked (the
	// targets of random moves are what a branch predictor cannot guess).
	open := p.open
	step := p.move[move]
	s.cell += step & open[s.cell+step]
	// The moves of chasing and fleeing pieces towards or away from the player's cell.
	row := int(s.cell) * p.cells
	chase, flee := p.chase[row:row+p.cells], p.flee[row:row+p.cells]
	// marks has bit cell%64 of every live piece's cell; shared gets the bits set twice. The
	// pair loop can fire only if two live pieces share a cell (or two cells 64 apart share a
	// bit, which the exact tests below tell apart).
	var marks, shared uint64
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
				o.state = int16(rng.Uint32() >> 30) // rng.IntN(4), see choice5
			}
			step := p.step[o.state&3]
			o.cell += step & open[o.cell+step]
		case WanderHorz, WanderVert:
			if o.value == 1 {
				o.state = int16(rng.Uint32() >> 31) // rng.IntN(2), see choice5
			}
			step := p.wander[b-WanderHorz][o.state&1]
			m := open[o.cell+step]
			o.cell += step & m
			// Blocked (m == 0): turn round for the next step.
			o.state ^= int16(1 + m)
		case Chase:
			o.cell += int32(chase[o.cell])
		case Flee:
			o.cell += int32(flee[o.cell])
		}
		if !o.alive {
			continue
		}
		if o.cell == s.cell {
			if r := p.hitRule[k]; r != (Rule{}) {
				applyRule(r, &s.alive, &o.alive)
				s.score += int32(points[r.Score])
				p.recheck = true
				if !o.alive {
					continue
				}
			}
		}
		bit := uint64(1) << (o.cell & 63)
		shared |= marks & bit
		marks |= bit
	}
	if shared == 0 || !p.differ(s) {
		return
	}
	// The pair loop fires only for two live pieces whose colours' rule does something, on
	// one cell, with records that differ.
	for _, m := range p.meets {
		a, b := &s.p[m.a], &s.p[m.b]
		if a.cell == b.cell && a.alive && b.alive && *a != *b {
			p.collide(s)
			p.recheck = true
			return
		}
	}
}

// differ reports whether two live pieces may share a cell with records that differ (the pair
// loop skips equal records). slot[cell%64] holds the record of the last live piece seen
// there: if a cell's pieces do not all have one record, some piece differs from the one seen
// before it. Stacked identical pieces, which never collide, are common, and this pass over
// the pieces is cheaper than the exact test of every pair.
func (p *playout) differ(s *simState) bool {
	var marks uint64
	for k := range s.p[:p.n] {
		o := &s.p[k]
		if !o.alive {
			continue
		}
		slot := o.cell & 63
		bit := uint64(1) << slot
		rec := uint64(uint32(o.cell)) | uint64(uint16(o.state))<<32 | uint64(uint16(o.value))<<48
		if marks&bit != 0 && p.slot[slot] != rec {
			return true
		}
		marks |= bit
		p.slot[slot] = rec
	}
	return false
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

package arcade

import "sync"

// gameKey is everything the three agents' games read of a content whose player starts on an
// empty cell: the player's start, the seed and the win rule; per colour the starts of the
// pieces that are placed (the first Num, those not on a wall, in order), and the colour's
// behaviour only when it has a piece; the collision rules only between the player and present
// colours or between two present colours (Engine.update never visits the others).
type gameKey struct {
	x, y, seed, win int32
	num             [Colours]int8
	behaviour       [Colours]int8
	starts          [Colours][MaxPieces][2]int8
	collide         [Colours + 1][Colours]Rule
}

func (a *Arcade) gameKey(r *Rules) gameKey {
	k := gameKey{x: int32(r.X), y: int32(r.Y), seed: int32(r.Seed), win: int32(r.Win)}
	var present [Colours + 1]bool
	present[player] = true
	for c := 0; c < Colours; c++ {
		k.behaviour[c] = -1
		st := r.Starts[c]
		for i := 0; i < st.Num; i++ {
			if a.layout.Empty(st.X[i]+1, st.Y[i]+1) {
				k.starts[c][k.num[c]] = [2]int8{int8(st.X[i]), int8(st.Y[i])}
				k.num[c]++
			}
		}
		if k.num[c] > 0 {
			k.behaviour[c] = int8(r.Behaviour[c])
			present[c] = true
		}
	}
	for c1 := 0; c1 <= Colours; c1++ {
		for c2 := 0; c2 < Colours; c2++ {
			if present[c1] && present[c2] {
				k.collide[c1][c2] = r.Collide[c1][c2]
			}
		}
	}
	return k
}

// games are the do-nothing, random and flat MCTS agents' traces.
type games [3]Trace

// memoSize bounds the remembered games: a search's hits come from the parents of the current
// generation, and a full entry is three traces of at most 41 states (~20 KB).
const memoSize = 512

// gameMemo is a bounded map of recent games, first in first out, safe for the parallel Info
// calls of one evaluation batch.
type gameMemo struct {
	mu    sync.Mutex
	m     map[gameKey]games
	order []gameKey // insertion order, a ring of memoSize
	next  int
}

func (g *gameMemo) get(k gameKey) (games, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	v, ok := g.m[k]
	return v, ok
}

func (g *gameMemo) put(k gameKey, v games) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m == nil {
		g.m = make(map[gameKey]games, memoSize)
		g.order = make([]gameKey, 0, memoSize)
	}
	if _, ok := g.m[k]; ok {
		return
	}
	if len(g.order) < memoSize {
		g.order = append(g.order, k)
	} else {
		delete(g.m, g.order[g.next])
		g.order[g.next] = k
		g.next = (g.next + 1) % memoSize
	}
	g.m[k] = v
}

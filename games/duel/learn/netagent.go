package learn

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"sync"

	"go.starlark.net/starlark"
)

// defaultObsSize is the length of the observation derived from the state for a script that
// defines no observe (OBS_SIZE 0): the state's values hashed by their place in it.
const defaultObsSize = 128

// obsSize is the length of the network input for a game: its observation and one number for
// the player it is seen from.
func obsSize(info core.Info) int {
	if info.ObsSize == 0 {
		return defaultObsSize + 1
	}
	return info.ObsSize + 1
}

// observation is what the network sees of s from player p's side: the script's observe when
// it defines one, else a vector derived from the state (DefaultObservation), then +1 for the
// first player and -1 for the second. Values are clipped to ±100.
func observation(g core.Game, s core.State, p int) ([]float64, error) {
	var obs []float64
	if g.Info().ObsSize == 0 {
		if _, ok := g.(*script.ScriptGame); ok {
			obs = DefaultObservation(s)
		} else {
			obs = make([]float64, defaultObsSize)
		}
	} else {
		var err error
		if obs, err = g.Observe(s, p); err != nil {
			return nil, err
		}
		obs = append([]float64(nil), obs...)
	}
	for i, x := range obs {
		obs[i] = max(-100, min(100, x))
	}
	side := 1.0
	if p == 1 {
		side = -1
	}
	return append(obs, side), nil
}

// DefaultObservation derives a fixed-size vector from a state of a script with no observe:
// every number, boolean and string in the state is added at a place chosen by hashing its
// path (keys and indices) — and, for a string, its text — into defaultObsSize slots. Two
// states that differ in a value mostly differ in the vector; the order of dict keys does not
// matter. States that are not script values give zeros.
func DefaultObservation(s core.State) []float64 {
	out := make([]float64, defaultObsSize)
	v, err := script.StateValue(s)
	if err != nil {
		return out
	}
	budget := 1 << 16 // values visited at most: a huge state costs bounded time
	slot := func(path uint64, extra string) int {
		h := fnv.New64a()
		var b [8]byte
		for i := range b {
			b[i] = byte(path >> (8 * i))
		}
		h.Write(b[:])
		h.Write([]byte(extra))
		return int(h.Sum64() % defaultObsSize)
	}
	var walk func(v starlark.Value, path uint64, depth int)
	walk = func(v starlark.Value, path uint64, depth int) {
		if budget--; budget < 0 || depth > 64 {
			return
		}
		switch v := v.(type) {
		case starlark.Bool:
			if v {
				out[slot(path, "")] += 1
			}
		case starlark.Int:
			f, _ := starlark.AsFloat(v)
			out[slot(path, "")] += f
		case starlark.Float:
			out[slot(path, "")] += float64(v)
		case starlark.String:
			out[slot(path, string(v))] += 1
		case starlark.Indexable: // lists and tuples
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), path*1099511628211+uint64(i)+1, depth+1)
			}
		case *starlark.Dict:
			for _, kv := range v.Items() {
				k := kv[0].String()
				h := fnv.New64a()
				h.Write([]byte(k))
				walk(kv[1], path*1099511628211^h.Sum64(), depth+1)
			}
		case *starlark.Set:
			iter := v.Iterate()
			var e starlark.Value
			for iter.Next(&e) {
				out[slot(path, e.String())] += 1
			}
			iter.Done()
		}
	}
	walk(v, 14695981039346656037, 0)
	return out
}

// NetAgent is a trained opponent: PUCT tree search (AlphaZero's selection) whose priors come
// from the network's policy, and whose leaves are valued half by the network's value and half
// by a rollout that samples the network's policy (as gg-bench's opponent samples its PPO
// policy in rollouts).
type NetAgent struct {
	Net        *Net
	Label      string  // checkpoint name, part of Name
	Iterations int     // default 100
	CPuct      float64 // default 1.5
	// Mix is the rollout's share of a leaf's value (default 0.5; -1: the network's value only).
	Mix float64
	// Explore is the share of a uniform prior mixed into the network's (default 0.25, as
	// AlphaZero's root noise but at every node and without randomness; -1: none): a move the
	// network rules out is still searched, so a confident wrong policy cannot hide a forced
	// loss or win.
	Explore float64
	// rootNoise: self-play's searches mix AlphaZero's Dirichlet noise into the root's priors.
	rootNoise bool

	nameOnce sync.Once
	name     string
}

// Name is "net-LABEL-HASH-mcts-N": what the weights are and how much it searches.
func (a *NetAgent) Name() string {
	a.nameOnce.Do(func() { a.name = fmt.Sprintf("net-%s-%s-mcts-%d", a.Label, a.Net.Hash(), a.iterations()) })
	return a.name
}

func (a *NetAgent) iterations() int {
	if a.Iterations <= 0 {
		return 100
	}
	return a.Iterations
}

// netSpec is how a NetAgent travels to a sandbox worker.
type netSpec struct {
	Net        *Net    `json:"net"`
	Label      string  `json:"label"`
	Iterations int     `json:"iterations"`
	CPuct      float64 `json:"c_puct,omitempty"`
	Mix        float64 `json:"mix,omitempty"`
	Explore    float64 `json:"explore,omitempty"`
}

// Spec is the agent as JSON, for a sandbox worker to rebuild (duel.ActOn sends it).
func (a *NetAgent) Spec() ([]byte, error) {
	return json.Marshal(netSpec{Net: a.Net, Label: a.Label, Iterations: a.Iterations, CPuct: a.CPuct, Mix: a.Mix, Explore: a.Explore})
}

func agentFromSpec(b []byte) (*NetAgent, error) {
	var sp netSpec
	if err := json.Unmarshal(b, &sp); err != nil {
		return nil, err
	}
	if sp.Net == nil {
		return nil, fmt.Errorf("agent spec without a network")
	}
	if err := sp.Net.check(); err != nil {
		return nil, err
	}
	return &NetAgent{Net: sp.Net, Label: sp.Label, Iterations: sp.Iterations, CPuct: sp.CPuct, Mix: sp.Mix, Explore: sp.Explore}, nil
}

func (a *NetAgent) Act(ctx context.Context, g core.Game, t core.Turn, rng *rand.Rand) (int, error) {
	if len(t.Legal) == 1 {
		return t.Legal[0], nil
	}
	visits, err := a.search(ctx, g, t, rng)
	if err != nil {
		return 0, err
	}
	best := 0
	for i, n := range visits {
		if n > visits[best] {
			best = i
		}
	}
	return t.Legal[best], nil
}

type puctNode struct {
	state    core.State
	mover    int // who made the move into this node
	toMove   int
	outcome  core.Outcome
	ply      int
	expanded bool
	checked  bool // outcome read
	legal    []int
	prior    []float64
	children []*puctNode
	n        float64
	w        float64 // sum of values for mover
}

// search runs the iterations from t and returns the root's visit counts per legal action.
func (a *NetAgent) search(ctx context.Context, g core.Game, t core.Turn, rng *rand.Rand) ([]float64, error) {
	cp := a.CPuct
	if cp == 0 {
		cp = 1.5
	}
	mix := a.Mix
	switch {
	case mix == 0:
		mix = 0.5
	case mix < 0:
		mix = 0
	}
	maxPlies := t.MaxPlies
	if maxPlies <= 0 {
		maxPlies = core.DefaultMaxPlies
	}
	root := &puctNode{state: t.State, mover: 1 - t.Player, toMove: t.Player, ply: t.Ply, legal: t.Legal}
	if err := a.expand(g, root); err != nil {
		return nil, err
	}
	if a.rootNoise {
		addRootNoise(root.prior, rng)
	}
	path := make([]*puctNode, 0, 64)
	for it := 0; it < a.iterations(); it++ {
		if it%netCtxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		n := root
		path = append(path[:0], n)
		for n.expanded && !n.outcome.Done() && n.ply < maxPlies {
			i := n.selectChild(cp)
			if n.children[i] == nil {
				s, err := g.Apply(n.state, n.legal[i])
				if err != nil {
					return nil, err
				}
				n.children[i] = &puctNode{state: s, mover: n.toMove, ply: n.ply + 1}
			}
			n = n.children[i]
			path = append(path, n)
		}
		// value of the leaf for player 0
		var v0 float64
		if !n.expanded && !n.checked {
			o, err := g.Outcome(n.state)
			if err != nil {
				return nil, err
			}
			n.outcome, n.checked = o, true
		}
		switch {
		case n.outcome.Done():
			v0 = n.outcome.Reward(0)
		case n.ply >= maxPlies:
			v0 = 0
		default:
			if !n.expanded {
				if err := a.expandLegal(g, n); err != nil {
					return nil, err
				}
			}
			v, err := a.evaluate(g, n)
			if err != nil {
				return nil, err
			}
			if mix > 0 {
				z, err := a.rollout(g, n, maxPlies, rng)
				if err != nil {
					return nil, err
				}
				v = (1-mix)*v + mix*z
			}
			if n.toMove == 1 {
				v = -v
			}
			v0 = v
		}
		for _, x := range path {
			x.n++
			if x.mover == 0 {
				x.w += v0
			} else {
				x.w -= v0
			}
		}
	}
	visits := make([]float64, len(root.legal))
	for i, ch := range root.children {
		if ch != nil {
			visits[i] = ch.n
		}
	}
	return visits, nil
}

// expand fills a node whose legal list is known (the root) with the network's priors.
func (a *NetAgent) expand(g core.Game, n *puctNode) error {
	x, err := observation(g, n.state, n.toMove)
	if err != nil {
		return err
	}
	n.prior, _ = a.Net.Predict(x, n.legal)
	eps := a.Explore
	switch {
	case eps == 0:
		eps = 0.25
	case eps < 0:
		eps = 0
	}
	for i := range n.prior {
		n.prior[i] = (1-eps)*n.prior[i] + eps/float64(len(n.prior))
	}
	n.children = make([]*puctNode, len(n.legal))
	n.expanded = true
	return nil
}

// expandLegal reads to_move and legal_actions of an ongoing leaf, then its priors.
func (a *NetAgent) expandLegal(g core.Game, n *puctNode) error {
	p, err := g.ToMove(n.state)
	if err != nil {
		return err
	}
	legal, err := g.Legal(n.state)
	if err != nil {
		return err
	}
	if len(legal) == 0 {
		return core.Contractf("legal_actions", "no legal actions while the game is ongoing")
	}
	n.toMove, n.legal = p, legal
	return a.expand(g, n)
}

// evaluate is the network's value of an expanded leaf for its player to move.
func (a *NetAgent) evaluate(g core.Game, n *puctNode) (float64, error) {
	x, err := observation(g, n.state, n.toMove)
	if err != nil {
		return 0, err
	}
	_, v := a.Net.Predict(x, n.legal)
	return v, nil
}

// rollout plays from an expanded leaf to the end, both sides sampling the network's policy,
// and returns the result for the leaf's player to move.
func (a *NetAgent) rollout(g core.Game, n *puctNode, maxPlies int, rng *rand.Rand) (float64, error) {
	s, p, legal, prior, ply := n.state, n.toMove, n.legal, n.prior, n.ply
	for ply < maxPlies {
		i := sampleIndex(prior, rng)
		var err error
		if s, err = g.Apply(s, legal[i]); err != nil {
			return 0, err
		}
		ply++
		o, err := g.Outcome(s)
		if err != nil {
			return 0, err
		}
		if o.Done() {
			return o.Reward(n.toMove), nil
		}
		if p, err = g.ToMove(s); err != nil {
			return 0, err
		}
		if legal, err = g.Legal(s); err != nil {
			return 0, err
		}
		if len(legal) == 0 {
			return 0, core.Contractf("legal_actions", "no legal actions while the game is ongoing")
		}
		x, err := observation(g, s, p)
		if err != nil {
			return 0, err
		}
		prior, _ = a.Net.Predict(x, legal)
	}
	return 0, nil
}

// addRootNoise is AlphaZero's exploration noise at the root of a self-play search: the priors
// become 0.75·prior + 0.25·η with η ~ Dir(α). AlphaZero's α (0.3 chess, 0.15 shogi, 0.03 go)
// is about 10 over the typical number of legal moves; here α = 10/len(legal) of the position.
func addRootNoise(prior []float64, rng *rand.Rand) {
	const eps = 0.25
	alpha := 10 / float64(len(prior))
	eta := make([]float64, len(prior))
	sum := 0.0
	for i := range eta {
		eta[i] = gammaSample(alpha, rng)
		sum += eta[i]
	}
	if sum <= 0 {
		return
	}
	for i := range prior {
		prior[i] = (1-eps)*prior[i] + eps*eta[i]/sum
	}
}

// gammaSample draws from Gamma(alpha, 1) (Marsaglia and Tsang; alpha < 1 by boosting).
func gammaSample(alpha float64, rng *rand.Rand) float64 {
	if alpha < 1 {
		return gammaSample(alpha+1, rng) * math.Pow(rng.Float64(), 1/alpha)
	}
	d := alpha - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

func sampleIndex(p []float64, rng *rand.Rand) int {
	r := rng.Float64()
	for i, x := range p {
		if r < x {
			return i
		}
		r -= x
	}
	return len(p) - 1
}

// selectChild is PUCT: the mean value for the player to move plus cp·prior·√N/(1+n); an
// unvisited move counts as a draw.
func (n *puctNode) selectChild(cp float64) int {
	sq := math.Sqrt(max(n.n, 1))
	best, bestScore := 0, math.Inf(-1)
	for i, ch := range n.children {
		q, cn := 0.0, 0.0
		if ch != nil && ch.n > 0 {
			q, cn = ch.w/ch.n, ch.n
		}
		score := q + cp*n.prior[i]*sq/(1+cn)
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// visitPolicy turns visit counts into shares.
func visitPolicy(visits []float64) []float64 {
	total := 0.0
	for _, v := range visits {
		total += v
	}
	out := make([]float64, len(visits))
	for i, v := range visits {
		if total > 0 {
			out[i] = v / total
		} else {
			out[i] = 1 / float64(len(visits))
		}
	}
	return out
}

// netCtxCheckEvery is how many search iterations pass between checks of the context (as in MCTS).
const netCtxCheckEvery = 16

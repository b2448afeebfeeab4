package learn

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"pcgwb/games/duel/script"
)

// Net is the small policy/value network of a trained opponent: an MLP over the game's
// observation (two tanh layers), a policy head with one logit per action (softmax over the
// legal ones) and a value head (tanh) that predicts the game's result for the player to move.
// It is plain data: a checkpoint is its JSON, and the same JSON gives the same moves anywhere.
type Net struct {
	In     int       `json:"in"`
	Hidden int       `json:"hidden"`
	Out    int       `json:"out"`
	W1     []float64 `json:"w1"` // Hidden×In
	B1     []float64 `json:"b1"`
	W2     []float64 `json:"w2"` // Hidden×Hidden
	B2     []float64 `json:"b2"`
	WP     []float64 `json:"wp"` // Out×Hidden
	BP     []float64 `json:"bp"`
	WV     []float64 `json:"wv"` // Hidden
	BV     float64   `json:"bv"`
}

// NewNet is a network with small random weights (scaled by 1/sqrt(fan-in)) from seed.
func NewNet(in, hidden, out int, seed uint64) *Net {
	rng := rand.New(rand.NewPCG(seed, 0x6e65740a))
	n := &Net{In: in, Hidden: hidden, Out: out}
	init := func(rows, cols int, scale float64) []float64 {
		w := make([]float64, rows*cols)
		s := scale / math.Sqrt(float64(cols))
		for i := range w {
			w[i] = s * rng.NormFloat64()
		}
		return w
	}
	n.W1, n.B1 = init(hidden, in, 1), make([]float64, hidden)
	n.W2, n.B2 = init(hidden, hidden, 1), make([]float64, hidden)
	n.WP, n.BP = init(out, hidden, 0.1), make([]float64, out)
	n.WV = init(1, hidden, 0.1)
	return n
}

// check verifies the shapes (a checkpoint read from disk is checked before use).
func (n *Net) check() error {
	if n.In < 1 || n.Hidden < 1 || n.Out < 1 || n.In > script.MaxObsSize+1+defaultObsSize || n.Hidden > 1024 || n.Out > script.MaxActions {
		return fmt.Errorf("network of %d→%d→%d is outside the limits", n.In, n.Hidden, n.Out)
	}
	for _, c := range []struct {
		w    []float64
		want int
	}{{n.W1, n.Hidden * n.In}, {n.B1, n.Hidden}, {n.W2, n.Hidden * n.Hidden}, {n.B2, n.Hidden}, {n.WP, n.Out * n.Hidden}, {n.BP, n.Out}, {n.WV, n.Hidden}} {
		if len(c.w) != c.want {
			return fmt.Errorf("network weights of the wrong size (%d, want %d)", len(c.w), c.want)
		}
		for _, x := range c.w {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("network weights hold %v", x)
			}
		}
	}
	return nil
}

// Clone is a deep copy.
func (n *Net) Clone() *Net {
	c := *n
	for _, p := range []*[]float64{&c.W1, &c.B1, &c.W2, &c.B2, &c.WP, &c.BP, &c.WV} {
		*p = append([]float64(nil), (*p)...)
	}
	return &c
}

// Hash names the weights: the first 12 hex digits of the SHA-256 of the JSON.
func (n *Net) Hash() string {
	b, _ := json.Marshal(n)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:6])
}

// netActs are one forward pass's activations, kept for the backward pass.
type netActs struct {
	x, h1, h2, logits []float64
	v                 float64
}

func (n *Net) forward(x []float64) *netActs {
	a := &netActs{x: x, h1: make([]float64, n.Hidden), h2: make([]float64, n.Hidden), logits: make([]float64, n.Out)}
	for i := 0; i < n.Hidden; i++ {
		s := n.B1[i]
		row := n.W1[i*n.In : (i+1)*n.In]
		for j, xj := range x[:n.In] {
			s += row[j] * xj
		}
		a.h1[i] = math.Tanh(s)
	}
	for i := 0; i < n.Hidden; i++ {
		s := n.B2[i]
		row := n.W2[i*n.Hidden : (i+1)*n.Hidden]
		for j, hj := range a.h1 {
			s += row[j] * hj
		}
		a.h2[i] = math.Tanh(s)
	}
	for i := 0; i < n.Out; i++ {
		s := n.BP[i]
		row := n.WP[i*n.Hidden : (i+1)*n.Hidden]
		for j, hj := range a.h2 {
			s += row[j] * hj
		}
		a.logits[i] = s
	}
	v := n.BV
	for j, hj := range a.h2 {
		v += n.WV[j] * hj
	}
	a.v = math.Tanh(v)
	return a
}

// Predict is the policy over the legal actions (in their order) and the value for the player
// whose observation x is.
func (n *Net) Predict(x []float64, legal []int) ([]float64, float64) {
	a := n.forward(x)
	return maskedSoftmax(a.logits, legal), a.v
}

func maskedSoftmax(logits []float64, legal []int) []float64 {
	p := make([]float64, len(legal))
	m := math.Inf(-1)
	for _, l := range legal {
		m = max(m, logits[l])
	}
	sum := 0.0
	for i, l := range legal {
		p[i] = math.Exp(logits[l] - m)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// sample is one training example: an observation, the legal actions, the search's visit
// shares over them and the game's result for the player to move.
type sample struct {
	X      []float64 `json:"x"`
	Legal  []int     `json:"legal"`
	Policy []float64 `json:"pi"`
	Z      float64   `json:"z"`
}

// adam is Adam's state over the network's parameters, in the order params lists them.
type adam struct {
	m, v [][]float64
	t    int
}

func (n *Net) params() []*[]float64 {
	return []*[]float64{&n.W1, &n.B1, &n.W2, &n.B2, &n.WP, &n.BP, &n.WV}
}

// train runs epochs of minibatch Adam on the samples (cross-entropy of the policy against the
// visit shares plus the squared error of the value) and returns the mean loss of the last
// epoch. The order of the minibatches comes from rng.
func (n *Net) train(samples []sample, epochs, batch int, lr float64, rng *rand.Rand) float64 {
	ps := n.params()
	opt := &adam{}
	for _, p := range ps {
		opt.m = append(opt.m, make([]float64, len(*p)))
		opt.v = append(opt.v, make([]float64, len(*p)))
	}
	opt.m = append(opt.m, make([]float64, 1)) // BV
	opt.v = append(opt.v, make([]float64, 1))
	grads := make([][]float64, len(ps)+1)
	for i, p := range ps {
		grads[i] = make([]float64, len(*p))
	}
	grads[len(ps)] = make([]float64, 1)
	order := make([]int, len(samples))
	for i := range order {
		order[i] = i
	}
	loss := 0.0
	for ep := 0; ep < epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		loss = 0
		for start := 0; start < len(order); start += batch {
			end := min(start+batch, len(order))
			for _, g := range grads {
				clear(g)
			}
			for _, k := range order[start:end] {
				loss += n.backward(&samples[k], grads)
			}
			opt.t++
			scale := 1 / float64(end-start)
			for i, p := range ps {
				adamStep(*p, grads[i], opt.m[i], opt.v[i], opt.t, lr, scale)
			}
			bv := []float64{n.BV}
			adamStep(bv, grads[len(ps)], opt.m[len(ps)], opt.v[len(ps)], opt.t, lr, scale)
			n.BV = bv[0]
		}
		loss /= float64(max(len(order), 1))
	}
	return loss
}

func adamStep(w, g, m, v []float64, t int, lr, scale float64) {
	const b1, b2, eps, decay = 0.9, 0.999, 1e-8, 1e-4
	c1 := 1 - math.Pow(b1, float64(t))
	c2 := 1 - math.Pow(b2, float64(t))
	for i := range w {
		gi := g[i]*scale + decay*w[i]
		m[i] = b1*m[i] + (1-b1)*gi
		v[i] = b2*v[i] + (1-b2)*gi*gi
		w[i] -= lr * (m[i] / c1) / (math.Sqrt(v[i]/c2) + eps)
	}
}

// backward adds the gradient of one sample's loss to grads and returns the loss.
func (n *Net) backward(s *sample, grads [][]float64) float64 {
	a := n.forward(s.X)
	p := maskedSoftmax(a.logits, s.Legal)
	gW1, gB1, gW2, gB2, gWP, gBP, gWV, gBV := grads[0], grads[1], grads[2], grads[3], grads[4], grads[5], grads[6], grads[7]
	loss := 0.0
	dlogits := make([]float64, n.Out)
	for i, l := range s.Legal {
		if s.Policy[i] > 0 {
			loss -= s.Policy[i] * math.Log(max(p[i], 1e-12))
		}
		dlogits[l] = p[i] - s.Policy[i]
	}
	dv := 2 * (a.v - s.Z) * (1 - a.v*a.v)
	loss += (a.v - s.Z) * (a.v - s.Z)
	dh2 := make([]float64, n.Hidden)
	for i := 0; i < n.Out; i++ {
		if dlogits[i] == 0 {
			continue
		}
		gBP[i] += dlogits[i]
		row := n.WP[i*n.Hidden : (i+1)*n.Hidden]
		grow := gWP[i*n.Hidden : (i+1)*n.Hidden]
		for j, hj := range a.h2 {
			grow[j] += dlogits[i] * hj
			dh2[j] += dlogits[i] * row[j]
		}
	}
	gBV[0] += dv
	for j, hj := range a.h2 {
		gWV[j] += dv * hj
		dh2[j] += dv * n.WV[j]
	}
	dh1 := make([]float64, n.Hidden)
	for i := 0; i < n.Hidden; i++ {
		d := dh2[i] * (1 - a.h2[i]*a.h2[i])
		gB2[i] += d
		row := n.W2[i*n.Hidden : (i+1)*n.Hidden]
		grow := gW2[i*n.Hidden : (i+1)*n.Hidden]
		for j, hj := range a.h1 {
			grow[j] += d * hj
			dh1[j] += d * row[j]
		}
	}
	for i := 0; i < n.Hidden; i++ {
		d := dh1[i] * (1 - a.h1[i]*a.h1[i])
		gB1[i] += d
		grow := gW1[i*n.In : (i+1)*n.In]
		for j, xj := range a.x[:n.In] {
			grow[j] += d * xj
		}
	}
	return loss
}

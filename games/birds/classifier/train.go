package classifier

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// TrainConfig is everything a training run depends on. With the same configuration, fonts and
// block pool, training gives the same weights bit for bit, whatever the number of workers:
// every sample is drawn from its own generator seeded by (Seed, sample index), every batch is
// cut into the same shards, each shard's gradient is summed in sample order, and the shards'
// gradients are added in shard order.
type TrainConfig struct {
	Seed       uint64
	Steps      int
	Batch      int
	Workers    int
	LR         float64 // peak Adam learning rate
	Faces      []*Face
	Blocks     []*BlockSample // the block-letter pool
	BlockFrac  float64        // share of samples taken from the pool
	BlockyFrac float64        // share of font samples drawn on a coarse grid
	// HandwrittenFrac is the share of font samples drawn as handwriting (the Handwritten kind),
	// from HandFaces (handwriting fonts) half of the time when there are any, else from Faces.
	// Zero — the shipped weights' setting — draws exactly the samples it drew before the kind
	// existed (no extra random numbers are taken).
	HandwrittenFrac float64
	HandFaces       []*Face
	Log             io.Writer
	LogEvery        int
	// Eval, if set, is called every EvalEvery steps with the current network.
	Eval      func(step int, n *Net)
	EvalEvery int
}

// DefaultTrainConfig is the configuration of the shipped weights (see weights.json).
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{Seed: 20240601, Steps: 6000, Batch: 64, Workers: 2, LR: 2e-3, BlockFrac: 0.3, BlockyFrac: 0.35, LogEvery: 250}
}

// sampleRNG is the generator of one training sample.
func sampleRNG(seed, index uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, index*0x9e3779b97f4a7c15+1))
}

// trainShards is the number of slices a batch is cut into (a multiple of common core counts).
const trainShards = 4

// trainWorker owns the buffers of one goroutine.
type trainWorker struct {
	act *activations
	s   *scratch
	gr  glyphRenderer
}

// shardState is the gradient and statistics of one shard of a batch.
type shardState struct {
	grad *grads
	loss float64
	hits int
}

// drawSample fills dst with training sample number index and returns its label.
func (cfg *TrainConfig) drawSample(index uint64, byLetter [][]*BlockSample, gr *glyphRenderer, dst []float32) int {
	rng := sampleRNG(cfg.Seed, index)
	letter := int(index % Classes)
	if pool := byLetter[letter]; len(pool) > 0 && rng.Float64() < cfg.BlockFrac {
		b := pool[rng.IntN(len(pool))]
		if b.Settled != nil && rng.IntN(2) == 0 {
			copy(dst, b.Settled)
		} else {
			copy(dst, b.Static)
		}
		return letter
	}
	if cfg.HandwrittenFrac > 0 && rng.Float64() < cfg.HandwrittenFrac {
		for {
			faces := cfg.Faces
			if len(cfg.HandFaces) > 0 && rng.IntN(2) == 0 {
				faces = cfg.HandFaces
			}
			if gr.fontSample(faces[rng.IntN(len(faces))], letter, Handwritten, rng, dst) {
				return letter
			}
		}
	}
	kind := Smooth
	if rng.Float64() < cfg.BlockyFrac {
		kind = Blocky
	}
	for {
		face := cfg.Faces[rng.IntN(len(cfg.Faces))]
		if gr.fontSample(face, letter, kind, rng, dst) {
			return letter
		}
	}
}

// Train trains a network from scratch with Adam (linear warm-up, cosine decay) on a stream of
// fresh synthetic samples, classes balanced within every batch.
func Train(cfg TrainConfig) (*Net, error) {
	if len(cfg.Faces) == 0 {
		return nil, fmt.Errorf("no fonts to train on")
	}
	cfg.Workers = max(cfg.Workers, 1)
	byLetter := make([][]*BlockSample, Classes)
	for _, b := range cfg.Blocks {
		byLetter[b.Letter] = append(byLetter[b.Letter], b)
	}
	net := NewRandomNet(rand.New(rand.NewPCG(cfg.Seed, 0)))
	params := net.params()
	m1, m2 := make([][]float32, len(params)), make([][]float32, len(params))
	for i, p := range params {
		m1[i], m2[i] = make([]float32, len(p)), make([]float32, len(p))
	}
	workers := make([]*trainWorker, min(cfg.Workers, trainShards))
	for i := range workers {
		workers[i] = &trainWorker{act: newActivations(), s: newScratch()}
	}
	shards := make([]*shardState, trainShards)
	for i := range shards {
		shards[i] = &shardState{grad: newNet()}
	}
	const beta1, beta2, eps, weightDecay = 0.9, 0.999, 1e-8, 1e-4
	warmup := min(300, cfg.Steps/10)
	start := time.Now()
	var runLoss float64
	var runHits, runN int
	for step := 0; step < cfg.Steps; step++ {
		var wg sync.WaitGroup
		for first, w := range workers {
			wg.Go(func() {
				for si := first; si < trainShards; si += len(workers) {
					sh := shards[si]
					for _, p := range sh.grad.params() {
						clear(p)
					}
					sh.loss, sh.hits = 0, 0
					for i := si * cfg.Batch / trainShards; i < (si+1)*cfg.Batch/trainShards; i++ {
						label := cfg.drawSample(uint64(step*cfg.Batch+i), byLetter, &w.gr, w.act.input)
						net.forward(w.act)
						if argmax(w.act.prob) == label {
							sh.hits++
						}
						sh.loss += float64(net.backward(w.act, label, sh.grad, w.s))
					}
				}
			})
		}
		wg.Wait()
		total := shards[0].grad.params()
		for _, sh := range shards[1:] {
			for i, p := range sh.grad.params() {
				axpy(1, p, total[i])
			}
		}
		for _, sh := range shards {
			runLoss += sh.loss
			runHits += sh.hits
		}
		runN += cfg.Batch
		lr := cfg.LR
		if step < warmup {
			lr *= float64(step+1) / float64(warmup)
		} else {
			t := float64(step-warmup) / float64(max(cfg.Steps-warmup, 1))
			lr *= 0.02 + 0.98*0.5*(1+math.Cos(math.Pi*t))
		}
		bc1 := 1 - math.Pow(beta1, float64(step+1))
		bc2 := 1 - math.Pow(beta2, float64(step+1))
		inv := float32(1 / float64(cfg.Batch))
		for i, p := range params {
			g, a, b := total[i], m1[i], m2[i]
			decay := float32(0)
			if isWeight(i) {
				decay = float32(lr * weightDecay)
			}
			for j := range p {
				gj := g[j] * inv
				a[j] = beta1*a[j] + (1-beta1)*gj
				b[j] = beta2*b[j] + (1-beta2)*gj*gj
				mh := float64(a[j]) / bc1
				vh := float64(b[j]) / bc2
				p[j] -= float32(lr*mh/(math.Sqrt(vh)+eps)) + decay*p[j]
			}
		}
		if cfg.Log != nil && cfg.LogEvery > 0 && (step+1)%cfg.LogEvery == 0 {
			fmt.Fprintf(cfg.Log, "step %5d/%d  loss %.4f  train acc %.3f  lr %.2e  %s\n", step+1, cfg.Steps,
				runLoss/float64(runN), float64(runHits)/float64(runN), lr, time.Since(start).Round(time.Second))
			runLoss, runHits, runN = 0, 0, 0
		}
		if cfg.Eval != nil && cfg.EvalEvery > 0 && (step+1)%cfg.EvalEvery == 0 && step+1 < cfg.Steps {
			cfg.Eval(step+1, net)
		}
	}
	return net, nil
}

// isWeight says whether parameter slice i (in Net.params order) is a weight matrix rather
// than a bias.
func isWeight(i int) bool { return i%2 == 0 }

func argmax(p []float32) int {
	best := 0
	for i, v := range p {
		if v > p[best] {
			best = i
		}
	}
	return best
}

// LabelledInputs is an evaluation set of prepared network inputs.
type LabelledInputs struct {
	Inputs [][]float32
	Labels []int
}

// Accuracy evaluates a network on a set: the share of top-1 hits, the mean probability of the
// true letter, and the confusion counts [true][predicted].
func Accuracy(n *Net, set LabelledInputs) (acc, meanTrue float64, confusion [Classes][Classes]int) {
	if len(set.Inputs) == 0 {
		return 0, 0, confusion
	}
	a := newActivations()
	hits := 0
	for i, in := range set.Inputs {
		copy(a.input, in)
		n.forward(a)
		p := argmax(a.prob)
		confusion[set.Labels[i]][p]++
		if p == set.Labels[i] {
			hits++
		}
		meanTrue += float64(a.prob[set.Labels[i]])
	}
	return float64(hits) / float64(len(set.Inputs)), meanTrue / float64(len(set.Inputs)), confusion
}

// GenerateBlockPool builds perLetter block letters of every letter (or fewer where the
// builder rarely succeeds: at most maxTries attempts per letter). Letters are generated in
// parallel, each from its own seeded generator, so the pool does not depend on scheduling.
func GenerateBlockPool(seed uint64, perLetter, maxTries, workers int, faces []*Face) []*BlockSample {
	out := make([][]*BlockSample, Classes)
	var g errgroup.Group
	g.SetLimit(max(workers, 1))
	for letter := range Classes {
		g.Go(func() error {
			var gr glyphRenderer
			rng := rand.New(rand.NewPCG(seed, uint64(letter)+1000))
			for try := 0; try < maxTries && len(out[letter]) < perLetter; try++ {
				if s, ok := gr.blockSample(letter, faces, rng); ok {
					out[letter] = append(out[letter], s)
				}
			}
			return nil
		})
	}
	g.Wait()
	var all []*BlockSample
	for _, l := range out {
		all = append(all, l...)
	}
	return all
}

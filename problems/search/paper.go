package search

import (
	"context"
	"math"

	"pcgwb/problems"
	"pcgwb/problems/space"
)

func swapContent(p problems.Problem, a, b problems.Content, rate float64, r space.Rand) problems.Content {
	return space.Swap(p.ContentSpace(), a, b, rate, -1, r)
}

// randomSearch is the paper's Random: every generation a fresh random population joins the
// current one and the best PopSize survive.
type randomSearch struct{ *engine }

func (g *randomSearch) init(ctx context.Context) error {
	return g.initRandom(ctx)
}

func (e *engine) initRandom(ctx context.Context) error {
	pop := e.randomBatch(e.opts.PopSize)
	if err := e.eval.evaluate(ctx, pop); err != nil {
		return err
	}
	e.sortPop(pop)
	e.pop = pop
	return nil
}

// survive evaluates the newcomers alone (their diversity is within their own batch, as in the
// reference), appends them to the current population and keeps the best size.
func (e *engine) survive(ctx context.Context, newcomers []*Individual, size int) error {
	if err := e.eval.evaluate(ctx, newcomers); err != nil {
		return err
	}
	all := append(append(make([]*Individual, 0, len(e.pop)+len(newcomers)), e.pop...), newcomers...)
	e.sortPop(all)
	e.pop = all[:min(size, len(all))]
	return nil
}

func (g *randomSearch) step(ctx context.Context) error {
	return g.survive(ctx, g.randomBatch(g.opts.PopSize), g.opts.PopSize)
}

// evolutionStrategy is the paper's μ+λ ES: λ mutants of uniformly drawn parents compete with
// the μ parents.
type evolutionStrategy struct{ *engine }

func (g *evolutionStrategy) init(ctx context.Context) error { return g.initRandom(ctx) }

func (g *evolutionStrategy) step(ctx context.Context) error {
	children := make([]*Individual, g.opts.Lambda)
	for i := range children {
		children[i] = g.mutate(g.pop[g.rng.IntN(len(g.pop))])
	}
	return g.survive(ctx, children, g.opts.PopSize)
}

// geneticAlgorithm is the paper's GA: ceil(elitism·pop) elites are copied, the rest are
// tournament-selected, crossed over with probability CrossoverRate, and always mutated; the
// whole new population is evaluated together.
type geneticAlgorithm struct{ *engine }

func (g *geneticAlgorithm) init(ctx context.Context) error { return g.initRandom(ctx) }

// selectOne is the reference's tournament: shuffle the indices, take the first min(T, pop),
// and return the fittest of them (the first one on ties).
func (g *geneticAlgorithm) selectOne() *Individual {
	idx := make([]int, len(g.pop))
	for i := range idx {
		idx[i] = i
	}
	g.rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	size := min(g.opts.Tournament, len(g.pop))
	best := g.pop[idx[0]]
	bestF := g.Fitness(best)
	for _, i := range idx[1:size] {
		if f := g.Fitness(g.pop[i]); f > bestF {
			best, bestF = g.pop[i], f
		}
	}
	return best
}

func (g *geneticAlgorithm) step(ctx context.Context) error {
	size := g.opts.PopSize
	elites := int(math.Ceil(float64(size) * g.opts.Elitism))
	next := make([]*Individual, 0, size)
	next = append(next, g.pop[:min(elites, len(g.pop))]...)
	b := &brood{e: g.engine}
	for len(next)+len(b.out) < size {
		a := g.selectOne()
		var mate *Individual
		if g.rng.Float64() < g.opts.CrossoverRate {
			mate = g.selectOne()
		}
		b.add(a, mate)
	}
	children, err := b.finish(ctx)
	if err != nil {
		return err
	}
	next = append(next, children...)
	if err := g.eval.evaluate(ctx, next); err != nil {
		return err
	}
	g.sortPop(next)
	g.pop = next
	return nil
}

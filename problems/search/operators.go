package search

import (
	"context"
	"fmt"
	"math"

	"pcgwb/problems"
)

// Operator is the injection point for the GA's and MAP-Elites' variation: an operator (a
// language model, see pcgwb/llm) is asked for some of the children instead of the random
// mutation and uniform crossover. The search still selects the parents (tournament, archive
// cells), evaluates the children and decides who survives. Without an operator (the built-in
// "ga" and "mapelites") nothing of this runs and a seed gives the same run as ever.
type Operator interface {
	// Rate is the probability that a child is asked from the operator; the others are made by
	// the random operators.
	Rate() float64
	// Children answers one content per variation, in order. A nil content means the operator
	// has no usable child for it (an invalid answer after repairs, a failed request): the search
	// then makes that child with its random operators. An error stops the generation (the
	// generator is left as before it).
	Children(ctx context.Context, generation int, vs []Variation) ([]problems.Content, error)
}

// Variation is one child asked from an Operator: a mutation of one parent, or a crossover of
// two.
type Variation struct {
	// Index is the child's place among the children of the generation.
	Index int
	// Parents are the selected individuals (evaluated, with their MAP-Elites Features and Cell
	// when the search has an archive). They belong to the search: read them only.
	Parents []*Individual
}

// Crossover tells whether the variation has two parents.
func (v Variation) Crossover() bool { return len(v.Parents) == 2 }

// NewWithOperator makes the built-in generator base ("ga" or "mapelites") for problem p under
// the name name, asking op for a share of its children (op.Rate). Options get base's defaults.
// The generator saves and loads like base; the operator's own state is its caller's.
func NewWithOperator(p problems.Problem, base, name string, opts Options, op Operator) (Generator, error) {
	if base != "ga" && base != "mapelites" {
		return nil, fmt.Errorf("an operator can drive ga or mapelites, not %q", base)
	}
	if op == nil {
		return nil, fmt.Errorf("%s: no operator", name)
	}
	if r := op.Rate(); !(r >= 0 && r <= 1) {
		return nil, fmt.Errorf("%s: the operator rate must be in [0, 1], got %v", name, r)
	}
	g, err := newEngine(p, base, opts.WithDefaults(base))
	if err != nil {
		return nil, err
	}
	e := g.(*engine)
	e.name, e.op = name, op
	return e, nil
}

// slot is one child to make: its parents and whether the operator is asked for it.
type slot struct {
	a, b *Individual
	ask  bool
}

// draw decides, after the parents were drawn, whether the operator makes the child.
func (e *engine) draw(a, b *Individual) slot {
	return slot{a: a, b: b, ask: e.rng.Float64() < e.op.Rate()}
}

// vary makes the children of slots: the operator's first (one request for all of them, so it
// can ask concurrently), then, in slot order, the random operators for the others and for the
// variations the operator could not answer. The child of an operator takes its first parent's
// control, as mutation does.
func (e *engine) vary(ctx context.Context, slots []slot) ([]*Individual, error) {
	var vs []Variation
	for i, s := range slots {
		if !s.ask {
			continue
		}
		v := Variation{Index: i, Parents: []*Individual{s.a}}
		if s.b != nil {
			v.Parents = append(v.Parents, s.b)
		}
		vs = append(vs, v)
	}
	answers := map[int]problems.Content{}
	if len(vs) > 0 {
		got, err := e.op.Children(ctx, e.generation+1, vs)
		if err != nil {
			return nil, err
		}
		if len(got) != len(vs) {
			return nil, fmt.Errorf("%s: the operator answered %d children for %d variations", e.name, len(got), len(vs))
		}
		for k, v := range vs {
			if got[k] != nil {
				answers[v.Index] = got[k]
			}
		}
	}
	out := make([]*Individual, len(slots))
	for i, s := range slots {
		if c, ok := answers[i]; ok {
			out[i] = NewIndividual(c, s.a.Control)
			continue
		}
		child := s.a
		if s.b != nil {
			child = e.crossover(s.a, s.b)
		}
		out[i] = e.mutate(child)
	}
	return out, nil
}

// stepWithOperator is the GA's step when an operator makes some children: the same elites,
// tournaments and crossover draws, then one more draw per child for the operator.
func (g *geneticAlgorithm) stepWithOperator(ctx context.Context) error {
	size := g.opts.PopSize
	elites := int(math.Ceil(float64(size) * g.opts.Elitism))
	next := make([]*Individual, 0, size)
	next = append(next, g.pop[:min(elites, len(g.pop))]...)
	var slots []slot
	for len(next)+len(slots) < size {
		a := g.selectOne()
		var b *Individual
		if g.rng.Float64() < g.opts.CrossoverRate {
			b = g.selectOne()
		}
		slots = append(slots, g.draw(a, b))
	}
	children, err := g.vary(ctx, slots)
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

// stepWithOperator is MAP-Elites' step when an operator makes some children: parents drawn
// from the archive as usual, then one more draw per child for the operator.
func (g *mapElites) stepWithOperator(ctx context.Context) error {
	elites := g.elitesInCellOrder()
	slots := make([]slot, g.opts.PopSize)
	for i := range slots {
		a := elites[g.rng.IntN(len(elites))]
		var b *Individual
		if g.rng.Float64() < g.opts.CrossoverRate {
			b = elites[g.rng.IntN(len(elites))]
		}
		slots[i] = g.draw(a, b)
	}
	children, err := g.vary(ctx, slots)
	if err != nil {
		return err
	}
	if err := g.eval.evaluate(ctx, children); err != nil {
		return err
	}
	return g.offer(children)
}

package search

import (
	"context"
	"fmt"
	"strings"

	"pcgwb/problems"
)

// Operator is the injection point for the GA's and MAP-Elites' variation: an operator (a
// language model, see pcgwb/llm) is asked for some of the children instead of the random
// mutation and uniform crossover. The search still selects the parents (tournament, archive
// cells), evaluates the children and decides who survives. Without an operator (the built-in
// "ga" and "mapelites") nothing of this runs and a seed gives the same run as ever; with an
// operator of rate 0 the run draws exactly the built-in generator's random numbers, so it is
// the built-in run under another name.
type Operator interface {
	// Rate is the probability that a child is asked from the operator; the others are made by
	// the random operators.
	Rate() float64
	// Children answers one child per variation, in order. An answer without content means the
	// operator has no usable child for it (an invalid answer after repairs, a failed request):
	// the search then makes that child with its random operators (OriginFallback). An error
	// stops the generation (the generator is left as before it).
	Children(ctx context.Context, generation int, vs []Variation) ([]Answer, error)
}

// Answer is an operator's child: its content (nil: none) and its origin (OriginModel when
// empty; OriginRepair for an answer the operator had to ask again for).
type Answer struct {
	Content problems.Content
	Origin  string
}

// The origins of the individuals of a run with an operator (problems.Scored.Origin,
// final.json's "origin"); the built-in generators record none.
const (
	// OriginInitial: a random sample of the first population.
	OriginInitial = "initial"
	// OriginOperators: made by the random mutation and crossover, the operator not asked.
	OriginOperators = "operators"
	// OriginModel: the operator's (the model's) first answer.
	OriginModel = "model"
	// OriginRepair: the operator's answer after a re-ask.
	OriginRepair = "repair"
	// OriginFallback: asked from the operator, which had no usable child, so made by the
	// random operators.
	OriginFallback = "fallback"
)

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
	if b, ok := builtinNamed(base); !ok || !b.operable {
		return nil, fmt.Errorf("an operator can drive %s, not %q", strings.Join(operableBuiltins(), " or "), base)
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

// operableBuiltins are the built-in generators an Operator can drive.
func operableBuiltins() []string {
	var out []string
	for _, b := range builtins {
		if b.operable {
			out = append(out, b.Name)
		}
	}
	return out
}

// brood makes one generation's children in order, after each one's parents were drawn (add).
// Without an operator, or with an operator of rate 0, a child is made at once by the random
// operators, so the random draws are the built-in generator's exactly; with one, one more draw
// per child decides whether the operator is asked, and finish asks it for all of its children
// at once (so it can ask concurrently), then makes the ones it could not answer with the random
// operators, in order.
type brood struct {
	e     *engine
	out   []*Individual
	asked []Variation
}

// add makes (or plans) the child of a, crossed over with mate when mate is not nil.
func (b *brood) add(a, mate *Individual) {
	e := b.e
	if e.op != nil && e.op.Rate() > 0 && e.rng.Float64() < e.op.Rate() {
		v := Variation{Index: len(b.out), Parents: []*Individual{a}}
		if mate != nil {
			v.Parents = append(v.Parents, mate)
		}
		b.asked = append(b.asked, v)
		b.out = append(b.out, nil)
		return
	}
	b.out = append(b.out, b.random(a, mate, OriginOperators))
}

// random is the built-in variation: a crossover with mate (when set), then a mutation.
func (b *brood) random(a, mate *Individual, origin string) *Individual {
	child := a
	if mate != nil {
		child = b.e.crossover(a, mate)
	}
	return b.made(b.e.mutate(child), origin)
}

// made records where a child came from when the run has an operator (the built-in runs record
// nothing, so their files stay as they were).
func (b *brood) made(ind *Individual, origin string) *Individual {
	if b.e.op != nil {
		ind.Origin, ind.Born = origin, b.e.generation+1
	}
	return ind
}

// finish asks the operator for the planned children and returns the generation's children.
// The child of an operator takes its first parent's control, as mutation does.
func (b *brood) finish(ctx context.Context) ([]*Individual, error) {
	if len(b.asked) == 0 {
		return b.out, nil
	}
	e := b.e
	got, err := e.op.Children(ctx, e.generation+1, b.asked)
	if err != nil {
		return nil, err
	}
	if len(got) != len(b.asked) {
		return nil, fmt.Errorf("%s: the operator answered %d children for %d variations", e.name, len(got), len(b.asked))
	}
	for k, v := range b.asked {
		if got[k].Content == nil {
			continue
		}
		origin := got[k].Origin
		if origin == "" {
			origin = OriginModel
		}
		b.out[v.Index] = b.made(NewIndividual(got[k].Content, v.Parents[0].Control), origin)
	}
	for _, v := range b.asked {
		if b.out[v.Index] == nil {
			var mate *Individual
			if v.Crossover() {
				mate = v.Parents[1]
			}
			b.out[v.Index] = b.random(v.Parents[0], mate, OriginFallback)
		}
	}
	return b.out, nil
}

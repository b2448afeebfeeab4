package search

import (
	"context"
	"errors"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/search/searchtest"
	"pcgwb/problems/space"
)

// allOnes is an operator whose children are all ones (the toy's best content) for even
// indices and who gives up (nil) on odd ones; it records what it was asked.
type allOnes struct {
	rate  float64
	fail  error
	asked []Variation
	gens  []int
}

func (o *allOnes) Rate() float64 { return o.rate }

func (o *allOnes) Children(_ context.Context, gen int, vs []Variation) ([]problems.Content, error) {
	if o.fail != nil {
		return nil, o.fail
	}
	o.gens = append(o.gens, gen)
	out := make([]problems.Content, len(vs))
	for i, v := range vs {
		o.asked = append(o.asked, v)
		if v.Index%2 == 0 {
			vals := make([]float64, searchtest.ToySide*searchtest.ToySide)
			for k := range vals {
				vals[k] = 1
			}
			c, err := space.Restructure((&searchtest.Toy{}).ContentSpace(), vals)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
	}
	return out, nil
}

func newWithOp(t *testing.T, base string, op Operator) Generator {
	t.Helper()
	opts := Options{Seed: 4, PopSize: 10}
	if base == "mapelites" {
		opts.Axes = fakeAxes
	}
	g, err := NewWithOperator(&searchtest.Toy{}, base, "op-"+base, opts, op)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	return g
}

// The operator is asked for a share of the children with the parents the search selected; its
// answers join the population and its nil answers are made by the random operators.
func TestOperatorMakesChildrenAndFallsBack(t *testing.T) {
	for _, tc := range []struct {
		base string
		rate float64
	}{{"ga", 1}, {"ga", 0.5}, {"mapelites", 1}, {"mapelites", 0.3}, {"ga", 0}} {
		t.Run(tc.base, func(t *testing.T) {
			op := &allOnes{rate: tc.rate}
			g := newWithOp(t, tc.base, op)
			runSteps(t, g, 3)
			if g.Name() != "op-"+tc.base {
				t.Errorf("name %q", g.Name())
			}
			perGen := 10
			if tc.base == "ga" {
				perGen = 9 // one elite
			}
			switch {
			case tc.rate == 1 && len(op.asked) != 3*perGen:
				t.Errorf("asked %d children, want %d", len(op.asked), 3*perGen)
			case tc.rate == 0 && len(op.asked) != 0:
				t.Errorf("rate 0: asked %d children", len(op.asked))
			case tc.rate > 0 && tc.rate < 1 && (len(op.asked) == 0 || len(op.asked) >= 3*perGen):
				t.Errorf("rate %v: asked %d of %d children", tc.rate, len(op.asked), 3*perGen)
			}
			for i, gen := range op.gens {
				if gen < 1 || gen > 3 || (i > 0 && gen < op.gens[i-1]) {
					t.Errorf("asked for generation %d after %v", gen, op.gens[:i])
				}
			}
			for _, v := range op.asked {
				if len(v.Parents) < 1 || len(v.Parents) > 2 || v.Crossover() != (len(v.Parents) == 2) {
					t.Fatalf("variation %+v", v)
				}
				for _, p := range v.Parents {
					if p.Info == nil || (tc.base == "mapelites" && (p.Cell < 0 || len(p.Features) != 2)) {
						t.Fatalf("parent not evaluated or not placed: %+v", p)
					}
				}
			}
			if tc.rate == 1 && g.Best() < 1 {
				t.Errorf("best %v: the operator's all-ones child should have won", g.Best())
			}
		})
	}
}

// A generator with an operator saves and loads like its base: a resumed run continues bit for
// bit; an operator's error leaves the generator as it was.
func TestOperatorResumesAndFailsCleanly(t *testing.T) {
	for _, base := range []string{"ga", "mapelites"} {
		t.Run(base, func(t *testing.T) {
			a := newWithOp(t, base, &allOnes{rate: 0.5})
			runSteps(t, a, 2)
			st := saved(t, a)
			s, _ := a.Save()
			runSteps(t, a, 2)
			b := newWithOp(t, base, &allOnes{rate: 0.5})
			if err := b.Load(context.Background(), s); err != nil {
				t.Fatal(err)
			}
			if saved(t, b) != st {
				t.Fatal("the loaded state differs")
			}
			runSteps(t, b, 2)
			if saved(t, a) != saved(t, b) {
				t.Error("the resumed run differs from the uninterrupted one")
			}
			boom := errors.New("model down")
			op := &allOnes{rate: 1}
			c := newWithOp(t, base, op)
			before := saved(t, c)
			op.fail = boom
			if err := c.Step(context.Background()); !errors.Is(err, boom) {
				t.Fatalf("step: %v, want the operator's error", err)
			}
			if saved(t, c) != before || c.Generation() != 0 {
				t.Error("a failed step changed the generator")
			}
		})
	}
}

func TestNewWithOperatorChecks(t *testing.T) {
	for _, tc := range []struct {
		base string
		op   Operator
	}{{"es", &allOnes{}}, {"ga", nil}, {"ga", &allOnes{rate: 2}}, {"mapelites", &allOnes{}}} {
		if _, err := NewWithOperator(&searchtest.Toy{}, tc.base, "x", Options{PopSize: 4}, tc.op); err == nil {
			t.Errorf("%s with %+v: no error", tc.base, tc.op)
		}
	}
}

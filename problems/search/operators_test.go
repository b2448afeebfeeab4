package search

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

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

func (o *allOnes) Children(_ context.Context, gen int, vs []Variation) ([]Answer, error) {
	if o.fail != nil {
		return nil, o.fail
	}
	o.gens = append(o.gens, gen)
	out := make([]Answer, len(vs))
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
			out[i] = Answer{Content: c, Origin: [2]string{"", OriginRepair}[v.Index%4/2]}
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

// An operator of rate 0 is never asked and the run draws the built-in generator's random
// numbers exactly: the same populations (contents, controls, values, cells, in order), the same
// evaluations and the same random state after every generation; only the name and the
// origins the operator's run records differ.
func TestOperatorAtRateZeroIsTheBuiltInRun(t *testing.T) {
	for _, base := range []string{"ga", "mapelites"} {
		t.Run(base, func(t *testing.T) {
			opts := Options{Seed: 4, PopSize: 10}
			if base == "mapelites" {
				opts.Axes = fakeAxes
			}
			plain, err := New(&searchtest.Toy{}, base, opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := plain.Reset(context.Background()); err != nil {
				t.Fatal(err)
			}
			op := &allOnes{}
			g := newWithOp(t, base, op)
			for gen := 0; gen <= 4; gen++ {
				if gen > 0 {
					runSteps(t, plain, 1)
					runSteps(t, g, 1)
				}
				a, b := mustSave(t, plain), mustSave(t, g)
				if string(a.RNG) != string(b.RNG) || a.Evaluations != b.Evaluations || len(a.Population) != len(b.Population) {
					t.Fatalf("generation %d: random state, evaluations or size differ", gen)
				}
				for i := range a.Population {
					pa, pb := a.Population[i], b.Population[i]
					if pa.Origin != "" {
						t.Fatalf("the built-in %s records an origin %q", base, pa.Origin)
					}
					if want := map[bool]string{true: OriginInitial, false: OriginOperators}[pb.Born == 0]; pb.Origin != want || pb.Born > gen {
						t.Fatalf("generation %d: individual %d has origin %q born %d, want %q", gen, i, pb.Origin, pb.Born, want)
					}
					pb.Origin, pb.Born = "", 0
					if ja, jb := mustJSON(t, pa), mustJSON(t, pb); ja != jb {
						t.Fatalf("generation %d: individual %d differs:\n%s\n%s", gen, i, ja, jb)
					}
				}
			}
			if len(op.asked) != 0 {
				t.Errorf("rate 0: the operator was asked %d times", len(op.asked))
			}
		})
	}
}

// Every child of a run with an operator says what made it: the operator's answers (model or
// repair, as the operator said), the random operators for the children it was not asked for,
// and a fallback for the ones it gave up on; born is the generation that made it.
func TestOperatorChildrenRecordTheirOrigin(t *testing.T) {
	for _, base := range []string{"ga", "mapelites"} {
		t.Run(base, func(t *testing.T) {
			op := &allOnes{rate: 0.6}
			g := newWithOp(t, base, op)
			asked := map[int]bool{}
			runSteps(t, g, 1)
			for _, v := range op.asked {
				asked[v.Index] = true
			}
			counts := map[string]int{}
			for _, ind := range g.Population() {
				counts[ind.Origin]++
				if (ind.Origin == OriginInitial) != (ind.Born == 0) || ind.Born > 1 {
					t.Errorf("origin %q born %d", ind.Origin, ind.Born)
				}
			}
			st := mustSave(t, g)
			for i, si := range st.Population {
				if si.Origin != g.Population()[i].Origin || si.Born != g.Population()[i].Born {
					t.Fatalf("the checkpoint loses individual %d's origin", i)
				}
			}
			if len(op.asked) == 0 || counts[OriginModel]+counts[OriginRepair]+counts[OriginFallback]+counts[OriginOperators] == 0 {
				t.Fatalf("origins %v after %d variations asked", counts, len(op.asked))
			}
			if base == "ga" { // the GA keeps every child: the counts are exact
				want := map[string]int{OriginInitial: 1, OriginOperators: 9 - len(op.asked)}
				for _, v := range op.asked {
					want[[4]string{OriginModel, OriginFallback, OriginRepair, OriginFallback}[v.Index%4]]++
				}
				for k, n := range want {
					if counts[k] != n {
						t.Errorf("origins %v, want %v", counts, want)
						break
					}
				}
			}
			for k := range counts {
				switch k {
				case OriginInitial, OriginOperators, OriginModel, OriginRepair, OriginFallback:
				default:
					t.Errorf("unknown origin %q", k)
				}
			}
		})
	}
}

func mustSave(t *testing.T, g Generator) *State {
	t.Helper()
	s, err := g.Save()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

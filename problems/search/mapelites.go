package search

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"pcgwb/problems"
)

// Axis is one MAP-Elites feature dimension: a numeric info field (a dotted path into the info's
// JSON, e.g. "regions" or "path"), or the pseudo-fields "quality" and "controllability", cut into
// Bins equal bins over [Min, Max]; values outside the range fall into the end bins.
type Axis struct {
	Field string  `json:"field"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Bins  int     `json:"bins"`
}

// ParseAxes reads "field:min:max[:bins],field:min:max[:bins]" (bins default to 10).
func ParseAxes(s string) ([]Axis, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []Axis
	for _, part := range strings.Split(s, ",") {
		f := strings.Split(strings.TrimSpace(part), ":")
		if len(f) != 3 && len(f) != 4 {
			return nil, fmt.Errorf("axis %q: want field:min:max[:bins]", part)
		}
		a := Axis{Field: f[0], Bins: 10}
		var err error
		if a.Min, err = strconv.ParseFloat(f[1], 64); err != nil {
			return nil, fmt.Errorf("axis %q: min: %w", part, err)
		}
		if a.Max, err = strconv.ParseFloat(f[2], 64); err != nil {
			return nil, fmt.Errorf("axis %q: max: %w", part, err)
		}
		if len(f) == 4 {
			if a.Bins, err = strconv.Atoi(f[3]); err != nil {
				return nil, fmt.Errorf("axis %q: bins: %w", part, err)
			}
		}
		out = append(out, a)
	}
	return out, nil
}

func (a Axis) bin(v float64) int {
	if math.IsNaN(v) {
		return 0
	}
	b := int(math.Floor((v - a.Min) / (a.Max - a.Min) * float64(a.Bins)))
	return max(0, min(a.Bins-1, b))
}

// mapElites keeps the fittest individual of every cell of a two-dimensional grid over two info
// fields. Each generation PopSize children are made from uniformly drawn elites (uniform
// crossover with a second elite with probability CrossoverRate, then the usual mutation),
// evaluated as one batch (so, as everywhere here, diversity is within that batch) and offered to
// the archive: a child takes its cell if the cell is empty or the child is strictly fitter.
type mapElites struct {
	*engine
	cells map[int]*Individual
}

func newMapElites(e *engine) (*mapElites, error) {
	axes := e.opts.Axes
	if len(axes) != 2 {
		return nil, fmt.Errorf("mapelites needs two axes (field:min:max[:bins],field:min:max[:bins]), got %d", len(axes))
	}
	for _, a := range axes {
		if a.Field == "" || a.Bins < 1 || !(a.Max > a.Min) {
			return nil, fmt.Errorf("axis %q: needs a field, bins >= 1 and max > min", a.Field)
		}
	}
	return &mapElites{engine: e, cells: map[int]*Individual{}}, nil
}

func (g *mapElites) init(ctx context.Context) error {
	g.cells = map[int]*Individual{}
	batch := g.randomBatch(g.opts.PopSize)
	if err := g.eval.evaluate(ctx, batch); err != nil {
		return err
	}
	return g.offer(batch)
}

func (g *mapElites) step(ctx context.Context) error {
	elites := g.elitesInCellOrder()
	b := &brood{e: g.engine}
	for range g.opts.PopSize {
		a := elites[g.rng.IntN(len(elites))]
		var mate *Individual
		if g.rng.Float64() < g.opts.CrossoverRate {
			mate = elites[g.rng.IntN(len(elites))]
		}
		b.add(a, mate)
	}
	children, err := b.finish(ctx)
	if err != nil {
		return err
	}
	if err := g.eval.evaluate(ctx, children); err != nil {
		return err
	}
	return g.offer(children)
}

// offer places evaluated individuals into a copy of the archive and, if all went well, makes it
// the archive (a failure leaves the archive untouched).
func (g *mapElites) offer(batch []*Individual) error {
	next := make(map[int]*Individual, len(g.cells)+len(batch))
	for k, v := range g.cells {
		next[k] = v
	}
	for _, ind := range batch {
		if err := g.place(ind); err != nil {
			return err
		}
		old, ok := next[ind.Cell]
		if !ok || g.Fitness(ind) > g.Fitness(old) {
			next[ind.Cell] = ind
		}
	}
	g.cells = next
	g.pop = g.elitesInCellOrder()
	g.sortPop(g.pop)
	return nil
}

func (g *mapElites) place(ind *Individual) error {
	feats, err := features(g.p, ind, g.opts.Axes)
	if err != nil {
		return err
	}
	ind.Features = feats
	a, b := g.opts.Axes[0], g.opts.Axes[1]
	ind.Cell = b.bin(feats[1])*a.Bins + a.bin(feats[0])
	return nil
}

func (g *mapElites) elitesInCellOrder() []*Individual {
	keys := make([]int, 0, len(g.cells))
	for k := range g.cells {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	out := make([]*Individual, len(keys))
	for i, k := range keys {
		out[i] = g.cells[k]
	}
	return out
}

func (g *mapElites) restore(pop []*Individual) error {
	g.cells = make(map[int]*Individual, len(pop))
	for _, ind := range pop {
		saved := ind.Cell
		if err := g.place(ind); err != nil {
			return err
		}
		if saved >= 0 && saved != ind.Cell {
			return fmt.Errorf("archive cell %d does not match the individual's features (cell %d)", saved, ind.Cell)
		}
		g.cells[ind.Cell] = ind
	}
	return nil
}

func (g *mapElites) view() *ArchiveView {
	elites := g.elitesInCellOrder()
	v := &ArchiveView{Axes: g.opts.Axes, Filled: len(g.cells), Outside: outside(g.opts.Axes, elites)}
	for _, ind := range elites {
		a := g.opts.Axes[0]
		v.Cells = append(v.Cells, Cell{X: ind.Cell % a.Bins, Y: ind.Cell / a.Bins, Fitness: g.Fitness(ind), Feasible: ind.Feasible()})
	}
	return v
}

// features reads the axes' fields from an evaluated individual.
func features(p problems.Problem, ind *Individual, axes []Axis) ([]float64, error) {
	var fields map[string]float64
	out := make([]float64, len(axes))
	for i, a := range axes {
		switch a.Field {
		case "quality":
			out[i] = ind.Quality
			continue
		case "controllability", "controlability":
			out[i] = ind.Controllability
			continue
		}
		if fields == nil {
			var err error
			if fields, err = FlattenInfo(ind.Info); err != nil {
				return nil, err
			}
		}
		v, ok := fields[a.Field]
		if !ok {
			return nil, fmt.Errorf("the info has no numeric field %q (numeric fields: %s)", a.Field, strings.Join(NumericFields(ind.Info), ", "))
		}
		out[i] = v
	}
	return out, nil
}

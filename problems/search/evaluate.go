package search

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"

	"pcgwb/problems"
)

// evaluator computes infos once per distinct content and keeps the infos and pairwise
// diversities still in use, so individuals carried from one generation to the next (elites,
// unchanged mutants, duplicates) cost nothing to evaluate again.
type evaluator struct {
	p      problems.Problem
	infos  map[string]infoEntry // content key -> info, pruned to the living individuals
	pairs  map[[2]uint64]float64
	nextID uint64
	// computed counts the info computations: the run's "evaluations".
	computed int
}

type infoEntry struct {
	info problems.Info
	id   uint64
}

func newEvaluator(p problems.Problem) *evaluator {
	return &evaluator{p: p, infos: map[string]infoEntry{}, pairs: map[[2]uint64]float64{}}
}

// contentKey is the canonical JSON of a content (Go sorts map keys), so equal contents share
// a key whatever produced them.
func contentKey(c problems.Content) (string, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("content does not encode: %w", err)
	}
	return string(b), nil
}

// attachInfos gives every individual of batch its info, computing (in parallel) only those of
// contents not seen before.
func (e *evaluator) attachInfos(ctx context.Context, batch []*Individual) error {
	var todo []problems.Content
	var todoKeys []string
	waiting := map[string][]*Individual{}
	for _, ind := range batch {
		if ind.Info != nil {
			continue
		}
		if ind.key == "" {
			k, err := contentKey(ind.Content)
			if err != nil {
				return err
			}
			ind.key = k
		}
		if ent, ok := e.infos[ind.key]; ok {
			ind.Info, ind.infoID = ent.info, ent.id
			continue
		}
		if _, ok := waiting[ind.key]; !ok {
			todo = append(todo, ind.Content)
			todoKeys = append(todoKeys, ind.key)
		}
		waiting[ind.key] = append(waiting[ind.key], ind)
	}
	if len(todo) == 0 {
		return nil
	}
	infos, err := problems.Infos(ctx, e.p, todo)
	if err != nil {
		return err
	}
	for i, info := range infos {
		e.nextID++
		ent := infoEntry{info: info, id: e.nextID}
		e.infos[todoKeys[i]] = ent
		for _, ind := range waiting[todoKeys[i]] {
			ind.Info, ind.infoID = ent.info, ent.id
		}
	}
	e.computed += len(todo)
	return nil
}

// evaluate is the reference's evaluateChromosomes: infos, then per-item quality and
// controllability, and the greedy set diversity of the batch.
func (e *evaluator) evaluate(ctx context.Context, batch []*Individual) error {
	if err := e.attachInfos(ctx, batch); err != nil {
		return err
	}
	for _, ind := range batch {
		ind.Quality = e.p.Quality(ind.Info)
		ind.Controllability = e.p.Controllability(ind.Info, ind.Control)
	}
	d, err := e.diversityMatrix(ctx, batch)
	if err != nil {
		return err
	}
	for i, v := range problems.GreedyDiversity(d) {
		batch[i].Diversity = v
	}
	return nil
}

// diversityMatrix is problems.DiversityMatrix over the batch, computed once per pair of
// distinct infos, in parallel, reusing the pairs of the previous batch.
func (e *evaluator) diversityMatrix(ctx context.Context, batch []*Individual) ([][]float64, error) {
	var ids []uint64
	var infos []problems.Info
	slot := map[uint64]int{}
	at := make([]int, len(batch))
	for i, ind := range batch {
		s, ok := slot[ind.infoID]
		if !ok {
			s = len(ids)
			slot[ind.infoID] = s
			ids = append(ids, ind.infoID)
			infos = append(infos, ind.Info)
		}
		at[i] = s
	}
	k := len(ids)
	u := make([][]float64, k)
	for i := range u {
		u[i] = make([]float64, k)
	}
	type pair struct{ i, j int }
	var todo []pair
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			if v, ok := e.pairs[[2]uint64{ids[i], ids[j]}]; ok {
				u[i][j] = v
			} else {
				todo = append(todo, pair{i, j})
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, len(todo)/64))
	var wg sync.WaitGroup
	var firstErr error
	var errMu sync.Mutex
	chunk := (len(todo) + workers - 1) / max(workers, 1)
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, len(todo))
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func(part []pair) {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					errMu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("diversity failed: %v", r)
					}
					errMu.Unlock()
				}
			}()
			for n, pr := range part {
				if n%256 == 0 && ctx.Err() != nil {
					return
				}
				u[pr.i][pr.j] = e.p.Diversity(infos[pr.i], infos[pr.j])
			}
		}(todo[lo:hi])
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if firstErr != nil {
		return nil, firstErr
	}
	// Keep only this batch's pairs: the next batch shares individuals with this one (elites,
	// survivors, duplicates) far more than with older ones, and memory stays bounded.
	pairs := make(map[[2]uint64]float64, k*k)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			pairs[[2]uint64{ids[i], ids[j]}] = u[i][j]
		}
	}
	e.pairs = pairs
	d := make([][]float64, len(batch))
	for i := range d {
		d[i] = make([]float64, len(batch))
		for j := range d[i] {
			d[i][j] = u[at[i]][at[j]]
		}
	}
	return d, nil
}

// keep drops cached infos of contents no longer alive.
func (e *evaluator) keep(alive []*Individual) {
	next := make(map[string]infoEntry, len(alive))
	for _, ind := range alive {
		if ind.key != "" && ind.Info != nil {
			next[ind.key] = infoEntry{info: ind.Info, id: ind.infoID}
		}
	}
	e.infos = next
}

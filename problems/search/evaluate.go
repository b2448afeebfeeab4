package search

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"

	"golang.org/x/sync/errgroup"

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
	// computed counts the info computations: the run's "evaluations", counted as if the run
	// were alone even when the shared cache gave the info.
	computed int
	// shared, when set, is the cache of the runs of this process (nil: the run computes
	// alone). Info ids then come from the cache, so equal batches of two runs have equal ids.
	shared *sharedView
	// diversity is the set-diversity algorithm (problems.DiversityAlgorithm; "" is current).
	diversity problems.DiversityAlgorithm
}

type infoEntry struct {
	info problems.Info
	id   uint64
}

func newEvaluator(p problems.Problem, shared *sharedView) *evaluator {
	return &evaluator{p: p, infos: map[string]infoEntry{}, pairs: map[[2]uint64]float64{}, shared: shared}
}

// contentKey is the canonical JSON of a content (Go sorts map keys), so equal contents share
// a key whatever produced them. The usual shapes (nested []any and map[string]any of ints,
// floats, bools and plain strings) are written directly, byte-equal to json.Marshal's output
// (which, through reflection, cost as much as a cheap problem's info); anything else goes
// through json.Marshal.
func contentKey(c problems.Content) (string, error) {
	if b, ok := appendKey(make([]byte, 0, 256), c); ok {
		return string(b), nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("content does not encode: %w", err)
	}
	return string(b), nil
}

// appendKey appends json.Marshal's encoding of v, or reports false for a value it does not
// write exactly as json.Marshal does.
func appendKey(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, x), true
	case int:
		return strconv.AppendInt(b, int64(x), 10), true
	case float64:
		return appendFloat(b, x)
	case string:
		return appendPlainString(b, x)
	case []any:
		if x == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendKey(b, e); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		if x == nil {
			return append(b, "null"...), true
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendPlainString(b, k); !ok {
				return b, false
			}
			b = append(b, ':')
			if b, ok = appendKey(b, x[k]); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendFloat is encoding/json's float64 format: shortest representation, exponent form
// outside [1e-6, 1e21) with a two-digit negative exponent shortened; NaN and infinities are
// json.Marshal's errors.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// appendPlainString quotes s when json.Marshal would write it unescaped: printable ASCII
// without quote, backslash or the HTML-escaped <, > and &.
func appendPlainString(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return b, false
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
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
	ents, err := e.computeInfos(ctx, todo, todoKeys)
	if err != nil {
		return err
	}
	for i, ent := range ents {
		e.infos[todoKeys[i]] = ent
		for _, ind := range waiting[todoKeys[i]] {
			ind.Info, ind.infoID = ent.info, ent.id
		}
	}
	e.computed += len(todo)
	return nil
}

// computeInfos computes the infos of contents (of content keys keys), or takes them from the
// shared cache.
func (e *evaluator) computeInfos(ctx context.Context, contents []problems.Content, keys []string) ([]infoEntry, error) {
	if e.shared != nil {
		return e.shared.infos(ctx, e.p, contents, keys)
	}
	infos, err := problems.Infos(ctx, e.p, contents)
	if err != nil {
		return nil, err
	}
	ents := make([]infoEntry, len(infos))
	for i, info := range infos {
		e.nextID++
		ents[i] = infoEntry{info: info, id: e.nextID}
	}
	return ents, nil
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
	for i, v := range problems.GreedyDiversityWith(e.diversity, d) {
		batch[i].Diversity = v
	}
	return nil
}

// diversityMatrix is problems.DiversityMatrix over the batch, computed once per pair of
// distinct infos, in parallel, reusing the pairs of the previous batch (and, with a shared
// cache, the matrix another run computed for the same infos).
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
	var u [][]float64
	var err error
	if e.shared != nil {
		u, err = e.shared.matrix(ctx, ids, func() ([][]float64, error) { return e.uniqueMatrix(ctx, ids, infos) })
	} else {
		u, err = e.uniqueMatrix(ctx, ids, infos)
	}
	if err != nil {
		return nil, err
	}
	k := len(ids)
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

// uniqueMatrix is the diversity matrix of the distinct infos (of ids): the previous batch's
// pairs are reused, the others computed. The result is only read afterwards (a shared cache
// hands it to other runs).
func (e *evaluator) uniqueMatrix(ctx context.Context, ids []uint64, infos []problems.Info) ([][]float64, error) {
	k := len(ids)
	u := make([][]float64, k)
	for i := range u {
		u[i] = make([]float64, k)
	}
	var todo []pair
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			if v, ok := e.pairs[[2]uint64{ids[i], ids[j]}]; ok {
				u[i][j] = v
			} else {
				todo = append(todo, pair{int32(i), int32(j)})
			}
		}
	}
	if err := fillPairs(ctx, e.p, infos, u, todo); err != nil {
		return nil, err
	}
	return u, nil
}

type pair struct{ i, j int32 }

// fillPairs sets u[i][j] = Diversity(infos[i], infos[j]) for the todo pairs, through the
// problem's fast kernels (problems.Kernels: features prepared once per info, bit-identical to
// Diversity by contract), once per pair of distinct DiversityKeys when the problem has them
// (equal keys, equal diversities), and once per unordered pair when its kernel is proven
// symmetric.
func fillPairs(ctx context.Context, p problems.Problem, infos []problems.Info, u [][]float64, todo []pair) error {
	if len(todo) == 0 {
		return nil
	}
	k := len(infos)
	rep := make([]int32, k) // the first info with the same diversity key, or itself
	for i := range rep {
		rep[i] = int32(i)
	}
	if dk, ok := p.(problems.DiversityKeyer); ok {
		first := map[string]int32{}
		for i, in := range infos {
			key := dk.DiversityKey(in)
			if r, seen := first[key]; seen {
				rep[i] = r
			} else {
				first[key] = int32(i)
			}
		}
	}
	symmetric := false
	if sk, ok := p.(problems.SymmetricDiversityKerneler); ok {
		if _, hasKernel := p.(problems.DiversityKerneler); hasKernel {
			symmetric = sk.SymmetricDiversityKernel()
		}
	}
	// need lists the distinct pairs of representatives to compute, at indexes into the
	// compact list of the representatives they involve (the kernels prepare only those).
	compact := make([]int32, k)
	for i := range compact {
		compact[i] = -1
	}
	var used []problems.Info
	index := func(r int32) int32 {
		if compact[r] < 0 {
			compact[r] = int32(len(used))
			used = append(used, infos[r])
		}
		return compact[r]
	}
	slot := make([]int32, k*k)
	for i := range slot {
		slot[i] = -1
	}
	var need []pair
	of := make([]int32, len(todo))
	for t, pr := range todo {
		a, b := rep[pr.i], rep[pr.j]
		if symmetric && a > b {
			a, b = b, a
		}
		n := &slot[int(a)*k+int(b)]
		if *n < 0 {
			*n = int32(len(need))
			need = append(need, pair{index(a), index(b)})
		}
		of[t] = *n
	}
	vals := make([]float64, len(need))
	mk, err := kernels(p, used)
	if err != nil {
		return err
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, len(need)/64))
	// Each worker takes a contiguous share of need. The first failure (a panic in the problem's
	// diversity) stops the others and is the error; a cancellation of ctx wins over it.
	g, gctx := errgroup.WithContext(ctx)
	for w := 0; w < workers; w++ {
		lo, hi := w*len(need)/workers, (w+1)*len(need)/workers
		if lo >= hi {
			continue
		}
		g.Go(func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("diversity failed: %v", r)
				}
			}()
			d := mk()
			for n := lo; n < hi; n++ {
				if (n-lo)%256 == 0 && gctx.Err() != nil {
					return nil
				}
				vals[n] = d(int(need[n].i), int(need[n].j))
			}
			return nil
		})
	}
	failed := g.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	if failed != nil {
		return failed
	}
	for t, pr := range todo {
		u[pr.i][pr.j] = vals[of[t]]
	}
	return nil
}

// kernels is problems.Kernels, a panic in the problem's preparation of the infos reported as
// an error like one in a pair's diversity.
func kernels(p problems.Problem, infos []problems.Info) (mk func() problems.PairKernel, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("diversity failed: %v", r)
		}
	}()
	return problems.Kernels(p, infos), nil
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

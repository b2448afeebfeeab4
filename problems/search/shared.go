package search

import (
	"context"
	"encoding/binary"
	"fmt"
	"reflect"
	"sync"

	"pcgwb/problems"
)

// SharedCache lets the runs of one process share the work they have in common: the info of a
// content and the diversity matrix of a batch. A sweep's random searches of one problem and
// seed sample the same contents whatever their fitness, and its ES and GA runs stay identical
// across fitnesses until an individual is feasible, so with the runs side by side two of three
// compute nothing. Runs read only what a run alone would compute (infos and diversities are
// functions of the contents), and each run still counts its evaluations as if it were alone,
// so everything a run writes is byte-identical with or without the cache.
//
// A key that one run is computing is waited for by the others (single flight) instead of being
// computed again. Memory is bounded by an approximate byte budget: entries live in two
// generations, the older one dropped whole when the newer one fills half the budget, so what
// runs side by side still need stays and the rest goes.
//
// A SharedCache is safe for concurrent use. The zero value is not usable: see NewSharedCache.
type SharedCache struct {
	mu     sync.Mutex
	half   int64 // bytes one generation may hold before it becomes the old one
	cur    map[string]*flight
	old    map[string]*flight
	bytes  int64 // of the completed entries of cur
	oldB   int64 // of the completed entries of old
	nextID uint64
	stats  SharedStats
}

// SharedStats counts what a SharedCache served.
type SharedStats struct {
	// InfoHits and MatrixHits count the infos and batch matrices a run took from the cache
	// (computed by another run or waited for); InfoMisses and MatrixMisses those it computed.
	InfoHits, InfoMisses, MatrixHits, MatrixMisses int
	// Evicted counts entries dropped to keep the budget.
	Evicted int
	// PeakBytes is the most the completed entries held at once, LargestEntry the largest
	// entry: the cache holds at most its budget plus one entry.
	PeakBytes, LargestEntry int64
}

// DefaultSharedBytes is the budget of a sweep's cache: room for many generations of three
// runs side by side even with Arcade's large infos.
const DefaultSharedBytes = 256 << 20

// NewSharedCache makes a cache holding about maxBytes of infos and matrices.
func NewSharedCache(maxBytes int64) *SharedCache {
	maxBytes = max(maxBytes, 2)
	return &SharedCache{half: maxBytes / 2, cur: map[string]*flight{}, old: map[string]*flight{}}
}

// Stats returns the counts so far.
func (c *SharedCache) Stats() SharedStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Len is the number of entries held (computed or in flight).
func (c *SharedCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.cur) + len(c.old)
}

// Bytes is the approximate size of the completed entries held.
func (c *SharedCache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes + c.oldB
}

// flight is one key's value, computed once by its owner while others wait on done.
type flight struct {
	done  chan struct{}
	state int // guarded by the cache's mu until done is closed, then fixed
	val   any
	id    uint64 // of an info: its identity for the pairwise diversity caches
	size  int64
}

const (
	flightRunning = iota
	flightDone
	// flightAbandoned: the owner stopped (its run was cancelled or its batch failed); a
	// waiter computes the value itself.
	flightAbandoned
)

// claim returns the key's flight and whether the caller owns it (must finish or abandon it).
func (c *SharedCache) claim(key string) (*flight, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.cur[key]; ok {
		return f, false
	}
	if f, ok := c.old[key]; ok {
		// Still in use: move it to the young generation so it survives the next rotation.
		delete(c.old, key)
		c.cur[key] = f
		if f.state == flightDone {
			c.oldB -= f.size
			c.grow(f.size)
		}
		return f, false
	}
	f := &flight{done: make(chan struct{})}
	c.cur[key] = f
	return f, true
}

// finish publishes the owner's value.
func (c *SharedCache) finish(key string, f *flight, val any, size int64) {
	c.mu.Lock()
	c.nextID++
	f.val, f.id, f.size, f.state = val, c.nextID, size, flightDone
	// Only the young generation's bytes decide the rotation; an entry already aged into the
	// old one is dropped with it.
	if c.cur[key] == f {
		c.grow(size)
	}
	c.stats.LargestEntry = max(c.stats.LargestEntry, size)
	c.mu.Unlock()
	close(f.done)
}

// grow adds n bytes to the young generation, which becomes the old one (the old one
// dropped) once it holds more than half the budget: so the young generation holds at most
// half, the old one at most half plus its last entry.
func (c *SharedCache) grow(n int64) {
	c.bytes += n
	if c.bytes > c.half {
		c.rotate()
	}
	c.stats.PeakBytes = max(c.stats.PeakBytes, c.bytes+c.oldB)
}

// rotate drops the old generation and ages the young one. Flights still running stay young:
// their owner and waiters hold them anyway, and dropping them would only make a later run
// compute them again.
func (c *SharedCache) rotate() {
	young := map[string]*flight{}
	for k, f := range c.old {
		if f.state == flightRunning {
			young[k] = f
		} else {
			c.stats.Evicted++
		}
	}
	for k, f := range c.cur {
		if f.state == flightRunning {
			young[k] = f
			delete(c.cur, k)
		}
	}
	c.old, c.cur, c.oldB, c.bytes = c.cur, young, c.bytes, 0
}

// abandon gives a claimed key up: waiters compute it themselves.
func (c *SharedCache) abandon(key string, f *flight) {
	c.mu.Lock()
	if c.cur[key] == f {
		delete(c.cur, key)
	}
	if c.old[key] == f {
		delete(c.old, key)
	}
	f.state = flightAbandoned
	c.mu.Unlock()
	close(f.done)
}

// wait blocks until f is finished or abandoned (false), or ctx is cancelled.
func (f *flight) wait(ctx context.Context) (bool, error) {
	select {
	case <-f.done:
		return f.state == flightDone, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

func (c *SharedCache) count(info bool, hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if info {
		c.stats.InfoHits += hits
		c.stats.InfoMisses += misses
	} else {
		c.stats.MatrixHits += hits
		c.stats.MatrixMisses += misses
	}
}

// sharedView is one run's use of a cache: the cache and the identity of its problem, which
// prefixes every key so that runs of different problems never meet.
type sharedView struct {
	c       *SharedCache
	problem string
}

// newSharedView shares c among the runs of the problem named name (the registered name says
// the variant and its parameters). Without a name or a cache the run computes alone.
func newSharedView(c *SharedCache, name string, p any) *sharedView {
	if c == nil || name == "" {
		return nil
	}
	return &sharedView{c: c, problem: fmt.Sprintf("%s\x00%T\x00", name, p)}
}

// infos gives the infos of contents (whose content keys are keys): taken from the cache,
// waited for while another run computes them, or computed here (in parallel) and published.
func (s *sharedView) infos(ctx context.Context, p problems.Problem, contents []problems.Content, keys []string) ([]infoEntry, error) {
	out := make([]infoEntry, len(contents))
	left := make([]int, len(contents))
	for i := range left {
		left[i] = i
	}
	hits, misses := 0, 0
	defer func() { s.c.count(true, hits, misses) }()
	type waiter struct {
		i int
		f *flight
	}
	for len(left) > 0 {
		// Claim what nobody has, compute it, and only then wait for the others' keys: a run
		// never waits while it holds a claim, so two runs cannot wait for each other.
		var mine []int
		var mineF []*flight
		var waits []waiter
		for _, i := range left {
			f, own := s.c.claim(s.problem + "i" + keys[i])
			if own {
				mine, mineF = append(mine, i), append(mineF, f)
			} else {
				waits = append(waits, waiter{i, f})
			}
		}
		if len(mine) > 0 {
			if err := s.compute(ctx, p, contents, keys, mine, mineF, out); err != nil {
				return nil, err
			}
			misses += len(mine)
		}
		var again []int
		for _, w := range waits {
			ok, err := w.f.wait(ctx)
			if err != nil {
				return nil, err
			}
			if !ok {
				again = append(again, w.i)
				continue
			}
			out[w.i] = infoEntry{info: w.f.val, id: w.f.id}
			hits++
		}
		left = again
	}
	return out, nil
}

// compute computes the infos of the claimed contents (indexes mine, flights mineF) into out
// and publishes them; on failure (or a panic) it gives them up so that no waiter waits on.
func (s *sharedView) compute(ctx context.Context, p problems.Problem, contents []problems.Content, keys []string, mine []int, mineF []*flight, out []infoEntry) (err error) {
	published := 0
	defer func() {
		for n := published; n < len(mine); n++ {
			s.c.abandon(s.problem+"i"+keys[mine[n]], mineF[n])
		}
	}()
	cs := make([]problems.Content, len(mine))
	for n, i := range mine {
		cs[n] = contents[i]
	}
	infos, err := problems.Infos(ctx, p, cs)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		// A failed item: the run alone would have failed on the whole batch, with the item
		// numbered in it; say exactly that.
		if _, aloneErr := problems.Infos(ctx, p, contents); aloneErr != nil {
			return aloneErr
		}
		return err
	}
	for n, i := range mine {
		key := s.problem + "i" + keys[i]
		s.c.finish(key, mineF[n], infos[n], approxSize(infos[n])+int64(len(key)))
		published++
		out[i] = infoEntry{info: infos[n], id: mineF[n].id}
	}
	return nil
}

// matrix gives the diversity matrix of the distinct infos of ids (the cache's ids, so equal
// ids mean equal infos in the same order): from the cache, waited for, or computed by compute
// and published.
func (s *sharedView) matrix(ctx context.Context, ids []uint64, compute func() ([][]float64, error)) ([][]float64, error) {
	b := make([]byte, 0, len(s.problem)+1+8*len(ids))
	b = append(b, s.problem...)
	b = append(b, 'm')
	for _, id := range ids {
		b = binary.LittleEndian.AppendUint64(b, id)
	}
	key := string(b)
	for {
		f, own := s.c.claim(key)
		if !own {
			ok, err := f.wait(ctx)
			if err != nil {
				return nil, err
			}
			if ok {
				s.c.count(false, 1, 0)
				return f.val.([][]float64), nil
			}
			continue // its owner gave up: compute it here
		}
		return s.computeMatrix(key, f, compute)
	}
}

// computeMatrix computes and publishes the claimed matrix key; on failure (or a panic) it
// gives it up so that no waiter waits on.
func (s *sharedView) computeMatrix(key string, f *flight, compute func() ([][]float64, error)) (u [][]float64, err error) {
	published := false
	defer func() {
		if !published {
			s.c.abandon(key, f)
		}
	}()
	if u, err = compute(); err != nil {
		return nil, err
	}
	k := int64(len(u))
	s.c.finish(key, f, u, k*k*8+k*24+int64(len(key)))
	published = true
	s.c.count(false, 0, 1)
	return u, nil
}

// approxSize estimates the bytes v holds: headers, backing arrays, strings, maps (by their
// entries) and the values behind pointers, each pointer followed once.
func approxSize(v any) int64 {
	seen := map[uintptr]bool{}
	return int64(reflect.TypeOf(v).Size()) + sizeBehind(reflect.ValueOf(v), seen)
}

// sizeBehind is the size of what v refers to, beyond v's own bytes.
func sizeBehind(v reflect.Value, seen map[uintptr]bool) int64 {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return 0
		}
		seen[v.Pointer()] = true
		e := v.Elem()
		return int64(e.Type().Size()) + sizeBehind(e, seen)
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		e := v.Elem()
		return int64(e.Type().Size()) + sizeBehind(e, seen)
	case reflect.String:
		return int64(v.Len())
	case reflect.Slice:
		if v.IsNil() {
			return 0
		}
		n := int64(v.Cap()) * int64(v.Type().Elem().Size())
		if !flat(v.Type().Elem()) {
			for i := 0; i < v.Len(); i++ {
				n += sizeBehind(v.Index(i), seen)
			}
		}
		return n
	case reflect.Array:
		var n int64
		if !flat(v.Type().Elem()) {
			for i := 0; i < v.Len(); i++ {
				n += sizeBehind(v.Index(i), seen)
			}
		}
		return n
	case reflect.Struct:
		var n int64
		for i := 0; i < v.NumField(); i++ {
			n += sizeBehind(v.Field(i), seen)
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return 0
		}
		kt, et := v.Type().Key(), v.Type().Elem()
		n := int64(v.Len()) * (int64(kt.Size()+et.Size()) + 8)
		if !flat(kt) || !flat(et) {
			it := v.MapRange()
			for it.Next() {
				n += sizeBehind(it.Key(), seen) + sizeBehind(it.Value(), seen)
			}
		}
		return n
	}
	return 0
}

// flat tells whether a type holds no references (its size is all of it).
func flat(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return flat(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if !flat(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

package search

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/search/searchtest"
)

// The GA's pairwise diversities through the problems' kernels (keyed and symmetric included)
// are Diversity's, bit for bit, over all pairs and over a partial set of pairs.
func TestFillPairsIsDiversityBitForBit(t *testing.T) {
	for _, name := range []string{"binary-v0", "zelda-v0", "sokoban-v0", "talakat-v0", "elimination-v0", "mdungeons-v0"} {
		t.Run(name, func(t *testing.T) {
			p := makeProblem(t, name)
			rng := rand.New(rand.NewPCG(7, 11))
			var contents []problems.Content
			for range 24 {
				contents = append(contents, p.ContentSpace().Sample(rng))
			}
			// Repeated contents: equal infos, equal keys.
			contents = append(contents, contents[3], contents[5], contents[3])
			infos, err := problems.Infos(context.Background(), p, contents)
			if err != nil {
				t.Fatal(err)
			}
			k := len(infos)
			for _, share := range []float64{1, 0.3} {
				u := make([][]float64, k)
				var todo []pair
				for i := range u {
					u[i] = make([]float64, k)
					for j := range u[i] {
						if rng.Float64() < share {
							todo = append(todo, pair{int32(i), int32(j)})
						} else {
							u[i][j] = -7 // must stay: not asked for
						}
					}
				}
				if err := fillPairs(context.Background(), p, infos, u, todo); err != nil {
					t.Fatal(err)
				}
				asked := map[pair]bool{}
				for _, pr := range todo {
					asked[pr] = true
				}
				for i := range k {
					for j := range k {
						want := -7.0
						if asked[pair{int32(i), int32(j)}] {
							want = p.Diversity(infos[i], infos[j])
						}
						if math.Float64bits(u[i][j]) != math.Float64bits(want) {
							t.Fatalf("share %v: d(%d, %d) = %v, want %v", share, i, j, u[i][j], want)
						}
					}
				}
			}
		})
	}
}

// runAlone and runShared give the saved state of a run after gens generations: alone, and
// with the other fitnesses' runs at the same time on one shared cache.
func runStates(t *testing.T, name, generator string, seed uint64, gens, pop int, shared *SharedCache) map[string]string {
	t.Helper()
	fitnesses := []string{FitnessQuality, FitnessQualityControl, FitnessQualityControlDiversity}
	out := make(map[string]string, len(fitnesses))
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make([]error, len(fitnesses))
	for n, fit := range fitnesses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := problems.Make(name)
			if err != nil {
				errs[n] = err
				return
			}
			g, err := Build(context.Background(), generator, Spec{Problem: p, Shared: shared,
				Options: Options{Problem: name, Fitness: fit, Seed: seed, PopSize: pop}})
			if err != nil {
				errs[n] = err
				return
			}
			if err := g.Reset(context.Background()); err != nil {
				errs[n] = err
				return
			}
			for g.Generation() < gens {
				if err := g.Step(context.Background()); err != nil {
					errs[n] = err
					return
				}
			}
			st, err := g.Save()
			if err != nil {
				errs[n] = err
				return
			}
			b, err := json.Marshal(st)
			if err != nil {
				errs[n] = err
				return
			}
			mu.Lock()
			out[fit] = string(b)
			mu.Unlock()
		}()
		if shared == nil {
			wg.Wait() // alone: one run at a time
		}
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return out
}

// Runs sharing a cache, at the same time, end exactly where they end alone (population,
// qualities, diversities, evaluation counts, random state); random searches of the three
// fitnesses take two thirds of their infos from the cache.
func TestSharedCacheRunsEqualRunsAlone(t *testing.T) {
	for _, tc := range []struct {
		problem, generator string
		gens               int
	}{
		{searchtest.ToyName, "random", 6},
		{searchtest.ToyName, "es", 6},
		{searchtest.ToyName, "ga", 6},
		{"binary-v0", "random", 4},
		{"binary-v0", "ga", 6},
		{"zelda-v0", "es", 4},
	} {
		t.Run(tc.problem+"/"+tc.generator, func(t *testing.T) {
			makeProblem(t, tc.problem)
			alone := runStates(t, tc.problem, tc.generator, 3, tc.gens, 30, nil)
			c := NewSharedCache(DefaultSharedBytes)
			shared := runStates(t, tc.problem, tc.generator, 3, tc.gens, 30, c)
			for fit, want := range alone {
				if shared[fit] != want {
					t.Errorf("%s: the run with the shared cache differs from the run alone", fit)
				}
			}
			st := c.Stats()
			if st.InfoHits+st.InfoMisses == 0 || st.InfoMisses == 0 {
				t.Fatalf("the cache was not used: %+v", st)
			}
			if tc.generator == "random" && (st.InfoHits != 2*st.InfoMisses || st.MatrixHits != 2*st.MatrixMisses) {
				t.Errorf("random searches share every info and matrix: %+v", st)
			}
		})
	}
}

// A small budget evicts, holds at most the budget plus one entry, and changes no result.
func TestSharedCacheStaysWithinItsBudget(t *testing.T) {
	const budget = 48 << 10
	alone := runStates(t, "binary-v0", "random", 5, 6, 40, nil)
	c := NewSharedCache(budget)
	shared := runStates(t, "binary-v0", "random", 5, 6, 40, c)
	for fit, want := range alone {
		if shared[fit] != want {
			t.Errorf("%s: the run with a small shared cache differs from the run alone", fit)
		}
	}
	st := c.Stats()
	if st.Evicted == 0 {
		t.Fatalf("nothing was evicted under a %d-byte budget: %+v", budget, st)
	}
	if st.PeakBytes > budget+st.LargestEntry || c.Bytes() > budget+st.LargestEntry {
		t.Fatalf("the cache held %d bytes (now %d), more than the budget %d plus its largest entry %d", st.PeakBytes, c.Bytes(), budget, st.LargestEntry)
	}
}

// A run waiting for a key another run computes takes its value; when the other run gives up
// (cancelled), the waiting run computes it itself.
func TestSharedCacheWaitersTakeOrComputeTheValue(t *testing.T) {
	p := &searchtest.Toy{}
	content := p.ContentSpace().Sample(rand.New(rand.NewPCG(1, 2)))
	key, err := contentKey(content)
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.Info(content)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		publish bool
		hits    int
	}{{"owner finishes", true, 1}, {"owner gives up", false, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewSharedCache(DefaultSharedBytes)
			v := newSharedView(c, searchtest.ToyName, p)
			f, own := c.claim(v.problem + "i" + key)
			if !own {
				t.Fatal("a new key was not claimed")
			}
			type result struct {
				ents []infoEntry
				err  error
			}
			done := make(chan result)
			go func() {
				ents, err := v.infos(context.Background(), p, []problems.Content{content}, []string{key})
				done <- result{ents, err}
			}()
			if tc.publish {
				c.finish(v.problem+"i"+key, f, want, 1)
			} else {
				c.abandon(v.problem+"i"+key, f)
			}
			r := <-done
			if r.err != nil {
				t.Fatal(r.err)
			}
			got, _ := json.Marshal(r.ents[0].info)
			exp, _ := json.Marshal(want)
			if string(got) != string(exp) {
				t.Fatalf("info %s, want %s", got, exp)
			}
			if st := c.Stats(); st.InfoHits != tc.hits || st.InfoHits+st.InfoMisses != 1 {
				t.Fatalf("stats %+v, want %d hits of 1", st, tc.hits)
			}
		})
	}
}

// A waiting run whose own context is cancelled stops waiting.
func TestSharedCacheWaitStopsOnCancel(t *testing.T) {
	c := NewSharedCache(DefaultSharedBytes)
	if _, own := c.claim("k"); !own {
		t.Fatal("a new key was not claimed")
	}
	f, own := c.claim("k")
	if own {
		t.Fatal("a claimed key was claimed again")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ok, err := f.wait(ctx); ok || !errors.Is(err, context.Canceled) {
		t.Fatalf("wait = %v, %v; want false, context.Canceled", ok, err)
	}
}

func TestApproxSize(t *testing.T) {
	type inner struct{ A []int64 }
	shared := &inner{A: make([]int64, 10)}
	for _, tc := range []struct {
		name string
		v    any
		want int64
	}{
		{"int", 5, 8},
		{"string", "hello", 16 + 5},
		{"slice", []int32{1, 2, 3}, 24 + 12},
		{"pointer followed once", []*inner{shared, shared}, 24 + 16 + 24 + 80},
		{"map", map[string]int{"ab": 1}, 8 + (16 + 8 + 8) + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := approxSize(tc.v); got != tc.want {
				t.Fatalf("approxSize = %d, want %d", got, tc.want)
			}
		})
	}
}

// A batch with a content whose info fails fails as the run alone fails (the item numbered in
// the whole batch, not in the share this run computed), and leaves no claim behind.
func TestSharedCacheFailsAsTheRunAlone(t *testing.T) {
	p := &searchtest.Toy{}
	rng := rand.New(rand.NewPCG(5, 6))
	contents := []problems.Content{p.ContentSpace().Sample(rng), p.ContentSpace().Sample(rng), "not a grid"}
	keys := make([]string, len(contents))
	for i, c := range contents {
		k, err := contentKey(c)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = k
	}
	_, want := problems.Infos(context.Background(), p, contents)
	if want == nil {
		t.Fatal("the toy accepted a string")
	}
	c := NewSharedCache(DefaultSharedBytes)
	v := newSharedView(c, searchtest.ToyName, p)
	// Another run has computed the first content: this run computes items 1 and 2 only.
	f, _ := c.claim(v.problem + "i" + keys[0])
	info, err := p.Info(contents[0])
	if err != nil {
		t.Fatal(err)
	}
	c.finish(v.problem+"i"+keys[0], f, info, 1)
	_, err = v.infos(context.Background(), p, contents, keys)
	if err == nil || err.Error() != want.Error() {
		t.Fatalf("error %v, want %v", err, want)
	}
	if n := c.Len(); n != 1 {
		t.Fatalf("%d entries held after the failure, want the 1 finished", n)
	}
}

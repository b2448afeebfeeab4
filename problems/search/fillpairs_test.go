package search

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/search/searchtest"
)

// countedToy is the toy problem whose Diversity counts its calls and calls at (when set) with
// the running count first; it has no kernel, so fillPairs's workers call it pair by pair.
type countedToy struct {
	searchtest.Toy
	calls atomic.Int64
	at    func(n int64)
}

func (p *countedToy) Diversity(a, b problems.Info) float64 {
	n := p.calls.Add(1)
	if p.at != nil {
		p.at(n)
	}
	return p.Toy.Diversity(a, b)
}

// fillPairsSetup gives k distinct toy infos, their k×k matrix filled with -7 and every pair
// to do, on 4 workers (GOMAXPROCS is restored after the test).
func fillPairsSetup(t *testing.T, k int) ([]problems.Info, [][]float64, []pair) {
	t.Helper()
	old := runtime.GOMAXPROCS(4)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
	infos := make([]problems.Info, k)
	u := make([][]float64, k)
	var todo []pair
	for i := range k {
		in := &searchtest.ToyInfo{Flat: make([]int, searchtest.ToySide*searchtest.ToySide)}
		for b := range in.Flat {
			in.Flat[b] = i >> (b % 8) & 1
		}
		infos[i] = in
		u[i] = make([]float64, k)
		for j := range k {
			u[i][j] = -7
			todo = append(todo, pair{int32(i), int32(j)})
		}
	}
	return infos, u, todo
}

func untouched(t *testing.T, u [][]float64) {
	t.Helper()
	for i := range u {
		for j, v := range u[i] {
			if v != -7 {
				t.Fatalf("u[%d][%d] = %v after a failed fill, want it untouched", i, j, v)
			}
		}
	}
}

// Cancelled in the middle, the pairs' workers stop within one check (every 256 pairs) of
// the cancellation, the error is the context's and the matrix is left as it was.
func TestFillPairsStopsOnCancel(t *testing.T) {
	const k, cancelAt = 128, 2000
	infos, u, todo := fillPairsSetup(t, k)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &countedToy{at: func(n int64) {
		if n == cancelAt {
			cancel()
		}
	}}
	err := fillPairs(ctx, p, infos, u, todo)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("fillPairs cancelled in the middle = %v, want context.Canceled", err)
	}
	// Each of the 4 workers may finish the block of 256 pairs it is in.
	if n := p.calls.Load(); n > cancelAt+4*256 {
		t.Fatalf("%d of %d pairs computed after a cancellation at pair %d", n, k*k, cancelAt)
	}
	untouched(t, u)
}

// A panic in the problem's diversity is the error, with its text, and the matrix is left as
// it was; the same fill without the panic completes.
func TestFillPairsFailureIsTheError(t *testing.T) {
	const k = 128
	infos, u, todo := fillPairsSetup(t, k)
	p := &countedToy{at: func(n int64) {
		if n == 1000 {
			panic("boom at pair 1000")
		}
	}}
	err := fillPairs(context.Background(), p, infos, u, todo)
	if err == nil || err.Error() != "diversity failed: boom at pair 1000" {
		t.Fatalf("fillPairs with a panicking diversity = %v, want \"diversity failed: boom at pair 1000\"", err)
	}
	untouched(t, u)

	p = &countedToy{}
	if err := fillPairs(context.Background(), p, infos, u, todo); err != nil {
		t.Fatal(err)
	}
	if n := p.calls.Load(); n != k*k {
		t.Fatalf("%d diversities computed, want %d", n, k*k)
	}
	for i := range k {
		for j := range k {
			if want := p.Toy.Diversity(infos[i], infos[j]); u[i][j] != want {
				t.Fatalf("d(%d, %d) = %v, want %v", i, j, u[i][j], want)
			}
		}
	}
}

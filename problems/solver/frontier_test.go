package solver

import "testing"

func TestFrontierPopsLikeHeapq(t *testing.T) {
	// Expected order from CPython heapq with equal keys (only __lt__ compared).
	keys := []float64{3, 1, 2, 1, 3, 1, 2, 2, 1, 3, 0, 1}
	var h frontier
	for i, k := range keys {
		h.push(k, int32(i))
	}
	want := []int32{10, 5, 11, 1, 3, 8, 6, 2, 7, 4, 0, 9}
	for i, w := range want {
		if got := h.pop(); got != w {
			t.Fatalf("pop %d = %d, want %d", i, got, w)
		}
	}
	if h.len() != 0 {
		t.Error("heap not empty")
	}
}

package vit

import "testing"

// parallelFor gives every index of 0..n to exactly one part and returns only when all parts
// are done, whatever the number of workers.
func TestParallelForCoversEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100, 1000} {
		for _, workers := range []int{0, 1, 2, 3, 8, 2000} {
			seen := make([]int, n) // each index belongs to one part: no two goroutines share an entry
			parallelFor(n, workers, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("n %d, workers %d: index %d done %d times when parallelFor returned", n, workers, i, c)
				}
			}
		}
	}
}

package problems

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// vectors2025 is a file written by tools/golden-2025-01/make_golden.py.
type vectors2025 struct {
	Reference struct {
		Commit string `json:"commit"`
	} `json:"reference"`
	Cases []struct {
		Name      string      `json:"name"`
		Matrix    [][]float64 `json:"matrix"`
		Diversity []float64   `json:"diversity"`
		Current   []float64   `json:"current"`
	} `json:"cases"`
}

func readVectors2025(t *testing.T, name string) vectors2025 {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "diversity-2025-01", name))
	if err != nil {
		t.Fatal(err)
	}
	var v vectors2025
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// TestDiversity202501SyntheticVectors: on matrices with ties, duplicates, zeros, ones and
// asymmetric entries, the 2025-01 greedy (scalable, stepwise, with and without its stored
// triangle) gives bit for bit what 8ad18b6's PCGEnv.diversity gave, and the current greedy
// what 00b96f5's gave.
func TestDiversity202501SyntheticVectors(t *testing.T) {
	v := readVectors2025(t, "synthetic.json")
	if len(v.Cases) == 0 || len(v.Reference.Commit) != 40 || v.Reference.Commit[:7] != "8ad18b6" {
		t.Fatalf("synthetic.json: %d cases from commit %q", len(v.Cases), v.Reference.Commit)
	}
	for _, c := range v.Cases {
		if got := GreedyDiversityWith(Diversity202501, c.Matrix); !sameBits(got, c.Diversity) {
			t.Errorf("%s: 2025-01 greedy %v, reference %v", c.Name, got, c.Diversity)
		}
		if got := LiteralGreedyDiversity202501(c.Matrix); !sameBits(got, c.Diversity) {
			t.Errorf("%s: stepwise 2025-01 greedy %v, reference %v", c.Name, got, c.Diversity)
		}
		if got := GreedyDiversityWith(DiversityCurrent, c.Matrix); !sameBits(got, c.Current) {
			t.Errorf("%s: current greedy %v, reference %v", c.Name, got, c.Current)
		}
	}
	old := maxStoredPairs202501
	maxStoredPairs202501 = 0
	defer func() { maxStoredPairs202501 = old }()
	for _, c := range v.Cases {
		if got := GreedyDiversityWith(Diversity202501, c.Matrix); !sameBits(got, c.Diversity) {
			t.Errorf("%s, recomputed pairs: 2025-01 greedy %v, reference %v", c.Name, got, c.Diversity)
		}
	}
}

// TestDiversity202501MatchesTheStepwiseAlgorithm compares the one-sort shortcut with the
// reference's sort-per-step recursion on random matrices with many duplicate items.
func TestDiversity202501MatchesTheStepwiseAlgorithm(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 1))
	for trial := range 300 {
		n := 1 + r.IntN(90)
		d := randomMatrix(r, n, 1+r.IntN(n), r.Float64())
		want := LiteralGreedyDiversity202501(d)
		if got := GreedyDiversityWith(Diversity202501, d); !sameBits(got, want) {
			t.Fatalf("trial %d (n=%d): %v, stepwise %v", trial, n, got, want)
		}
	}
}

// TestDiversity202501OnIdenticalItems: n identical items all start with n-1 similar; the k-th
// removal sees n-1-k, so all but the last are removed with minimum 0 and one stays unique.
func TestDiversity202501OnIdenticalItems(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 4, 10, 11} {
		d := make([][]float64, n)
		for i := range d {
			d[i] = make([]float64, n)
		}
		got := GreedyDiversityWith(Diversity202501, d)
		if len(got) != n {
			t.Fatalf("n=%d: %d values", n, len(got))
		}
		unique := 0
		for _, x := range got {
			if x >= 1 {
				unique++
			}
		}
		if want := min(n, 1); unique != want {
			t.Errorf("n=%d identical items: %d unique (%v), want %d", n, unique, got, want)
		}
	}
}

func TestParseDiversityAlgorithm(t *testing.T) {
	for in, want := range map[string]DiversityAlgorithm{"": DiversityCurrent, "current": DiversityCurrent, "2025-01": Diversity202501} {
		if got, err := ParseDiversityAlgorithm(in); err != nil || got != want {
			t.Errorf("ParseDiversityAlgorithm(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseDiversityAlgorithm("2025-02"); err == nil {
		t.Error("ParseDiversityAlgorithm accepted 2025-02")
	}
}

func TestDiversity202501Cancels(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := randomMatrix(rand.New(rand.NewPCG(1, 2)), 50, 10, 0.5)
	mk := func() PairKernel { return func(i, j int) float64 { return d[i][j] } }
	if _, err := greedy202501(ctx, len(d), mk, nil); err == nil {
		t.Error("a cancelled context gave no error")
	}
}

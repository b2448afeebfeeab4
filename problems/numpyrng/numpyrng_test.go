package numpyrng

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"testing"

	"pcgwb/problems/space"
)

type vectors struct {
	Generators []struct {
		Seed  uint64        `json:"seed"`
		Raw   []json.Number `json:"raw_uint64_first6"`
		Calls [][2]any      `json:"mixed_sequence_from_fresh_generator"`
	} `json:"generators"`
	Seeded map[string]struct {
		Seed    uint64 `json:"env_seed"`
		Samples []any  `json:"content_samples"`
	} `json:"seeded_sampling"`
	Swaps []struct {
		C1, C2   [][]int
		P        float64 `json:"probability"`
		MaxSwaps int     `json:"maxSwaps"`
		Seed     uint64  `json:"seed"`
		Result   [][]int `json:"result"`
	} `json:"content_swap"`
}

func load(t *testing.T) *vectors {
	t.Helper()
	b, err := os.ReadFile("testdata/numpy-rng.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return &v
}

func TestRawOutputs(t *testing.T) {
	for _, gen := range load(t).Generators {
		g := New(gen.Seed)
		for i, want := range gen.Raw {
			w, err := strconv.ParseUint(string(want), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Uint64(); got != w {
				t.Errorf("seed %d: raw[%d] = %d, want %d", gen.Seed, i, got, w)
			}
		}
	}
}

// The mixed sequence interleaves 32-bit bounded draws with 64-bit random() calls, which must
// leave the saved upper half in place.
func TestMixedSequence(t *testing.T) {
	for _, gen := range load(t).Generators {
		g := New(gen.Seed)
		for i, call := range gen.Calls {
			name := call[0].(string)
			want := call[1].(json.Number)
			var got string
			var lo, hi int64
			switch {
			case name == "random()":
				got = strconv.FormatFloat(g.Float64(), 'g', -1, 64)
				f, _ := want.Float64()
				want = json.Number(strconv.FormatFloat(f, 'g', -1, 64))
			case name == "choice(5)":
				got = strconv.Itoa(g.Choice(5))
			default:
				if _, err := fmt.Sscanf(name, "integers(%d,%d)", &lo, &hi); err != nil {
					t.Fatalf("unknown call %q", name)
				}
				got = strconv.FormatInt(g.Integers(lo, hi), 10)
			}
			if got != string(want) {
				t.Errorf("seed %d call %d %s = %s, want %s", gen.Seed, i, name, got, want)
			}
		}
	}
}

// Talakat's content space is one ArraySpace leaf, so env.seed(2024) makes its samples exactly
// the stream of default_rng(2024) drawn through the space.
func TestSeededSpaceSampling(t *testing.T) {
	s := load(t).Seeded["talakat-v0"]
	g := New(s.Seed)
	sp := space.Grid(10, 100, 100)
	for i, want := range s.Samples {
		w, err := sp.Normalize(numbers(want), "sample")
		if err != nil {
			t.Fatal(err)
		}
		if got := sp.Sample(g); !space.Equal(got, w) {
			t.Errorf("sample %d differs from the reference's seeded sample", i)
		}
	}
}

func TestContentSwap(t *testing.T) {
	for i, c := range load(t).Swaps {
		sp := space.Grid(len(c.C1), len(c.C1[0]), 6)
		got := space.Swap(sp, rows(c.C1), rows(c.C2), c.P, c.MaxSwaps, New(c.Seed))
		if !space.Equal(got, rows(c.Result)) {
			t.Errorf("swap %d (p %v, max %d): got %v, want %v", i, c.P, c.MaxSwaps, got, c.Result)
		}
	}
}

func TestIntegersEdgeCases(t *testing.T) {
	g := New(5)
	before := *g
	if v := g.Integers(3, 4); v != 3 || *g != before {
		t.Errorf("a one-value range must return low without drawing (got %d)", v)
	}
	if v := g.Integers(7, 7); v != 7 {
		t.Errorf("empty range: got %d", v)
	}
	// A full 32-bit range takes the raw 32-bit draw, a wider one the 64-bit Lemire path.
	a, b := New(9), New(9)
	if got, want := a.Integers(0, 1<<32), int64(b.Uint32()); got != want {
		t.Errorf("full 32-bit range: %d, want %d", got, want)
	}
	for i := 0; i < 1000; i++ {
		if v := a.Integers(-5, 1<<40); v < -5 || v >= 1<<40 {
			t.Fatalf("wide range out of bounds: %d", v)
		}
	}
}

func TestSeedStateWords(t *testing.T) {
	// A seed above 2^32 has two entropy words; its first output is in the vectors too, but the
	// state words themselves must differ from the truncated seed's.
	if reflect.DeepEqual(SeedState(4294967301), SeedState(5)) {
		t.Error("the high entropy word is ignored")
	}
}

func BenchmarkIntegers(b *testing.B) {
	g := New(1)
	for i := 0; i < b.N; i++ {
		g.Integers(0, 5)
	}
}

func rows(r [][]int) any {
	out := make([]any, len(r))
	for i, row := range r {
		o := make([]any, len(row))
		for j, v := range row {
			o[j] = v
		}
		out[i] = o
	}
	return out
}

// numbers turns json.Number leaves into float64, the shape Normalize expects from JSON.
func numbers(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = numbers(x[i])
		}
		return out
	case json.Number:
		f, _ := x.Float64()
		return f
	}
	return v
}

package space_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pcgwb/problems"
	_ "pcgwb/problems/isaac"
	"pcgwb/problems/space"
)

func TestRestructureMatchesReference(t *testing.T) {
	// numpy-rng.json "restructure": truncation toward zero and clamping to [min, max] with max
	// inclusive, as the reference's IntegerSpace.restructure does.
	b, err := os.ReadFile(filepath.Join("testdata", "restructure.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Problem string         `json:"problem"`
		Values  []float64      `json:"values"`
		Result  map[string]any `json:"result"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Values == nil {
			continue
		}
		p, err := problems.Make(c.Problem)
		if err != nil {
			t.Fatal(err)
		}
		got, err := space.Restructure(p.ContentSpace(), c.Values)
		if err != nil {
			t.Fatal(err)
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(c.Result)
		if string(gj) != string(wj) {
			t.Errorf("%s: restructure = %s, want %s", c.Problem, gj, wj)
		}
	}
}

var mixed = space.Dict{
	{Key: "grid", Space: space.Grid(2, 3, 4)},
	{Key: "f", Space: space.Float{Min: -1, Max: 1}},
	{Key: "pair", Space: space.List{space.Int{Min: 5, Max: 7}, space.Const{Value: 1}}},
}

func TestSpaceKinds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		v := mixed.Sample(r)
		if err := mixed.Check(v, "v"); err != nil {
			t.Fatal(err)
		}
		flat := space.Flat(mixed, v)
		if len(flat) != space.Size(mixed) || len(flat) != 9 {
			t.Fatalf("flat has %d values", len(flat))
		}
		back, err := space.Restructure(mixed, flat)
		if err != nil || !space.Equal(back, v) {
			t.Fatalf("restructure(flat(v)) != v: %v", err)
		}
	}
	wantRange := map[string]any{
		"grid": map[string]any{"min": 0, "max": 4},
		"f":    map[string]any{"min": -1.0, "max": 1.0},
		"pair": []any{map[string]any{"min": 5, "max": 7}, map[string]any{"min": 1, "max": 1}},
	}
	if !reflect.DeepEqual(mixed.Range(), wantRange) {
		t.Errorf("range = %v", mixed.Range())
	}
	if _, err := space.Restructure(mixed, []float64{1, 2}); err == nil {
		t.Error("restructure of a short list did not fail")
	}
}

func TestCheckAndNormalizeNameTheField(t *testing.T) {
	cases := []struct {
		json, want string
	}{
		{`{"grid":[[0,1,2],[3,9,0]],"f":0,"pair":[5,1]}`, "v.grid[1][1]: value 9 is outside [0, 4)"},
		{`{"grid":[[0,1,2]],"f":0,"pair":[5,1]}`, "v.grid: expected 2 elements, got 1"},
		{`{"grid":[[0,1,2],[3,1,0]],"f":1,"pair":[5,1]}`, "v.f: value 1 is outside [-1, 1)"},
		{`{"grid":[[0,1,2],[3,1,0]],"f":0,"pair":[5,2]}`, "v.pair[1]: expected the constant 1, got 2"},
		{`{"grid":[[0,1,2],[3,1,0]],"f":0}`, `v: missing key "pair"`},
		{`{"grid":[[0,"x",2],[3,1,0]],"f":0,"pair":[5,1]}`, `v.grid[0][1]: the string "x" is not an integer`},
		{`[1]`, "v: expected an object"},
	}
	for _, c := range cases {
		var v any
		if err := json.Unmarshal([]byte(c.json), &v); err != nil {
			t.Fatal(err)
		}
		_, err := mixed.Normalize(v, "v")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.json, err, c.want)
		}
		if space.Contains(mixed, v) {
			t.Errorf("%s: Contains accepted it", c.json)
		}
	}
	// Whole floats (1.0) are integers; normalization yields Go ints.
	var v any
	json.Unmarshal([]byte(`{"grid":[[0,1.0,2],[3,1,0]],"f":0.5,"pair":[6,1],"extra":true}`), &v)
	n, err := mixed.Normalize(v, "v")
	if err != nil {
		t.Fatal(err)
	}
	if g := n.(map[string]any)["grid"].([]any)[0].([]any)[1]; g != 1 {
		t.Errorf("1.0 normalized to %#v, want int 1", g)
	}
	if _, extra := n.(map[string]any)["extra"]; extra {
		t.Error("unknown keys are kept")
	}
}

// countingRand returns a fixed sequence of floats and counts the draws.
type countingRand struct {
	floats []float64
	draws  int
}

func (c *countingRand) IntN(n int) int { return 0 }
func (c *countingRand) Float64() float64 {
	f := c.floats[c.draws%len(c.floats)]
	c.draws++
	return f
}

func TestSwapBudgetStopsDrawing(t *testing.T) {
	s := space.Grid(1, 6, 10)
	a := []any{[]any{0, 0, 0, 0, 0, 0}}
	b := []any{[]any{1, 1, 1, 1, 1, 1}}
	r := &countingRand{floats: []float64{0.1}}
	got := space.Swap(s, a, b, 0.5, 2, r)
	if !space.Equal(got, []any{[]any{1, 1, 0, 0, 0, 0}}) {
		t.Errorf("swap = %v", got)
	}
	// The reference short-circuits: once the budget is spent, no more random numbers are drawn.
	if r.draws != 2 {
		t.Errorf("%d draws, want 2", r.draws)
	}
	r = &countingRand{floats: []float64{0.9, 0.1}}
	got = space.Swap(s, a, b, 0.5, -1, r)
	if !space.Equal(got, []any{[]any{0, 1, 0, 1, 0, 1}}) || r.draws != 6 {
		t.Errorf("unlimited swap = %v after %d draws", got, r.draws)
	}
	// Inputs are never modified.
	if !space.Equal(a, []any{[]any{0, 0, 0, 0, 0, 0}}) {
		t.Error("swap modified its input")
	}
}

func TestEqualIsReferenceIsContentEqual(t *testing.T) {
	cases := []struct {
		a, b any
		want bool
	}{
		{[]any{1, 2}, []any{1, 2, 3}, true}, // lists compare over a's length
		{[]any{1, 2, 3}, []any{1, 2}, false},
		{map[string]any{"x": 1}, map[string]any{"x": 1.0, "y": 2}, true},
		{map[string]any{"x": 1}, map[string]any{"y": 1}, false},
		{1, 1.0, true},
		{1, "1", false},
	}
	for _, c := range cases {
		if got := space.Equal(c.a, c.b); got != c.want {
			t.Errorf("Equal(%v, %v) = %v", c.a, c.b, got)
		}
	}
}

// TestIntRefusesFractionsAndQuotesNumbersAsWritten: a tile of 1.5 is not silently truncated,
// and a huge number is reported as the user wrote it, not as 9223372036854775807.
func TestIntRefusesFractionsAndQuotesNumbersAsWritten(t *testing.T) {
	s := space.Int{Min: 0, Max: 6}
	for _, tc := range []struct {
		in   any
		want string // "" accepted
	}{
		{json.Number("3"), ""},
		{json.Number("3.0"), ""},
		{json.Number("3e0"), ""},
		{3.0, ""},
		{json.Number("1.5"), "1.5 is not an integer"},
		{1.5, "1.5 is not an integer"},
		{json.Number("-0.25"), "-0.25 is not an integer"},
		{json.Number("99999999999999999999999"), "value 99999999999999999999999 is outside [0, 6)"},
		{json.Number("1e30"), "value 1e30 is outside [0, 6)"},
		{json.Number("9"), "value 9 is outside [0, 6)"},
		{json.Number("1" + strings.Repeat("0", 5000)), "(5001 characters)"},
	} {
		_, err := s.Normalize(tc.in, "c[0]")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v refused: %v", tc.in, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: error %v, want %q", tc.in, err, tc.want)
		case err != nil && (strings.Contains(err.Error(), "9223372036854775807") || len(err.Error()) > 200):
			t.Errorf("%v: error %q", tc.in, err)
		}
	}
}

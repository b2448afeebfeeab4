package search

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"pcgwb/problems"
)

// checkKey fails unless contentKey(v) is json.Marshal(v), errors included.
func checkKey(t *testing.T, v any) {
	t.Helper()
	want, werr := json.Marshal(v)
	got, gerr := contentKey(v)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("contentKey error %v, json.Marshal error %v", gerr, werr)
	}
	if werr == nil && got != string(want) {
		t.Fatalf("contentKey %q, json.Marshal %q", got, want)
	}
}

// The direct encoding is json.Marshal's, byte for byte, on every problem's contents (so runs
// count the same distinct contents as before it) and on the awkward values.
func TestContentKeyIsJSON(t *testing.T) {
	for _, name := range problems.List() {
		t.Run(name, func(t *testing.T) {
			p := makeProblem(t, name)
			rng := rand.New(rand.NewPCG(3, 4))
			for range 20 {
				checkKey(t, p.ContentSpace().Sample(rng))
			}
		})
	}
	for _, tc := range []struct {
		name string
		v    any
	}{
		{"nil", nil},
		{"nil slice", []any(nil)},
		{"nil map", map[string]any(nil)},
		{"empty", []any{map[string]any{}, []any{}}},
		{"ints", []any{0, -1, math.MaxInt64, math.MinInt64}},
		{"floats", []any{0.0, math.Copysign(0, -1), 1e-7, -1e-7, 1e21, 1e20, 0.1, 123456789.125, 5e-324, math.MaxFloat64, 1e-6}},
		{"NaN", []any{math.NaN()}},
		{"infinity", map[string]any{"a": math.Inf(1)}},
		{"bools", []any{true, false}},
		{"escaped strings", []any{"a\"b", "<tag>", "x&y", "tab\t", "é", "\\", ""}},
		{"escaped key", map[string]any{"<k>": 1, "a": []any{"b"}}},
		{"sorted keys", map[string]any{"b": 1, "a": 2, "B": 3, "aa": map[string]any{"z": 1, "y": 2.5}}},
		{"other types", []any{int64(3), uint8(2), []int{1, 2}, map[string]int{"a": 1}, float32(0.1)}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkKey(t, tc.v) })
	}
}

// integral turns whole float64 numbers into ints, as normalized contents hold them.
func integral(v any) any {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int(x)
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = integral(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = integral(e)
		}
		return out
	}
	return v
}

func FuzzContentKey(f *testing.F) {
	for _, s := range []string{`[[0,1],[1,0]]`, `{"a":[1,2.5,"x"],"b":{"c":null,"d":true}}`, `[1e-7,1e21,-0.0]`, `"<&>"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		checkKey(t, v)
		checkKey(t, integral(v))
	})
}

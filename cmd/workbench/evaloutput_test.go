package main

import (
	"bytes"
	"errors"
	"testing"

	"pcgwb/problems"
)

// TestEvalOutputStreamsTheSameBytes checks that the item-by-item writer of eval's output
// gives writeJSON's bytes: no items, one, several with nested infos and characters JSON
// escapes (HTML included), the optional matrix and timing, and nil details.
func TestEvalOutputStreamsTheSameBytes(t *testing.T) {
	info := map[string]any{"trace": []any{[]int{1, 2}, map[string]any{}, []int{}}, "s": "<a&b> \"q\"\n", "x": 0.1}
	items := func(n int) []evalItem {
		out := make([]evalItem, n)
		for i := range out {
			out[i] = evalItem{ID: string(rune('a' + i)), Quality: float64(i) / 3, Controllability: 1, Info: problems.Info(info)}
		}
		return out
	}
	cases := []struct {
		name string
		out  evalOutput
	}{
		{"no items", evalOutput{Problem: "p-v0", Items: []evalItem{}}},
		{"nil items and details", evalOutput{Problem: "p-v0"}},
		{"one item", evalOutput{Problem: "p-v0", Items: items(1), QualityPct: 0.5,
			Details: problems.Details{Quality: []float64{1}, Diversity: []float64{0.25}, Controllability: []float64{}}}},
		{"several items, matrix and timing", evalOutput{Problem: "items\": []", Items: items(4), DiversityPct: 1,
			DiversityMatrix: [][]float64{{0, 1}, {1, 0}}, Timing: &evalTiming{InfoMsMean: 1.5}}},
		{"an info that is nil", evalOutput{Problem: "p-v0", Items: []evalItem{{ID: "0"}, {ID: "1", Info: problems.Info(nil)}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var want, got bytes.Buffer
			if err := writeJSON(&want, &tc.out); err != nil {
				t.Fatal(err)
			}
			out := tc.out
			out.Items = append([]evalItem(nil), tc.out.Items...)
			if tc.out.Items != nil && len(tc.out.Items) == 0 {
				out.Items = []evalItem{}
			}
			if err := writeEvalOutput(&got, &out); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("streamed:\n%s\nwriteJSON:\n%s", got.Bytes(), want.Bytes())
			}
		})
	}
}

// failingWriter fails every write, like a closed pipe.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestEvalOutputReportsWriteErrors(t *testing.T) {
	out := evalOutput{Problem: "p-v0", Items: make([]evalItem, 3000)}
	if err := writeEvalOutput(failingWriter{}, &out); err == nil {
		t.Fatal("a failed write was not reported")
	}
}

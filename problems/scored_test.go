package problems_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"pcgwb/problems"
	_ "pcgwb/problems/binary" // registers binary-v0
)

// TestScoredJSON pins a scored level's JSON to final.json's entry layout: the reference's keys
// in their order, "controlability" as the reference spells it, and "cell" only for a level of
// an archive (cell 0 is a cell).
func TestScoredJSON(t *testing.T) {
	tests := []struct {
		name string
		in   problems.Scored
		want string
	}{
		{"no cell", problems.Scored{Content: []any{1.0, 2.0}, Control: map[string]any{"k": 1.0}, Info: map[string]any{"a": 2.0},
			Quality: 1, Diversity: 0.5, Controllability: 0.25, Fitness: 0.75, Cell: problems.NoCell},
			`{"content":[1,2],"control":{"k":1},"info":{"a":2},"quality":1,"diversity":0.5,"controlability":0.25,"fitness":0.75}`},
		{"cell 0", problems.Scored{Content: "x", Cell: 0},
			`{"content":"x","control":null,"info":null,"quality":0,"diversity":0,"controlability":0,"fitness":0,"cell":0}`},
		{"cell 17", problems.Scored{Content: "x", Quality: 0.1, Cell: 17},
			`{"content":"x","control":null,"info":null,"quality":0.1,"diversity":0,"controlability":0,"fitness":0,"cell":17}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("marshal:\n got %s\nwant %s", got, tt.want)
			}
			var back problems.Scored
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if back.Cell != tt.in.Cell || back.Quality != tt.in.Quality || back.Fitness != tt.in.Fitness {
				t.Fatalf("round trip: %+v, want %+v", back, tt.in)
			}
			again, _ := json.Marshal(back)
			if !bytes.Equal(again, got) {
				t.Fatalf("round trip changed the bytes:\n%s\n%s", again, got)
			}
		})
	}
}

// TestScoredJSONRefuses checks that a malformed entry is an error, not a half-read level.
func TestScoredJSONRefuses(t *testing.T) {
	for _, in := range []string{`{"quality":"high"}`, `{"cell":"3"}`, `{"cell":1.5}`, `[`, `7`} {
		var s problems.Scored
		if err := json.Unmarshal([]byte(in), &s); err == nil {
			t.Errorf("%s: accepted as %+v", in, s)
		}
	}
}

// TestScoreItemsMatchesEvaluate checks that a sample set's levels carry the evaluation's
// values item by item, and that their pass rates are the evaluation's percentages.
func TestScoreItemsMatchesEvaluate(t *testing.T) {
	p, err := problems.Make("binary-v0")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 7, 30} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			items, err := problems.SampleN(context.Background(), p, n, uint64(n))
			if err != nil {
				t.Fatal(err)
			}
			ev, err := problems.Evaluate(context.Background(), p, problems.Contents(items), problems.Controls(items))
			if err != nil {
				t.Fatal(err)
			}
			levels := problems.ScoreItems(items, ev)
			for i, s := range levels {
				if s.Quality != ev.Details.Quality[i] || s.Diversity != ev.Details.Diversity[i] ||
					s.Controllability != ev.Details.Controllability[i] || s.Fitness != s.Quality || s.Cell != problems.NoCell {
					t.Fatalf("level %d: %+v, evaluation q %v d %v c %v", i, s, ev.Details.Quality[i], ev.Details.Diversity[i], ev.Details.Controllability[i])
				}
				a, _ := json.Marshal(s.Info)
				b, _ := json.Marshal(ev.Infos[i])
				if !bytes.Equal(a, b) {
					t.Fatalf("level %d: info %s, want %s", i, a, b)
				}
			}
			q, d, c := problems.PassRates(levels)
			if q != ev.QualityPct || d != ev.DiversityPct || c != ev.ControllabilityPct {
				t.Fatalf("pass rates %v %v %v, evaluation %v %v %v", q, d, c, ev.QualityPct, ev.DiversityPct, ev.ControllabilityPct)
			}
			back := problems.ItemsOf(levels)
			x, _ := json.Marshal(back)
			y, _ := json.Marshal(items)
			if !bytes.Equal(x, y) {
				t.Fatal("ItemsOf does not give the items back")
			}
		})
	}
}

// FuzzScoredJSON feeds hostile final.json entries to the decoder: it must not panic, and what
// it accepts must encode and decode back to the same bytes.
func FuzzScoredJSON(f *testing.F) {
	f.Add([]byte(`{"content":[[1,2]],"control":{"k":1},"info":{"a":2},"quality":1,"diversity":0.5,"controlability":0.25,"fitness":0.75}`))
	f.Add([]byte(`{"content":"x","cell":0}`))
	f.Add([]byte(`{"cell":-4,"quality":1e308}`))
	f.Add([]byte(`{"cell":99999999999999999999}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s problems.Scored
		if json.Unmarshal(data, &s) != nil {
			return
		}
		first, err := json.Marshal(s)
		if err != nil {
			return // an info JSON cannot hold (none decodes from JSON, but say so rather than fail)
		}
		var back problems.Scored
		if err := json.Unmarshal(first, &back); err != nil {
			t.Fatalf("own encoding %s refused: %v", first, err)
		}
		second, _ := json.Marshal(back)
		if !bytes.Equal(first, second) {
			t.Fatalf("not stable:\n%s\n%s", first, second)
		}
	})
}

// A scored level is what final.json holds for each level of a run's population; a sample set
// holds the same type (ScoreItems), ranked by quality.
func ExampleScored() {
	s := problems.Scored{Content: [][]int{{1, 0}, {0, 1}}, Quality: 1, Diversity: 0.4, Controllability: 1, Fitness: 1, Cell: problems.NoCell}
	b, _ := json.Marshal(s)
	fmt.Println(string(b))
	fmt.Println(s.Feasible(), s.Unique(), s.Controlled())
	// Output:
	// {"content":[[1,0],[0,1]],"control":null,"info":null,"quality":1,"diversity":0.4,"controlability":1,"fitness":1}
	// true false true
}

package problems_test

import (
	"context"
	"encoding/json"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/space"
)

// counter is a problem whose content is a 3 × 4 grid and whose control is one count.
type counter struct{ problems.Problem }

func (counter) ContentSpace() space.Space { return space.Grid(3, 4, 5) }
func (counter) ControlSpace() space.Space {
	return space.Dict{{Key: "n", Space: space.Int{Min: 0, Max: 9}}}
}

func itemsText(t *testing.T, items []problems.Item) string {
	t.Helper()
	b, err := json.Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSampleNIsContentThenControlFromOneStream(t *testing.T) {
	p := counter{}
	tests := []struct {
		name string
		n    int
		seed uint64
	}{
		{"one", 1, 0},
		{"several", 7, 42},
		{"big seed", 3, 1 << 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sampleN(t, p, tt.n, tt.seed)
			if len(got) != tt.n {
				t.Fatalf("%d items, want %d", len(got), tt.n)
			}
			// the rule, spelled out: content then control per item, one stream
			r := problems.NewRand(tt.seed)
			want := make([]problems.Item, tt.n)
			for i := range want {
				want[i] = problems.Item{Content: p.ContentSpace().Sample(r), Control: problems.SampleControl(p, r)}
			}
			if itemsText(t, got) != itemsText(t, want) {
				t.Fatalf("SampleN does not follow the sampling rule")
			}
			if again := sampleN(t, p, tt.n, tt.seed); itemsText(t, again) != itemsText(t, got) {
				t.Fatal("the same seed gave other items")
			}
			if other := sampleN(t, p, tt.n, tt.seed+1); itemsText(t, other) == itemsText(t, got) {
				t.Fatal("another seed gave the same items")
			}
			// a prefix: asking for fewer items gives the first ones
			if first := sampleN(t, p, 1, tt.seed); itemsText(t, first) != itemsText(t, got[:1]) {
				t.Fatal("the first item depends on n")
			}
		})
	}
	if got := sampleN(t, p, 0, 1); got == nil || len(got) != 0 {
		t.Fatalf("n = 0 gives %v, want an empty list", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := problems.SampleN(ctx, p, 10, 1); err != context.Canceled {
		t.Fatalf("a cancelled sample gives %v", err)
	}
}

func sampleN(t *testing.T, p problems.Problem, n int, seed uint64) []problems.Item {
	t.Helper()
	items, err := problems.SampleN(context.Background(), p, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

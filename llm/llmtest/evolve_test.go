package llmtest

import (
	"strings"
	"testing"
)

func TestBlocks(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"no block", nil},
		{"a\n```\n#.\n.#\n```\nb", []string{"#.\n.#"}},
		{"```text\nx\n```\n and ```\ny\n```", []string{"x", "y"}},
		{"```json\n{\"a\": 1}\n```", []string{`{"a": 1}`}},
		{"```\n[1, 2]\n```", []string{"[1, 2]"}},
		{"unclosed ```\nx", nil},
	} {
		got := Blocks(tc.in)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("Blocks(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzBlocks: any text gives blocks without fences, and a fenced block reads back.
func FuzzBlocks(f *testing.F) {
	for _, s := range []string{"", "```\nx\n```", "``````", "a```b```c```", "```json\n{}\n```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, b := range Blocks(s) {
			if strings.Contains(b, "```") {
				t.Fatalf("block %q holds a fence", b)
			}
		}
		if strings.Contains(s, "```") || strings.HasPrefix(s, "\n") || strings.HasSuffix(s, "\n") {
			return
		}
		if got := Blocks(Fenced(s)); len(got) != 1 || (got[0] != s && !strings.Contains(s, "\n")) {
			t.Fatalf("Blocks(Fenced(%q)) = %q", s, got)
		}
	})
}

// The broken model's faults are a function of the opening prompt and all occur.
func TestFaultOfCoversEveryFault(t *testing.T) {
	seen := map[Fault]bool{}
	for i := 0; i < 64; i++ {
		p := strings.Repeat("x", i)
		if FaultOf(p) != FaultOf(p) {
			t.Fatal("not deterministic")
		}
		seen[FaultOf(p)] = true
	}
	if len(seen) != int(faults) {
		t.Errorf("faults seen %v, want all %d", seen, faults)
	}
}

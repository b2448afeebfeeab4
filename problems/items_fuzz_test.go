package problems_test

import (
	"strings"
	"testing"

	"pcgwb/problems"
	_ "pcgwb/problems/all"
	"pcgwb/problems/space"
)

// FuzzDecodeItems feeds hostile item files to the decoder of every structured kind of content
// (tile grid, dictionary, list of dictionaries): it must return items that are members of the
// content space, or an error — never panic and never half-decode.
func FuzzDecodeItems(f *testing.F) {
	f.Add([]byte(`{"items":[{"id":"a","content":[[1,2],[3,4]],"control":{"crates":2}}]}`))
	f.Add([]byte(`{"items":[{"content":{"layout":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0],"start":0,"boss":1,"shop":2,"treasure":3}}]}`))
	f.Add([]byte(`{"items":[{"content":[{"x":1,"y":2,"type":3}]}]}`))
	f.Add([]byte(`{"items":[{"content":[[1e308,-1,0.5],[null,"x",true]]}]}`))
	f.Add([]byte(`{"items":[]}`))
	f.Add([]byte(`[`))
	f.Add([]byte("\xef\xbb\xbf{\"items\":[{\"content\":[[1.5,2],[3,99999999999999999999]]}]}"))
	f.Add([]byte(`{"items":[{"content":{"map":[[0,1]],"s":"x"},"control":{"pipes":1e400}}]}`))
	// One variant of every problem family (whatever data is installed decides which of the
	// data-backed ones can be made).
	names := familyVariants()
	if len(names) < 10 {
		f.Fatalf("only %d problem families: %v", len(names), names)
	}
	ps := make([]problems.Problem, len(names))
	for i, n := range names {
		p, err := problems.Make(n)
		if err != nil {
			f.Fatal(err)
		}
		ps[i] = p
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for i, p := range ps {
			items, err := problems.DecodeItems(p, data)
			if err != nil {
				continue
			}
			for _, it := range items {
				if e := p.ContentSpace().Check(it.Content, "content"); e != nil {
					t.Fatalf("%s: decoded content is not in the space: %v", names[i], e)
				}
				if it.Control != nil && !space.Contains(p.ControlSpace(), it.Control) {
					t.Fatalf("%s: decoded control is not in the space", names[i])
				}
			}
		}
	})
}

// familyVariants is the first available registered variant of each problem family.
func familyVariants() []string {
	seen := map[problems.Family]bool{}
	var out []string
	for _, n := range problems.List() {
		family := problems.FamilyOf(n)
		if seen[family] || problems.Unavailable(n) != nil || strings.HasPrefix(string(family), "apptest") {
			continue
		}
		seen[family] = true
		out = append(out, n)
	}
	return out
}

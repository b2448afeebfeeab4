package problems_test

import (
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
	names := []string{"zelda-v0", "sokoban-v0", "isaac-v0", "building-v0", "binary-v0"}
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

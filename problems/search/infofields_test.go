package search_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"pcgwb/problems"
	_ "pcgwb/problems/all"
	"pcgwb/problems/search"
)

// jsonNumbers is the former flattening, through a JSON round trip: the reference FlattenInfo
// must equal.
func jsonNumbers(t *testing.T, info problems.Info) map[string]float64 {
	b, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if prefix != "" {
					k = prefix + "." + k
				}
				walk(k, e)
			}
		case float64:
			out[prefix] = x
		case bool:
			out[prefix] = 0
			if x {
				out[prefix] = 1
			}
		}
	}
	walk("", v)
	return out
}

// FlattenInfo gives the fields and values the JSON round trip gave, for every registered
// problem's infos.
func TestFlattenInfoEqualsJSON(t *testing.T) {
	checked := 0
	for _, name := range problems.List() {
		p, err := problems.Make(name)
		if err != nil {
			continue // a problem whose data is not installed
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for i := 0; i < 3; i++ {
			info, err := p.Info(p.ContentSpace().Sample(rng))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got, err := search.FlattenInfo(info)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if want := jsonNumbers(t, info); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: FlattenInfo %v\nJSON %v", name, got, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no problem checked")
	}
}

func TestFlattenInfoEncodingRules(t *testing.T) {
	type inner struct {
		N int `json:"n"`
	}
	type Embedded struct {
		E float64 `json:"e"`
	}
	type info struct {
		Embedded
		A      float32        `json:"a"`
		B      bool           `json:"b"`
		Skip   int            `json:"-"`
		Empty  int            `json:"empty,omitempty"`
		Str    int            `json:"str,string"`
		Nested *inner         `json:"nested"`
		Nil    *inner         `json:"nil"`
		Map    map[string]any `json:"map"`
		Plain  uint8
		hidden int
	}
	got, err := search.FlattenInfo(&info{Embedded: Embedded{2.5}, A: 0.1, B: true, Skip: 1, Str: 3, Nested: &inner{7},
		Map: map[string]any{"x": 1, "y": "no"}, Plain: 4, hidden: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"e": 2.5, "a": 0.1, "b": 1, "nested.n": 7, "map.x": 1, "Plain": 4}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if _, err := search.FlattenInfo(map[string]float64{"x": math.NaN()}); err == nil {
		t.Fatal("NaN accepted")
	}
}

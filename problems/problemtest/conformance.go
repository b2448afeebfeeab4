package problemtest

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/space"
)

// Options tune the conformance checks for a problem's documented reference behaviour.
type Options struct {
	// AsymmetricDiversity: the reference's diversity is order-dependent (difflib's ratio), so
	// D(a, b) == D(b, a) is not required.
	AsymmetricDiversity bool
	// Samples is the number of random contents to check (default 12).
	Samples int
}

// Conformance checks the contract every problem must honour.
func Conformance(t *testing.T, name string, opt Options) {
	t.Helper()
	p, err := problems.Make(name)
	if err != nil {
		t.Fatalf("make %s: %v", name, err)
	}
	n := opt.Samples
	if n == 0 {
		n = 12
	}
	sample := func(seed uint64) ([]problems.Content, []problems.Control) {
		r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		cs := make([]problems.Content, n)
		ks := make([]problems.Control, n)
		for i := range cs {
			cs[i] = p.ContentSpace().Sample(r)
			ks[i] = problems.SampleControl(p, r)
		}
		return cs, ks
	}
	contents, controls := sample(42)
	again, _ := sample(42)
	for i := range contents {
		if !space.Equal(contents[i], again[i]) {
			t.Fatalf("%s: sampling with the same seed gave different contents", name)
		}
		if err := p.ContentSpace().Check(contents[i], "content"); err != nil {
			t.Fatalf("%s: sampled content is not valid: %v", name, err)
		}
		if err := p.ControlSpace().Check(controls[i], "control"); err != nil {
			t.Fatalf("%s: sampled control is not valid: %v", name, err)
		}
		// JSON round trip: what we write, we read back identically.
		b, err := json.Marshal(contents[i])
		if err != nil {
			t.Fatalf("%s: content does not marshal: %v", name, err)
		}
		var decoded any
		if err := json.Unmarshal(b, &decoded); err != nil {
			t.Fatal(err)
		}
		back, err := p.ContentSpace().Normalize(decoded, "content")
		if err != nil || !space.Equal(back, contents[i]) || !space.Equal(contents[i], back) {
			t.Fatalf("%s: JSON round trip changed the content (%v)", name, err)
		}
		flat := space.Flat(p.ContentSpace(), contents[i])
		if len(flat) != space.Size(p.ContentSpace()) {
			t.Fatalf("%s: flat length %d, want %d", name, len(flat), space.Size(p.ContentSpace()))
		}
		re, err := space.Restructure(p.ContentSpace(), flat)
		if err != nil || !space.Equal(re, contents[i]) {
			t.Fatalf("%s: restructure(flat(c)) != c (%v)", name, err)
		}
	}
	infos := make([]problems.Info, n)
	for i, c := range contents {
		info, err := p.Info(c)
		if err != nil {
			t.Fatalf("%s: info: %v", name, err)
		}
		info2, _ := p.Info(c)
		j1, _ := json.Marshal(info)
		j2, _ := json.Marshal(info2)
		if string(j1) != string(j2) {
			t.Fatalf("%s: info is not deterministic", name)
		}
		infos[i] = info
		in01(t, name+" quality", p.Quality(info))
		in01(t, name+" controlability", p.Controllability(info, controls[i]))
		img, err := p.Render(c)
		if err != nil || img == nil || img.Bounds().Empty() {
			t.Fatalf("%s: render: %v", name, err)
		}
	}
	for i := range infos {
		if d := p.Diversity(infos[i], infos[i]); d != 0 {
			t.Errorf("%s: self-diversity of item %d = %v, want 0", name, i, d)
		}
		for j := range infos {
			d := p.Diversity(infos[i], infos[j])
			in01(t, name+" diversity", d)
			if !opt.AsymmetricDiversity && d != p.Diversity(infos[j], infos[i]) {
				t.Errorf("%s: diversity not symmetric for items %d, %d", name, i, j)
			}
		}
	}
}

func in01(t *testing.T, what string, v float64) {
	t.Helper()
	if math.IsNaN(v) || v < 0 || v > 1 {
		t.Errorf("%s = %v, not in [0, 1]", what, v)
	}
}

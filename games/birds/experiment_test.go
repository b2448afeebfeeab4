package birds

import (
	"math"
	"os"
	"testing"
)

// TestExperimentConfigs compares simulation variants against the Unity archive; it only runs
// with BIRDS_EXPERIMENT=1 (a development aid, not a check).
func TestExperimentConfigs(t *testing.T) {
	if os.Getenv("BIRDS_EXPERIMENT") == "" {
		t.Skip("set BIRDS_EXPERIMENT=1")
	}
	cases := unityCases(t)
	variants := map[string]SimConfig{
		"default":    DefaultSimConfig(),
		"continuous": func() SimConfig { c := DefaultSimConfig(); c.Continuous = true; return c }(),
		"awake":      func() SimConfig { c := DefaultSimConfig(); c.KeepAwake = true; return c }(),
		"501":        func() SimConfig { c := DefaultSimConfig(); c.StabilitySteps = 501; c.ImageSteps = 501; return c }(),
		"nodamage":   func() SimConfig { c := DefaultSimConfig(); c.NoDamage = true; return c }(),
	}
	masks := map[string]*Mask{}
	for _, c := range cases {
		masks[c.name] = loadMask(t, c.image)
	}
	if os.Getenv("BIRDS_EXPERIMENT") == "quick" {
		variants = map[string]SimConfig{"default": DefaultSimConfig()}
	}
	for name, cfg := range variants {
		agree, exact := 0, 0
		iou := 0.0
		for _, c := range cases {
			data, _ := os.ReadFile(c.level)
			lv, _ := ParseLevel(data)
			res, err := Simulate(lv, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(res.Legacy-c.legacy) < 1e-6 {
				agree++
			}
			v := IoU(Render(res), masks[c.name])
			iou += v
			if v == 1 {
				exact++
			}
		}
		t.Logf("%-10s legacy %d/%d  IoU %.4f exact %d", name, agree, len(cases), iou/float64(len(cases)), exact)
	}
}

package birds

import (
	"math"
	"os"
	"testing"
)

// TestExperimentConfigs checks the simulation choices against the archived Unity run
// (docs/science-birds.md, "Modelling decisions"): none of the variants tried during development
// (continuous collision, no sleeping, 501 steps, damage off) agrees better with Unity than the
// default, in legacy stability or in mean image IoU, and switching damage off loses legacy
// agreement. Each variant simulates the 105 archived levels, hence the unit tier skips it.
func TestExperimentConfigs(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the 105 archived levels five times (-short)")
	}
	cases := unityCases(t)
	masks := map[string]*Mask{}
	for _, c := range cases {
		masks[c.name] = loadMask(t, c.image)
	}
	type agreement struct {
		legacy, exact int
		iou           float64
	}
	measure := func(cfg SimConfig) agreement {
		var a agreement
		for _, c := range cases {
			data, err := os.ReadFile(c.level)
			if err != nil {
				t.Fatal(err)
			}
			lv, err := ParseLevel(data)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Simulate(lv, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(res.Legacy-c.legacy) < 1e-6 {
				a.legacy++
			}
			v := IoU(Render(res), masks[c.name])
			a.iou += v
			if v == 1 {
				a.exact++
			}
		}
		a.iou /= float64(len(cases))
		return a
	}
	def := measure(DefaultSimConfig())
	t.Logf("%-10s legacy %d/%d  IoU %.4f exact %d", "default", def.legacy, len(cases), def.iou, def.exact)
	for _, v := range []struct {
		name   string
		change func(*SimConfig)
	}{
		{"continuous", func(c *SimConfig) { c.Continuous = true }},
		{"awake", func(c *SimConfig) { c.KeepAwake = true }},
		{"501", func(c *SimConfig) { c.StabilitySteps, c.ImageSteps = 501, 501 }},
		{"nodamage", func(c *SimConfig) { c.NoDamage = true }},
	} {
		cfg := DefaultSimConfig()
		v.change(&cfg)
		got := measure(cfg)
		t.Logf("%-10s legacy %d/%d  IoU %.4f exact %d", v.name, got.legacy, len(cases), got.iou, got.exact)
		if got.legacy > def.legacy || got.iou > def.iou {
			t.Errorf("%s agrees better with Unity than the default (legacy %d > %d or IoU %.4f > %.4f): the default is not the best choice",
				v.name, got.legacy, def.legacy, got.iou, def.iou)
		}
		if v.name == "nodamage" && got.legacy >= def.legacy {
			t.Errorf("without damage legacy agreement is %d, not below the default's %d: damage has no effect", got.legacy, def.legacy)
		}
	}
}

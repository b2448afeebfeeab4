package stats

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
)

// Obs is one observation of nested data: its value, the unit (cluster) it belongs to — the
// participant who played, the seed a run used — and optionally a crossed factor — the level
// that was played, when every participant plays several levels and every level is played by
// several participants. Observations of the same unit (or of the same crossed factor) are not
// independent, so they are resampled together.
type Obs struct {
	Value       float64
	Unit, Cross string
}

// ClusterMethod names the cluster bootstrap; TwoWayMethod the two-way one.
const (
	ClusterMethod = "cluster bootstrap of the mean (units resampled whole), 2000 resamples, 95%, seeded by the data"
	TwoWayMethod  = "two-way cluster bootstrap of the mean (units and crossed factor resampled independently, Owen's pigeonhole bootstrap), 2000 resamples, 95%, seeded by the data"
)

// ClusterMean is the mean of the observations with a cluster-bootstrap 95% interval: each
// replicate draws as many units as there are, with replacement, and weights each observation
// by how often its unit was drawn. When more than one distinct Cross is given, the crossed
// factor is drawn the same way, independently, and an observation's weight is the product
// (the two-way bootstrap for plays nested in participants × levels). Replicates with no
// weight are left out. N is the number of units; with fewer than two there is no interval.
func ClusterMean(obs []Obs) Interval {
	return clusterBoot(obs, nil)
}

// ClusterDiff is the difference of the means of two groups of nested observations,
// mean(a) − mean(b), with a cluster-bootstrap 95% interval: units (and the crossed factor)
// are drawn from the union of both groups' ids, so a participant who played in both groups is
// drawn for both at once (the pairing is kept). N is the number of distinct units.
func ClusterDiff(a, b []Obs) Interval {
	if b == nil {
		b = []Obs{}
	}
	return clusterBoot(a, b)
}

// clusterBoot is ClusterMean of a when b is nil, ClusterDiff of a and b otherwise.
func clusterBoot(a, b []Obs) Interval {
	all := append(slices.Clone(a), b...)
	units, crosses := ids(all, func(o Obs) string { return o.Unit }), ids(all, func(o Obs) string { return o.Cross })
	twoWay := len(crosses) > 1
	method := ClusterMethod
	if twoWay {
		method = TwoWayMethod
	}
	if b != nil {
		method = "difference of means by " + method
	}
	iv := none(len(units), method)
	mean := func(os []Obs, wu, wc []float64) float64 {
		s, w := 0.0, 0.0
		for _, o := range os {
			x := wu[units[o.Unit]] * wc[crosses[o.Cross]]
			s += x * o.Value
			w += x
		}
		if w == 0 {
			return math.NaN()
		}
		return s / w
	}
	stat := func(wu, wc []float64) float64 {
		if b == nil {
			return mean(a, wu, wc)
		}
		return mean(a, wu, wc) - mean(b, wu, wc)
	}
	ones := func(n int) []float64 {
		w := make([]float64, n)
		for i := range w {
			w[i] = 1
		}
		return w
	}
	wu, wc := ones(len(units)), ones(len(crosses))
	iv.Mean = stat(wu, wc)
	if len(all) == 0 || math.IsNaN(iv.Mean) || len(units) < 2 {
		return iv
	}
	h := fnv.New64a()
	for _, o := range all {
		fmt.Fprintf(h, "%x|%s|%s;", math.Float64bits(o.Value), o.Unit, o.Cross)
	}
	rng := newRand(h.Sum64(), uint64(len(all)))
	draw := func(w []float64) {
		clear(w)
		for range w {
			w[rng.IntN(len(w))]++
		}
	}
	vals := make([]float64, 0, Resamples)
	for range Resamples {
		draw(wu)
		if twoWay {
			draw(wc)
		}
		if v := stat(wu, wc); !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	iv.Lo, iv.Hi = percentiles(vals)
	return iv
}

// ids numbers the distinct keys of the observations in order of first appearance.
func ids(obs []Obs, key func(Obs) string) map[string]int {
	m := map[string]int{}
	for _, o := range obs {
		if _, ok := m[key(o)]; !ok {
			m[key(o)] = len(m)
		}
	}
	return m
}

package search

import (
	"context"
	"fmt"
	"math"

	"pcgwb/problems"
	"pcgwb/problems/space"
)

// DeclaredRange is the range a problem declares for an info field: the bounds of the control
// space's key of that name (the targets a controlled level is asked for), or [0, 1] for quality
// and controllability. Whole is true for integer fields.
type DeclaredRange struct {
	Min, Max float64
	Whole    bool
}

// DeclaredRanges lists the problem's declared ranges by field: quality and controllability,
// and every numeric key of its control space.
func DeclaredRanges(p problems.Problem) map[string]DeclaredRange {
	out := map[string]DeclaredRange{"quality": {0, 1, false}, "controllability": {0, 1, false}}
	d, ok := p.ControlSpace().(space.Dict)
	if !ok {
		return out
	}
	for _, f := range d {
		switch s := f.Space.(type) {
		case space.Int:
			out[f.Key] = DeclaredRange{float64(s.Min), float64(s.Max), true}
		case space.Float:
			out[f.Key] = DeclaredRange{s.Min, s.Max, false}
		}
	}
	return out
}

// FitAxis is an axis over values: a bin per whole number when they are whole and fit in
// maxBins, else maxBins equal bins over their range (one bin when they are all equal).
func FitAxis(field string, vals []float64, maxBins int) Axis {
	maxBins = max(maxBins, 1)
	lo, hi, whole, seen := math.Inf(1), math.Inf(-1), true, false
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		seen = true
		lo, hi = math.Min(lo, v), math.Max(hi, v)
		whole = whole && v == math.Trunc(v)
	}
	switch {
	case !seen:
		return Axis{Field: field, Min: 0, Max: 1, Bins: 1}
	case whole && hi-lo+1 <= float64(maxBins):
		return Axis{Field: field, Min: lo - 0.5, Max: hi + 0.5, Bins: int(hi-lo) + 1}
	case hi == lo:
		return Axis{Field: field, Min: lo - 0.5, Max: hi + 0.5, Bins: 1}
	}
	return Axis{Field: field, Min: lo, Max: hi, Bins: maxBins}
}

// SuggestAxes proposes MAP-Elites axes for two (or more) fields, with at most bins bins each.
// Every field is fitted to 64 random contents drawn from seed, its upper end doubled because
// evolved levels reach further than random ones; a field whose range the problem declares
// (DeclaredRanges) is widened to hold that range, so the archive spans the levels the problem
// asks for as well as those on the way there (zelda from the Run tab: best 0.999 after 200
// generations of 50 where axes fitted to random levels alone stayed at 0.49). Values outside
// an axis still fall in its end bins; ArchiveView.Outside counts them.
func SuggestAxes(ctx context.Context, p problems.Problem, fields []string, bins int, seed uint64) ([]Axis, error) {
	declared := DeclaredRanges(p)
	out := make([]Axis, len(fields))
	var sampled map[string][]float64
	for k, f := range fields {
		if f == "quality" || f == "controllability" {
			out[k] = Axis{Field: f, Min: 0, Max: 1, Bins: max(bins, 1)}
			continue
		}
		if sampled == nil {
			var err error
			if sampled, err = sampleFields(ctx, p, seed); err != nil {
				return nil, err
			}
		}
		vals := sampled[f]
		if len(vals) == 0 {
			return nil, fmt.Errorf("the info has no numeric field %q", f)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range vals {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		hi += math.Max(hi-lo, 1)
		if r, ok := declared[f]; ok {
			// The declared targets and the levels on the way to them: an archive over the
			// targets alone piles every level that misses them into its end bins.
			lo, hi = math.Min(lo, r.Min), math.Max(hi, r.Max)
		}
		out[k] = FitAxis(f, []float64{lo, hi}, bins)
	}
	return out, nil
}

// sampleFields evaluates 64 random contents and collects every numeric info field's values.
func sampleFields(ctx context.Context, p problems.Problem, seed uint64) (map[string][]float64, error) {
	const n = 64
	r := problems.NewRand(seed ^ 0xa11e5)
	contents := make([]problems.Content, n)
	for i := range contents {
		contents[i] = p.ContentSpace().Sample(r)
		problems.SampleControl(p, r) // drawn as a sample set draws it: the same contents for a seed
	}
	infos, err := problems.Infos(ctx, p, contents)
	if err != nil {
		return nil, err
	}
	out := map[string][]float64{}
	for _, info := range infos {
		fields, err := FlattenInfo(info)
		if err != nil {
			return nil, err
		}
		for k, v := range fields {
			out[k] = append(out[k], v)
		}
	}
	return out, nil
}

// outside counts, per axis, the archive's elites whose value lies outside the axis's range
// (they sit in its end bins).
func outside(axes []Axis, elites []*Individual) []int {
	counts := make([]int, len(axes))
	found := false
	for _, ind := range elites {
		for k, a := range axes {
			if k < len(ind.Features) && (ind.Features[k] < a.Min || ind.Features[k] > a.Max) {
				counts[k]++
				found = true
			}
		}
	}
	if !found {
		return nil
	}
	return counts
}

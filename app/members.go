package app

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"pcgwb/problems"
	"pcgwb/problems/search"
)

// member is one evaluated level shown by the workbench: an individual of a run's population,
// an item of a sample set or a level of an opened folder. Its Info is nil until computed (a
// run's checkpoint does not store it). Its JSON is the embedded level's (a final.json entry).
type member struct {
	problems.Scored
	// index is the member's position in the set it came from (0-based; best first for runs).
	index   int
	numbers map[string]float64
}

// newMember is the member at index i of its set.
func newMember(i int, s problems.Scored) member { return member{Scored: s, index: i} }

// Metric pseudo-fields available besides the info's own numeric fields.
const (
	metricQuality         = "quality"
	metricDiversity       = "diversity"
	metricControllability = "controllability"
	metricFitness         = "fitness"
)

// metric returns a metric of the member: one of the Metric* names or a dotted path to a
// numeric (or boolean) info field. It reports false when the member has no such number.
func (m *member) metric(field string) (float64, bool) {
	switch field {
	case metricQuality:
		return m.Quality, true
	case metricDiversity:
		return m.Diversity, true
	case metricControllability:
		return m.Controllability, true
	case metricFitness:
		return m.Fitness, true
	}
	v, ok := m.infoNumbers()[field]
	return v, ok
}

// infoNumbers flattens the info's numeric and boolean fields into dotted paths (booleans are 0
// or 1). It is computed once per member.
func (m *member) infoNumbers() map[string]float64 {
	if m.numbers == nil && m.Info != nil {
		m.numbers = infoNumbers(m.Info)
	}
	return m.numbers
}

// infoNumbers flattens an info into its numeric fields by dotted path: search.FlattenInfo,
// the one flattening MAP-Elites' axes use too (an info that does not encode gives none).
func infoNumbers(info problems.Info) map[string]float64 {
	out, err := search.FlattenInfo(info)
	if err != nil {
		return map[string]float64{}
	}
	return out
}

// infoLines is the info as "key: value" lines in key order (nested objects indented), for the
// detail view.
func infoLines(info problems.Info) []string {
	b, err := json.Marshal(info)
	if err != nil {
		return []string{"(info does not encode: " + err.Error() + ")"}
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil
	}
	var out []string
	var walk func(indent string, v any)
	walk = func(indent string, v any) {
		obj, ok := v.(map[string]any)
		if !ok {
			out = append(out, indent+compactJSON(v, 80))
			return
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if sub, ok := obj[k].(map[string]any); ok && len(sub) > 0 {
				out = append(out, indent+k+":")
				walk(indent+"  ", sub)
				continue
			}
			out = append(out, indent+k+": "+compactJSON(obj[k], 80))
		}
	}
	walk("", v)
	return out
}

// compactJSON encodes v on one line, cut to at most limit runes.
func compactJSON(v any, limit int) string {
	var s string
	if f, ok := v.(float64); ok {
		s = formatNumber(f)
	} else {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Sprint(v)
		}
		s = string(b)
	}
	if r := []rune(s); len(r) > limit {
		return string(r[:limit-1]) + "…"
	}
	return s
}

// formatNumber shows integers as integers and other numbers with up to four decimals.
func formatNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	s := strconv.FormatFloat(f, 'f', 4, 64)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

func formatFixed(f float64, decimals int) string { return strconv.FormatFloat(f, 'f', decimals, 64) }

// metricFields lists what a heatmap or a sort can use for these members: the four metrics,
// then every numeric info field any member has, alphabetically.
func metricFields(members []member) []string {
	seen := map[string]bool{}
	for i := range members {
		for k := range members[i].infoNumbers() {
			seen[k] = true
		}
	}
	info := make([]string, 0, len(seen))
	for k := range seen {
		info = append(info, k)
	}
	sort.Strings(info)
	return append([]string{metricQuality, metricControllability, metricDiversity, metricFitness}, info...)
}

// sortKey orders a gallery.
type sortKey string

// The gallery's orders. SortOriginal keeps the set's own order (best first for a run).
const (
	sortOriginal        sortKey = "Original order"
	sortFitness         sortKey = "Fitness"
	sortQuality         sortKey = "Quality"
	sortDiversity       sortKey = "Diversity"
	sortControllability sortKey = "Controllability"
)

// sortKeys lists the orders in menu order.
func sortKeys() []sortKey {
	return []sortKey{sortOriginal, sortFitness, sortQuality, sortControllability, sortDiversity}
}

// filter keeps only members that pass every criterion asked for.
type filter struct{ feasible, unique, controlled bool }

// filterChoices are the filters a gallery offers, by menu label.
var filterChoices = []struct {
	label  string
	filter filter
}{
	{"All levels", filter{}},
	{"Feasible", filter{feasible: true}},
	{"Unique", filter{unique: true}},
	{"Controlled", filter{controlled: true}},
	{"Feasible + unique", filter{feasible: true, unique: true}},
	{"Feasible + ctrl.", filter{feasible: true, controlled: true}},
	{"All three pass", filter{feasible: true, unique: true, controlled: true}},
}

// filterNamed returns the filter of a menu label (no filter for an unknown one).
func filterNamed(label string) filter {
	for _, c := range filterChoices {
		if c.label == label {
			return c.filter
		}
	}
	return filter{}
}

func (f filter) keeps(m *member) bool {
	return (!f.feasible || m.Feasible()) && (!f.unique || m.Unique()) && (!f.controlled || m.Controlled())
}

// selectMembers returns the positions (in members) of those the filter keeps, in the order
// key asks for: descending values, ties in the original order.
func selectMembers(members []member, f filter, key sortKey) []int {
	out := make([]int, 0, len(members))
	for i := range members {
		if f.keeps(&members[i]) {
			out = append(out, i)
		}
	}
	value := func(m *member) float64 {
		switch key {
		case sortFitness:
			return m.Fitness
		case sortQuality:
			return m.Quality
		case sortDiversity:
			return m.Diversity
		case sortControllability:
			return m.Controllability
		}
		return -float64(m.index)
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(value(&members[b]), value(&members[a])) })
	return out
}

// ensureInfos computes the info of every member that has none (in parallel, see
// problems.Infos). A member whose info fails keeps a nil info.
func ensureInfos(ctx context.Context, p problems.Problem, members []member) error {
	var todo []int
	var contents []problems.Content
	for i := range members {
		if members[i].Info == nil {
			todo = append(todo, i)
			contents = append(contents, members[i].Content)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	infos, err := problems.Infos(ctx, p, contents)
	if err != nil {
		return err
	}
	for k, i := range todo {
		members[i].Info = infos[k]
		members[i].numbers = nil
	}
	return nil
}

// membersOfSample turns a sample set into members (fitness is the quality, as in a quality run).
func membersOfSample(set *SampleSet) []member {
	out := make([]member, len(set.Levels))
	for i, s := range set.Levels {
		out[i] = newMember(i, s)
	}
	return out
}

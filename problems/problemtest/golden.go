package problemtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"pcgwb/problems"
)

// Tolerance is the absolute tolerance for every float compared with a golden file.
const Tolerance = 1e-9

// Golden is a golden vector file produced by the Python reference (format pcg-golden/1).
type Golden struct {
	Format        string           `json:"format"`
	Problem       string           `json:"problem"`
	Params        map[string]any   `json:"params"`
	Items         []GoldenItem     `json:"items"`
	SetEvaluation GoldenSet        `json:"set_evaluation"`
	Matrix        [][]float64      `json:"diversity_matrix"`
	ErrorCases    []map[string]any `json:"error_cases"`
}

// GoldenItem is one content with the reference's values for it.
type GoldenItem struct {
	ID              string         `json:"id"`
	Origin          string         `json:"origin"`
	Content         any            `json:"content"`
	Control         any            `json:"control"`
	Quality         float64        `json:"quality"`
	Controllability float64        `json:"controlability"`
	Info            map[string]any `json:"info"`
}

// GoldenSet is the reference's set evaluation over the file's items.
type GoldenSet struct {
	PerItem struct {
		QualityPct         float64          `json:"quality_pct"`
		DiversityPct       float64          `json:"diversity_pct"`
		ControllabilityPct float64          `json:"controlability_pct"`
		Details            problems.Details `json:"details"`
	} `json:"per_item_controls"`
	Single struct {
		Index              int       `json:"control_item_index"`
		ControllabilityPct float64   `json:"controlability_pct"`
		Controllability    []float64 `json:"controlability"`
	} `json:"single_control"`
}

// LoadGolden reads a golden file; numbers stay float64 as JSON gives them.
func LoadGolden(t testing.TB, path string) *Golden {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v", err)
	}
	var g Golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatalf("golden file %s: %v", path, err)
	}
	return &g
}

// Contents normalizes the golden contents through the problem's content space.
func (g *Golden) Contents(t testing.TB, p problems.Problem) []problems.Content {
	t.Helper()
	out := make([]problems.Content, len(g.Items))
	for i, it := range g.Items {
		c, err := p.ContentSpace().Normalize(it.Content, "content")
		if err != nil {
			t.Fatalf("%s: golden content is not in the content space: %v", it.ID, err)
		}
		out[i] = c
	}
	return out
}

// Played returns the normalized contents of the items the reference's agents played: those
// whose info has a "heuristic" of at least 0 (an unplayed item stores -1).
func (g *Golden) Played(t testing.TB, p problems.Problem) []problems.Content {
	t.Helper()
	all := g.Contents(t, p)
	var out []problems.Content
	for i, it := range g.Items {
		h, ok := it.Info["heuristic"].(float64)
		if !ok {
			t.Fatalf("%s: golden info has no numeric heuristic", it.ID)
		}
		if h >= 0 {
			out = append(out, all[i])
		}
	}
	return out
}

// Controls normalizes the golden controls through the problem's control space.
func (g *Golden) Controls(t testing.TB, p problems.Problem) []problems.Control {
	t.Helper()
	out := make([]problems.Control, len(g.Items))
	for i, it := range g.Items {
		c, err := p.ControlSpace().Normalize(it.Control, "control")
		if err != nil {
			t.Fatalf("%s: golden control is not in the control space: %v", it.ID, err)
		}
		out[i] = c
	}
	return out
}

// CheckGolden compares everything the golden file holds: per-item info (every key the
// reference stores), quality and controllability, the full diversity matrix, and both set
// evaluations. Each mismatch is reported with the item id and the JSON path.
func CheckGolden(t *testing.T, p problems.Problem, g *Golden) {
	t.Helper()
	contents := g.Contents(t, p)
	controls := g.Controls(t, p)
	infos, err := problems.Infos(context.Background(), p, contents)
	if err != nil {
		t.Fatalf("info: %v", err)
	}
	for i, it := range g.Items {
		if q := p.Quality(infos[i]); !close(q, it.Quality) {
			t.Errorf("%s: quality = %.17g, want %.17g", it.ID, q, it.Quality)
		}
		if c := p.Controllability(infos[i], controls[i]); !close(c, it.Controllability) {
			t.Errorf("%s: controlability = %.17g, want %.17g", it.ID, c, it.Controllability)
		}
		got, err := ToJSON(infos[i])
		if err != nil {
			t.Fatalf("%s: info does not marshal: %v", it.ID, err)
		}
		for _, d := range Diff(got, any(it.Info), "info") {
			t.Errorf("%s: %s", it.ID, d)
		}
	}
	m := problems.DiversityMatrix(p, infos)
	plain := problems.PlainDiversityMatrix(p, infos)
	for i := range m {
		for j := range m[i] {
			if math.Float64bits(m[i][j]) != math.Float64bits(plain[i][j]) {
				t.Errorf("diversity(%s, %s): the set kernel gives %.17g, Diversity %.17g", g.Items[i].ID, g.Items[j].ID, m[i][j], plain[i][j])
			}
		}
	}
	for i := range g.Matrix {
		for j := range g.Matrix[i] {
			if !close(m[i][j], g.Matrix[i][j]) {
				t.Errorf("diversity(%s, %s) = %.17g, want %.17g", g.Items[i].ID, g.Items[j].ID, m[i][j], g.Matrix[i][j])
			}
		}
	}
	want := g.SetEvaluation.PerItem
	e := problems.EvaluateInfos(p, infos, controls)
	checkFloat(t, "set quality_pct", e.QualityPct, want.QualityPct)
	checkFloat(t, "set diversity_pct", e.DiversityPct, want.DiversityPct)
	checkFloat(t, "set controlability_pct", e.ControllabilityPct, want.ControllabilityPct)
	checkList(t, "set details.quality", e.Details.Quality, want.Details.Quality)
	checkList(t, "set details.diversity", e.Details.Diversity, want.Details.Diversity)
	checkList(t, "set details.controlability", e.Details.Controllability, want.Details.Controllability)
	single := g.SetEvaluation.Single
	pct, vals := problems.Controllabilities(p, infos, []problems.Control{controls[single.Index]})
	checkFloat(t, "single-control controlability_pct", pct, single.ControllabilityPct)
	checkList(t, "single-control controlability", vals, single.Controllability)
}

func checkFloat(t *testing.T, what string, got, want float64) {
	t.Helper()
	if !close(got, want) {
		t.Errorf("%s = %.17g, want %.17g", what, got, want)
	}
}

func checkList(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d values, want %d", what, len(got), len(want))
		return
	}
	for i := range got {
		if !close(got[i], want[i]) {
			t.Errorf("%s[%d] = %.17g, want %.17g", what, i, got[i], want[i])
		}
	}
}

func close(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= Tolerance
}

// ToJSON marshals v and decodes it back into plain JSON values (float64 numbers).
func ToJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	d := json.NewDecoder(bytes.NewReader(b))
	err = d.Decode(&out)
	return out, err
}

// Diff compares a JSON value with the reference's: numbers within Tolerance (an int and a
// float of the same value are equal), strings and booleans exactly, list lengths and dict keys
// exactly. It returns one line per difference (at most 20).
func Diff(got, want any, path string) []string {
	var out []string
	diff(got, want, path, &out)
	return out
}

func diff(got, want any, path string, out *[]string) {
	if len(*out) >= 20 {
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: got %s, want an object", path, short(got)))
			return
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				*out = append(*out, fmt.Sprintf("%s: missing key %q", path, k))
				continue
			}
			diff(gv, w[k], path+"."+k, out)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				*out = append(*out, fmt.Sprintf("%s: extra key %q", path, k))
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: got %s, want a list of %d", path, short(got), len(w)))
			return
		}
		if len(g) != len(w) {
			*out = append(*out, fmt.Sprintf("%s: %d elements, want %d (got %s, want %s)", path, len(g), len(w), short(g), short(w)))
			return
		}
		for i := range w {
			diff(g[i], w[i], fmt.Sprintf("%s[%d]", path, i), out)
		}
	case float64:
		g, ok := got.(float64)
		if !ok || !close(g, w) {
			*out = append(*out, fmt.Sprintf("%s = %s, want %.17g", path, short(got), w))
		}
	default:
		if got != want {
			*out = append(*out, fmt.Sprintf("%s = %s, want %s", path, short(got), short(want)))
		}
	}
}

func short(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return strings.ReplaceAll(s, "\n", " ")
}

package experiment

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"pcgwb/internal/atomicfile"
)

// runsLeading are runs.csv's first configuration columns; every other configuration field
// follows in alphabetical order, nested ones dotted ("llm.model").
var runsLeading = []string{"problem", "fitness", "generator", "seed", "pop_size", "generations"}

// runsFinal are runs.csv's last columns: where the run got and its final metrics (empty for a
// run not finished).
var runsFinal = []string{"finished", "generation", "evaluations", "model_calls", "elapsed_s", "best_fitness", "size",
	"feasible", "unique", "controlled", "feasible_share", "unique_share", "controlled_share"}

// flatConfig is a configuration as dotted keys and their values as cells (lists as JSON).
func flatConfig(c Config) map[string]string {
	raw, _ := json.Marshal(c)
	var v map[string]any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	_ = d.Decode(&v)
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(prefix+k+".", e)
			}
		case nil:
			out[strings.TrimSuffix(prefix, ".")] = ""
		case string:
			out[strings.TrimSuffix(prefix, ".")] = x
		case json.Number:
			out[strings.TrimSuffix(prefix, ".")] = x.String()
		default:
			b, _ := json.Marshal(x)
			out[strings.TrimSuffix(prefix, ".")] = string(b)
		}
	}
	walk("", v)
	delete(out, "format")
	return out
}

// RunsTable is runs.csv: a header and one row per run, every configuration field and the
// final metrics; dir is the run folder relative to root.
func RunsTable(root string, runs []*Record) [][]string {
	flats := make([]map[string]string, len(runs))
	extra := map[string]bool{}
	for i, r := range runs {
		flats[i] = flatConfig(r.Config)
		for k := range flats[i] {
			if !slices.Contains(runsLeading, k) {
				extra[k] = true
			}
		}
	}
	var others []string
	for k := range extra {
		others = append(others, k)
	}
	sort.Strings(others)
	header := append(append(append([]string{"dir"}, runsLeading...), others...), runsFinal...)
	rows := [][]string{header}
	f := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	for i, r := range runs {
		dir, err := filepath.Rel(root, r.Dir)
		if err != nil {
			dir = r.Dir
		}
		row := []string{filepath.ToSlash(dir)}
		for _, k := range append(slices.Clone(runsLeading), others...) {
			row = append(row, flats[i][k])
		}
		fin := make([]string, len(runsFinal))
		fin[0] = strconv.FormatBool(r.Finished())
		if l := r.Last(); l != nil {
			fin[1], fin[3], fin[4] = strconv.Itoa(l.Generation), strconv.Itoa(l.ModelCalls), f(l.Elapsed)
			fin[2] = strconv.Itoa(l.Evaluations)
		}
		if r.Finished() {
			fz := r.Final
			fin[1], fin[2] = strconv.Itoa(fz.Generation), strconv.Itoa(fz.Evaluations)
			fin[5], fin[6] = f(fz.BestFitness), strconv.Itoa(fz.Size)
			fin[7], fin[8], fin[9] = strconv.Itoa(fz.Feasible), strconv.Itoa(fz.Unique), strconv.Itoa(fz.Controlled)
			if fz.Size > 0 {
				n := float64(fz.Size)
				fin[10], fin[11], fin[12] = f(float64(fz.Feasible)/n), f(float64(fz.Unique)/n), f(float64(fz.Controlled)/n)
			}
		}
		rows = append(rows, append(row, fin...))
	}
	return rows
}

// writeRunsCSV writes RunsTable to path.
func writeRunsCSV(path, root string, runs []*Record) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.WriteAll(RunsTable(root, runs))
	if err := w.Error(); err != nil {
		return err
	}
	return atomicfile.Write(path, buf.Bytes(), 0o644)
}

// texEscape escapes LaTeX's special characters.
func texEscape(s string) string {
	return strings.NewReplacer(`\`, `\textbackslash{}`, "&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`, "_", `\_`,
		"{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`, "−", "$-$", "–", "--").Replace(s)
}

// texInterval is "0.912 [0.880, 0.940]" in LaTeX, or the mean alone without an interval.
func texInterval(iv Interval, scale float64, decimals int) string {
	if math.IsNaN(iv.Mean) {
		return "--"
	}
	m := strconv.FormatFloat(iv.Mean*scale, 'f', decimals, 64)
	if iv.TooFew() {
		return m
	}
	return fmt.Sprintf("%s {\\small[%s, %s]}", m, strconv.FormatFloat(iv.Lo*scale, 'f', decimals, 64),
		strconv.FormatFloat(iv.Hi*scale, 'f', decimals, 64))
}

// writeLaTeX writes summary.tex (and differences.tex when withDiffs) into dir: booktabs
// tables ready for \input, each captioned with its unit, n and method.
func writeLaTeX(dir string, sums []Summary, diffs []Difference, withDiffs bool) ([]string, error) {
	var b strings.Builder
	b.WriteString("% written by workbench report --latex; needs \\usepackage{booktabs}\n")
	b.WriteString("\\begin{table}[t]\n\\centering\n")
	b.WriteString("\\caption{Final populations per configuration. Unit: one finished run (one seed); n counts them. " +
		"Means with 95\\% percentile-bootstrap intervals (2000 resamples); shares are of the levels each run produced, in \\%.}\n")
	b.WriteString("\\begin{tabular}{lllrllll}\n\\toprule\n")
	b.WriteString("problem & fitness & generator & n & best fitness & feasible \\% & unique \\% & controlled \\% \\\\\n\\midrule\n")
	for _, s := range sums {
		fmt.Fprintf(&b, "%s & %s & %s & %d & %s & %s & %s & %s \\\\\n", texEscape(s.Problem), texEscape(s.Fitness),
			texEscape(s.Generator), s.Finished, texInterval(s.Best, 1, 3), texInterval(s.FeasibleFrac, 100, 0),
			texInterval(s.UniqueFrac, 100, 0), texInterval(s.ControlledFrac, 100, 0))
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n\\end{table}\n")
	paths := []string{filepath.Join(dir, "summary.tex")}
	if err := atomicfile.Write(paths[0], []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	if !withDiffs {
		return paths, nil
	}
	b.Reset()
	b.WriteString("% written by workbench report --compare --latex; needs \\usepackage{booktabs}\n")
	b.WriteString("\\begin{table}[t]\n\\centering\n\\small\n")
	b.WriteString("\\caption{" + texEscape(DifferencesMethod) + "}\n")
	b.WriteString("\\begin{tabular}{lllllrrrrrrr}\n\\toprule\n")
	b.WriteString("problem & fitness & metric & a & b & $n_a$ & $n_b$ & mean a & mean b & diff [95\\% CI] & $\\hat A_{12}$ & $p$ (Holm) \\\\\n\\midrule\n")
	for _, d := range diffs {
		c := d.Cells()
		ci := c[9]
		if c[10] != "" {
			ci += " [" + c[10] + ", " + c[11] + "]"
		}
		p := c[13]
		if c[14] != "" {
			p += " (" + c[14] + ")"
		}
		fmt.Fprintf(&b, "%s & %s & %s & %s & %s & %s & %s & %s & %s & %s & %s & %s \\\\\n", texEscape(c[0]), texEscape(c[1]),
			texEscape(c[2]), texEscape(c[3]), texEscape(c[4]), c[5], c[6], c[7], c[8], ci, c[12], p)
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n\\end{table}\n")
	paths = append(paths, filepath.Join(dir, "differences.tex"))
	if err := atomicfile.Write(paths[1], []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	return paths, nil
}

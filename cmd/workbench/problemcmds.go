package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"time"

	"pcgwb/internal/atomicfile"
	"pcgwb/problems"
	"pcgwb/problems/data"
)

func cmdProblems(args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("problems", flag.ContinueOnError)
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	for _, n := range problems.List() {
		if err := problems.Unavailable(n); err != nil {
			// Name, TAB, marker: the first field stays a bare name for scripts.
			fmt.Fprintf(stdout, "%s\t%s\n", n, unavailableMarker(err))
			continue
		}
		fmt.Fprintln(stdout, n)
	}
	return nil
}

// unavailableMarker is the short form of why a problem cannot run, e.g.
// "[needs data: loderunner/patterns.txt, loderunner/data/level_0..4.txt]".
func unavailableMarker(err error) string {
	if m, ok := data.IsMissing(err); ok {
		return "[needs data: " + m.Summary() + "]"
	}
	return "[unavailable: " + err.Error() + "]"
}

func makeProblem(name string) (problems.Problem, error) {
	p, err := problems.Make(name)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	return p, nil
}

// newRand is the one seeded source every command uses, so a seed means the same on the CLI and
// in the GUI.
func newRand(seed uint64) *rand.Rand { return problems.NewRand(seed) }

func cmdSample(args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("sample", flag.ContinueOnError)
	n := fs.Int("n", 1, "number of items")
	seed := fs.Uint64("seed", 0, "random seed")
	pos, err := parseArgs(fs, args, "PROBLEM")
	if err != nil {
		return err
	}
	if *n < 0 {
		return usagef("-n must be >= 0")
	}
	p, err := makeProblem(pos[0])
	if err != nil {
		return err
	}
	r := newRand(*seed)
	out := problems.ItemFile{Problem: pos[0], Items: make([]problems.Item, *n)}
	for i := range out.Items {
		out.Items[i] = problems.Item{Content: p.ContentSpace().Sample(r), Control: problems.SampleControl(p, r)}
	}
	return writeJSON(stdout, out)
}

func readItems(p problems.Problem, path string) ([]problems.Item, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, usageError{err.Error()}
	}
	items, err := problems.DecodeItems(p, data)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	return items, nil
}

type evalItem struct {
	ID              string        `json:"id"`
	Quality         float64       `json:"quality"`
	Controllability float64       `json:"controlability"`
	Info            problems.Info `json:"info"`
}

type evalTiming struct {
	InfoMsMean   float64 `json:"info_ms_mean"`
	InfoMsMedian float64 `json:"info_ms_median"`
	EvalMsTotal  float64 `json:"eval_ms_total"`
}

type evalOutput struct {
	Problem            string           `json:"problem"`
	Items              []evalItem       `json:"items"`
	QualityPct         float64          `json:"quality_pct"`
	DiversityPct       float64          `json:"diversity_pct"`
	ControllabilityPct float64          `json:"controlability_pct"`
	Details            problems.Details `json:"details"`
	DiversityMatrix    [][]float64      `json:"diversity_matrix,omitempty"`
	Timing             *evalTiming      `json:"timing,omitempty"`
}

func cmdEval(args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	matrix := fs.Bool("matrix", false, "also print the full diversity matrix")
	timing := fs.Bool("timing", false, "also print in-process timings (info computed sequentially)")
	pos, err := parseArgs(fs, args, "PROBLEM", "FILE")
	if err != nil {
		return err
	}
	p, err := makeProblem(pos[0])
	if err != nil {
		return err
	}
	items, err := readItems(p, pos[1])
	if err != nil {
		return err
	}
	start := time.Now()
	var infos []problems.Info
	var perInfo []time.Duration
	if *timing {
		// Sequential, so each item's time is its own and not shared with a parallel worker.
		infos = make([]problems.Info, len(items))
		for i, it := range items {
			t0 := time.Now()
			if infos[i], err = p.Info(it.Content); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
			perInfo = append(perInfo, time.Since(t0))
		}
	} else if infos, err = problems.Infos(context.Background(), p, problems.Contents(items)); err != nil {
		return err
	}
	controls := problems.Controls(items)
	e := problems.EvaluateInfos(p, infos, controls)
	out := evalOutput{
		Problem:            pos[0],
		Items:              make([]evalItem, len(items)),
		QualityPct:         e.QualityPct,
		DiversityPct:       e.DiversityPct,
		ControllabilityPct: e.ControllabilityPct,
		Details:            e.Details,
	}
	for i, it := range items {
		id := it.ID
		if id == "" {
			id = strconv.Itoa(i)
		}
		out.Items[i] = evalItem{ID: id, Quality: e.Details.Quality[i], Controllability: e.Details.Controllability[i], Info: infos[i]}
	}
	if *matrix {
		out.DiversityMatrix = problems.DiversityMatrix(p, infos)
	}
	if *timing {
		out.Timing = &evalTiming{EvalMsTotal: ms(time.Since(start))}
		out.Timing.InfoMsMean, out.Timing.InfoMsMedian = meanMedianMs(perInfo)
	}
	return writeJSON(stdout, out)
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func meanMedianMs(ds []time.Duration) (float64, float64) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := make([]float64, len(ds))
	total := 0.0
	for i, d := range ds {
		s[i] = ms(d)
		total += s[i]
	}
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return total / float64(len(s)), med
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func cmdRender(args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	outDir := fs.String("out", "", "output folder (created if missing)")
	pos, err := parseArgs(fs, args, "PROBLEM", "FILE")
	if err != nil {
		return err
	}
	if *outDir == "" {
		return usagef("--out DIR is required")
	}
	p, err := makeProblem(pos[0])
	if err != nil {
		return err
	}
	items, err := readItems(p, pos[1])
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		return err
	}
	for i, it := range items {
		img, err := p.Render(it.Content)
		if err != nil {
			return fmt.Errorf("item %d: render: %w", i, err)
		}
		name := fmt.Sprintf("%03d", i)
		if it.ID != "" {
			name = unsafeName.ReplaceAllString(it.ID, "_")
		}
		path := filepath.Join(*outDir, name+".png")
		if err := atomicfile.WriteFunc(path, 0o644, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
			return err
		}
		fmt.Fprintln(stdout, path)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"

	"pcgwb/problems"
)

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

func evalCommand() *Command {
	return &Command{Name: "eval", Args: []string{"PROBLEM", "FILE"},
		Short: "PROBLEM FILE [--matrix] [--timing] [--diversity current|2025-01]: evaluate contents like the reference's evaluate()",
		Long: "Large sets print their progress on standard error. The set diversity never holds the n×n\n" +
			"matrix unless --matrix asks to print it (n² numbers: keep it for small sets).",
		Setup: func(fs *flag.FlagSet) Runner {
			matrix := fs.Bool("matrix", false, "also print the full diversity matrix")
			timing := fs.Bool("timing", false, "also print in-process timings (info computed sequentially)")
			diversity := registerDiversity(fs)
			return func(ctx context.Context, args []string, io IO) error {
				alg, err := parseDiversity(*diversity)
				if err != nil {
					return err
				}
				p, err := makeProblem(args[0])
				if err != nil {
					return err
				}
				items, err := readItems(args[0], p, args[1], io.Stdin)
				if err != nil {
					return err
				}
				out, err := evaluate(ctx, p, items, *matrix, *timing, alg, io)
				if err != nil {
					return err
				}
				out.Problem = args[0]
				return writeEvalOutput(io.Stdout, out)
			}
		}}
}

// evaluate is the reference's evaluate() on items, with progress for long sets; alg picks the
// set-diversity algorithm.
func evaluate(ctx context.Context, p problems.Problem, items []problems.Item, matrix, timing bool, alg problems.DiversityAlgorithm, io IO) (*evalOutput, error) {
	start := time.Now()
	var infos []problems.Info
	var perInfo []time.Duration
	var err error
	if timing {
		// Sequential, so each item's time is its own and not shared with a parallel worker.
		infos = make([]problems.Info, len(items))
		for i, it := range items {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			t0 := time.Now()
			if infos[i], err = p.Info(it.Content); err != nil {
				return nil, fmt.Errorf("item %d: %w", i, err)
			}
			perInfo = append(perInfo, time.Since(t0))
		}
	} else if infos, err = problems.InfosProgress(ctx, p, problems.Contents(items), stepProgressDetail(io.Stderr, "eval: infos", len(items), func(int) string { return " items" })); err != nil {
		return nil, err
	}
	out := &evalOutput{Items: make([]evalItem, len(items))}
	e := &out.Details
	out.QualityPct, e.Quality = problems.Qualities(p, infos)
	out.ControllabilityPct, e.Controllability = problems.Controllabilities(p, infos, problems.Controls(items))
	if matrix {
		out.DiversityMatrix = problems.DiversityMatrix(p, infos)
		e.Diversity = problems.GreedyDiversityWith(alg, out.DiversityMatrix)
	} else if e.Diversity, err = problems.DiversitiesWithContext(ctx, alg, p, infos, diversityProgress(io, len(items))); err != nil {
		return nil, err
	}
	out.DiversityPct = problems.PassFraction(e.Diversity)
	for i, it := range items {
		id := it.ID
		if id == "" {
			id = strconv.Itoa(i)
		}
		out.Items[i] = evalItem{ID: id, Quality: e.Quality[i], Controllability: e.Controllability[i], Info: infos[i]}
	}
	if timing {
		out.Timing = &evalTiming{EvalMsTotal: ms(time.Since(start))}
		out.Timing.InfoMsMean, out.Timing.InfoMsMedian = meanMedianMs(perInfo)
	}
	return out, nil
}

// writeEvalOutput writes out exactly as writeJSON would (indented, HTML escaped, a final newline)
// but one item at a time through a small buffer. writeJSON holds the whole document several
// times over (the compact encoding, its indented copy and the buffer): 5,000 arcade items are
// 527 MB of JSON, whose buffers cost about 1.5 GB of memory and most of the system time (page
// faults). Each item's info is dropped once written so the GC can reclaim it.
func writeEvalOutput(w io.Writer, out *evalOutput) error {
	items := out.Items
	rest := *out
	if items != nil {
		rest.Items = []evalItem{} // nil would be written as null
	}
	var doc bytes.Buffer
	enc := json.NewEncoder(&doc)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&rest); err != nil {
		return err
	}
	// The empty list is where the items go: a top-level key, so the first one at this
	// indentation (the problem name before it is a quoted string and cannot hold a newline).
	const empty = "\n  \"items\": []"
	at := bytes.Index(doc.Bytes(), []byte(empty))
	if len(items) == 0 || at < 0 {
		_, err := w.Write(doc.Bytes())
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	split := at + len(empty) - 1 // just past "["
	bw.Write(doc.Bytes()[:split])
	for i := range items {
		b, err := json.MarshalIndent(&items[i], "    ", "  ")
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		if _, err := bw.Write(b); err != nil {
			return err
		}
		items[i] = evalItem{}
	}
	bw.WriteString("\n  ")
	bw.Write(doc.Bytes()[split:])
	return bw.Flush()
}

// diversityProgress reports the first pass of the set diversity (the bulk of its work): rows
// of the n×n diversities done and the pairs they hold.
func diversityProgress(io IO, n int) problems.ProgressFunc {
	return stepProgressDetail(io.Stderr, "eval: diversity", n, func(done int) string {
		return fmt.Sprintf(" rows (%d of %d pairs)", int64(done)*int64(n), int64(n)*int64(n))
	})
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

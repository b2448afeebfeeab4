// Command benchtable turns `go test -bench` output of the problem packages into the table that
// `make bench` prints: time per evaluated item next to the Python reference's median.
package main

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"
)

// referenceMs is the Python reference's median time per info() on the golden items (issues 2,
// 7 and 10), measured on this machine kind. It is the reference for BenchmarkInfo only; other
// benchmarks are compared where the issues give a figure for the same work (referenceByBench),
// and print "-" otherwise rather than a ratio of unlike things.
var referenceMs = map[string]float64{
	"sokoban":        0.02,
	"isaac":          1.1,
	"binary":         1.5,
	"zelda":          2.5,
	"building":       2.7,
	"elimination":    0.28,
	"loderunner":     3.4,
	"loderunnertile": 3.3,
	"ddave":          0.5,
	"mdungeons":      0.44,
	"smb":            1.7,
	"smbtile":        3.7,
	"arcade":         800,
	"talakat":        23,
}

// referenceByBench are the reference's times for the other benchmarks' work: a solvable
// Sokoban level (issue 2) and the 200-item MiniDungeons diversity matrix (issue 7).
var referenceByBench = map[string]float64{
	"sokoban/BenchmarkInfoLongestSolution": 1200,
	"mdungeons/BenchmarkDiversity200":      32000,
}

// reference returns the Python time of a benchmark's unit of work in ms.
func reference(pkg, bench string) (float64, bool) {
	if i := strings.LastIndex(bench, "-"); i > 0 {
		bench = bench[:i] // the GOMAXPROCS suffix
	}
	if r, ok := referenceByBench[pkg+"/"+bench]; ok {
		return r, true
	}
	if bench == "BenchmarkInfo" {
		r, ok := referenceMs[pkg]
		return r, ok
	}
	return 0, false
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	pkg := ""
	var rates, others []string
	fmt.Printf("%-15s %-34s %12s %12s %10s %9s\n", "problem", "benchmark", "mean µs", "median µs", "python ms", "speed-up")
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "pkg: ") {
			pkg = path.Base(strings.TrimSpace(strings.TrimPrefix(line, "pkg: ")))
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		f := strings.Fields(line)
		metric := map[string]float64{}
		for i := 2; i < len(f); i++ {
			if v, err := strconv.ParseFloat(f[i-1], 64); err == nil {
				metric[f[i]] = v
			}
		}
		if v, ok := metric["evals/s"]; ok {
			rates = append(rates, fmt.Sprintf("%-15s %-40s %12.0f", pkg, f[0], v))
		}
		mean, ok := metric["ns/item"]
		if !ok {
			if _, rate := metric["evals/s"]; !rate {
				line := fmt.Sprintf("%-15s %s", pkg, strings.Join(f, " "))
				if r, ok := reference(pkg, f[0]); ok && metric["ns/op"] > 0 {
					line += fmt.Sprintf("  (python %g ms: %.0f×)", r, r*1e6/metric["ns/op"])
				}
				others = append(others, line)
			}
			continue
		}
		median, hasMedian := metric["median-ns/item"]
		medianText, ref, speed := "-", "-", "-"
		if hasMedian {
			medianText = fmt.Sprintf("%.2f", median/1e3)
		} else {
			median = mean
		}
		if r, ok := reference(pkg, f[0]); ok {
			ref = strconv.FormatFloat(r, 'g', -1, 64)
			speed = fmt.Sprintf("%.0f×", r*1e6/median)
		}
		fmt.Printf("%-15s %-34s %12.2f %12s %10s %9s\n", pkg, f[0], mean/1e3, medianText, ref, speed)
	}
	if len(rates) > 0 {
		fmt.Printf("\n%-15s %-40s %12s\n", "problem", "generator benchmark", "evals/s")
		for _, r := range rates {
			fmt.Println(r)
		}
	}
	if len(others) > 0 {
		fmt.Println("\nother benchmarks")
		for _, o := range others {
			fmt.Println(o)
		}
	}
}

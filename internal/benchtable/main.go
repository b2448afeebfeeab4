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

// referenceMs is the Python reference's median time per info() on the golden items (issue 2),
// measured on this machine kind.
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
				others = append(others, fmt.Sprintf("%-15s %s", pkg, strings.Join(f, " ")))
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
		if r, ok := referenceMs[pkg]; ok {
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

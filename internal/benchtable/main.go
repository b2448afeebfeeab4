// Command benchtable turns `go test -bench` output of the problem packages into the table that
// `make bench` prints: time per evaluated item next to the Python reference's median.
package main

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"pcgwb/problems/experiment"
)

// referenceMs is the Python reference's median time per info() on the golden items (issues 2,
// 7 and 10), measured on this machine kind; the paper report uses the same figures. It is the
// reference for BenchmarkInfo only; other benchmarks are compared where the issues give a figure
// for the same work (referenceByBench), and print "-" otherwise rather than a ratio of unlike
// things.
var referenceMs = experiment.ReferenceInfoMs

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
	var scaling []scalingRow
	gaRates := map[string]float64{}
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
		if m := scalingRe.FindStringSubmatch(f[0]); m != nil {
			n, _ := strconv.Atoi(m[2])
			scaling = append(scaling, scalingRow{problem: m[1], n: n, cpu: metric["cpu-s/op"], perPair: metric["cpu-ns/pair"]})
			continue
		}
		if v, ok := metric["evals/s"]; ok {
			rates = append(rates, fmt.Sprintf("%-15s %-40s %12.0f", pkg, f[0], v))
			if m := gaRe.FindStringSubmatch(f[0]); m != nil {
				gaRates[m[1]] = v
			}
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
	if len(gaRates) > 0 {
		projectProtocol(gaRates)
	}
	printScaling(scaling)
	if len(others) > 0 {
		fmt.Println("\nother benchmarks")
		for _, o := range others {
			fmt.Println(o)
		}
	}
}

// scalingRe picks problem and n out of BenchmarkEvalScaling/<problem>/n=<n>-<GOMAXPROCS>.
var scalingRe = regexp.MustCompile(`^BenchmarkEvalScaling/([a-z]+)/n=(\d+)(-\d+)?$`)

// scalingRow is one set size of the eval scaling benchmark.
type scalingRow struct {
	problem      string
	n            int
	cpu, perPair float64
}

// printScaling shows how a set's diversity grows with its size: CPU seconds per set, per pair,
// and the growth from the previous size (100× for 10× the items is O(n²)).
func printScaling(rows []scalingRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Printf("\n%-15s %8s %12s %14s %10s\n", "problem", "n", "CPU s/set", "CPU ns/pair", "growth")
	for i, r := range rows {
		growth := "-"
		if i > 0 && rows[i-1].problem == r.problem && rows[i-1].cpu > 0 {
			growth = fmt.Sprintf("%.0f× for %.0f× n", r.cpu/rows[i-1].cpu, float64(r.n)/float64(rows[i-1].n))
		}
		fmt.Printf("%-15s %8d %12.3f %14.1f %10s\n", r.problem, r.n, r.cpu, r.perPair, growth)
	}
}

// gaRe picks the problem out of BenchmarkGAGeneration/<problem>-<GOMAXPROCS>.
var gaRe = regexp.MustCompile(`^BenchmarkGAGeneration/([a-z]+-v0)(-\d+)?$`)

// protocolEvals is what one problem costs in the paper's protocol: 3 generators × 3 fitness
// functions × 10 seeds, each a first population of 100 and 200 generations of 100 children.
const protocolEvals = 3 * 3 * 10 * (100 + 200*100)

// projectProtocol prints the paper protocol's projected time on this machine from the GA
// throughput (the benchmark evaluates with every core, so runs are not counted as parallel),
// next to the reference's projected CPU time at its median time per evaluation.
func projectProtocol(rates map[string]float64) {
	names := make([]string, 0, len(rates))
	for n := range rates {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Printf("\n%-15s %12s %14s %16s\n", "problem", "evals/s", "protocol min", "python CPU-hours")
	total, ref := 0.0, 0.0
	missing := []string{}
	for _, p := range experiment.PaperProblems {
		v, ok := rates[p]
		if !ok || v <= 0 {
			missing = append(missing, p)
			continue
		}
		sec := protocolEvals / v
		r := protocolEvals * referenceMs[strings.TrimSuffix(p, "-v0")] / 3.6e6
		total += sec
		ref += r
		fmt.Printf("%-15s %12.0f %14.1f %16.1f\n", p, v, sec/60, r)
	}
	fmt.Printf("%-15s %12s %14.1f %16.1f\n", "protocol", "", total/60, ref)
	// The rate is the first generations' and wall-clock; later generations cost more (longer
	// routes to compare and solve, longer games), while a sweep's shared cache spares the
	// evaluations its runs have in common (random search's three fitness variants sample the
	// same contents): neither is counted here, so this is a rough figure, not a bound.
	fmt.Printf("projected protocol (1,080 runs, %d evaluations per problem at the GA's first-generation rate, no I/O, nothing shared between runs): %.0f min here "+
		"(`make protocol-estimate` projects from full runs' CPU time); the reference ~%.0f CPU-hours\n",
		protocolEvals, total/60, ref)
	if len(missing) > 0 {
		fmt.Printf("not measured (data missing?): %s\n", strings.Join(missing, ", "))
	}
}

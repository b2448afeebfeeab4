package all_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
)

// evalSet samples n items of a problem (seed 1, as `workbench sample P -n N --seed 1`) and
// computes their infos.
func evalSet(b *testing.B, name string, n int) (problems.Problem, []problems.Info) {
	b.Helper()
	problemtest.RefData(b)
	p, err := problems.Make(name)
	if err != nil {
		b.Skip(err)
	}
	items, err := problems.SampleN(context.Background(), p, n, 1)
	if err != nil {
		b.Fatal(err)
	}
	infos, err := problems.Infos(context.Background(), p, problems.Contents(items))
	if err != nil {
		b.Fatal(err)
	}
	return p, infos
}

// cpuTime is the process's user+system CPU time: on a shared machine wall time measures the
// neighbours, CPU time the work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkEvalScaling is the growth of a set's evaluation with its size: the set diversity
// (the part that grows faster than n) of n sampled items, n = 200, 2,000 and 20,000, for a
// few problems with different diversity kernels (cheap ones, so that `make bench` stays short:
// 20,000 items are 400 million pairs). EVAL_SCALING_PROBLEMS (comma separated) and
// EVAL_SCALING_N choose others, e.g. to profile one problem at 5,000 items.
func BenchmarkEvalScaling(b *testing.B) {
	names := []string{"binary-v0", "sokoban-v0", "smb-v0"}
	if s := os.Getenv("EVAL_SCALING_PROBLEMS"); s != "" {
		names = strings.Split(s, ",")
	}
	sizes := []int{200, 2000, 20000}
	if s := os.Getenv("EVAL_SCALING_N"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				b.Fatal(err)
			}
			sizes = append(sizes, n)
		}
	}
	for _, name := range names {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("%s/n=%d", strings.TrimSuffix(name, "-v0"), n), func(b *testing.B) {
				p, infos := evalSet(b, name, n)
				b.ResetTimer()
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					if _, err := problems.DiversitiesContext(context.Background(), p, infos, nil); err != nil {
						b.Fatal(err)
					}
				}
				cpu := (cpuTime() - cpu0).Seconds() / float64(b.N)
				b.ReportMetric(cpu, "cpu-s/op")
				b.ReportMetric(cpu*1e9/float64(n)/float64(n), "cpu-ns/pair")
			})
		}
	}
}

// BenchmarkEvalInfos is the per-item part of an evaluation (info of n sampled items, in
// parallel as `workbench eval` does), for profiling with EVAL_SCALING_PROBLEMS.
func BenchmarkEvalInfos(b *testing.B) {
	names := strings.Split(os.Getenv("EVAL_SCALING_PROBLEMS"), ",")
	if names[0] == "" {
		b.Skip("set EVAL_SCALING_PROBLEMS")
	}
	n := 2000
	if s := os.Getenv("EVAL_SCALING_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	for _, name := range names {
		b.Run(name, func(b *testing.B) {
			problemtest.RefData(b)
			p, err := problems.Make(name)
			if err != nil {
				b.Skip(err)
			}
			items, err := problems.SampleN(context.Background(), p, n, 1)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			cpu0 := cpuTime()
			defer func() { b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op") }()
			for i := 0; i < b.N; i++ {
				if _, err := problems.Infos(context.Background(), p, problems.Contents(items)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

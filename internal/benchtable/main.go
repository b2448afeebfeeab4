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
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	pkg := ""
	fmt.Printf("%-12s %-40s %12s %12s %10s\n", "problem", "benchmark", "µs/item", "python ms", "speed-up")
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
		for i := 1; i < len(f); i++ {
			if f[i] != "ns/item" {
				continue
			}
			ns, err := strconv.ParseFloat(f[i-1], 64)
			if err != nil {
				continue
			}
			ref, speed := "-", "-"
			if r, ok := referenceMs[pkg]; ok {
				ref = strconv.FormatFloat(r, 'g', -1, 64)
				speed = fmt.Sprintf("%.0f×", r*1e6/ns)
			}
			fmt.Printf("%-12s %-40s %12.2f %12s %10s\n", pkg, f[0], ns/1e3, ref, speed)
		}
	}
}

package birds

import (
	"bytes"
	"io"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"
)

// Our own letter programs, shaped like typical competition answers (5 to 15 blocks).
var benchLetters = map[string]string{
	"A": "drop_block('b13', 4)\ndrop_block('b13', 8)\ndrop_block('b31', 6)\ndrop_block('b13', 4)\ndrop_block('b13', 8)\ndrop_block('b31', 5)\ndrop_block('b31', 7)\n",
	"E": "drop_block('b13', 4)\ndrop_block('b31', 6)\ndrop_block('b13', 4)\ndrop_block('b31', 6)\ndrop_block('b13', 4)\ndrop_block('b31', 6)\n",
	"H": "drop_block('b13', 4)\ndrop_block('b13', 8)\ndrop_block('b31', 6)\ndrop_block('b13', 4)\ndrop_block('b13', 8)\n",
	"I": "drop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n",
	"L": "drop_block('b13', 3)\ndrop_block('b13', 3)\ndrop_block('b31', 5)\ndrop_block('b11', 6)\n",
	"O": "drop_block('b31', 5)\ndrop_block('b13', 4)\ndrop_block('b13', 6)\ndrop_block('b31', 5)\n",
	"T": "drop_block('b13', 6)\ndrop_block('b13', 6)\ndrop_block('b31', 6)\ndrop_block('b31', 3)\ndrop_block('b31', 9)\n",
	"U": "drop_block('b31', 6)\ndrop_block('b13', 5)\ndrop_block('b13', 7)\ndrop_block('b11', 5)\ndrop_block('b11', 7)\n",
	"X": "drop_block('b11', 3)\ndrop_block('b11', 7)\ndrop_block('b11', 4)\ndrop_block('b11', 6)\ndrop_block('b11', 5)\ndrop_block('b11', 4)\ndrop_block('b11', 6)\ndrop_block('b11', 3)\ndrop_block('b11', 7)\n",
	"Z": "drop_block('b31', 4)\ndrop_block('b31', 7)\ndrop_block('b11', 4)\ndrop_block('b11', 5)\ndrop_block('b11', 6)\ndrop_block('b31', 5)\ndrop_block('b31', 8)\n",
}

func benchLevels(b *testing.B, n int) []*Level {
	keys := make([]string, 0, len(benchLetters))
	for k := range benchLetters {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []*Level
	for len(out) < n {
		lv, err := mustConvert(b, benchLetters[keys[len(out)%len(keys)]])
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, lv)
	}
	return out
}

// BenchmarkStabilityAndImage is one trial of the evaluator: 10 s of physics for stability and
// the similarity image, for a typical letter (A, 7 blocks). Target ≤ 10 ms.
func BenchmarkStabilityAndImage(b *testing.B) {
	lv := benchLevels(b, 1)[0]
	times := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, err := Simulate(lv, DefaultSimConfig())
		if err != nil {
			b.Fatal(err)
		}
		Render(res)
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
}

// BenchmarkStabilityAndImageAllLetters covers our ten letter programs.
func BenchmarkStabilityAndImageAllLetters(b *testing.B) {
	levels := benchLevels(b, len(benchLetters))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Simulate(levels[i%len(levels)], DefaultSimConfig())
		if err != nil {
			b.Fatal(err)
		}
		Render(res)
	}
}

// BenchmarkPNG is the cost of encoding one evaluator image.
func BenchmarkPNG(b *testing.B) { benchEncode(b, (*Mask).WritePNG) }

// BenchmarkRGBAPNG is the same in RGBA.
func BenchmarkRGBAPNG(b *testing.B) { benchEncode(b, (*Mask).WriteRGBAPNG) }

// benchEncode times one way of encoding the image of the first benchmark level.
func benchEncode(b *testing.B, encode func(*Mask, io.Writer) error) {
	res, _ := Simulate(benchLevels(b, 1)[0], DefaultSimConfig())
	m := Render(res)
	var buf bytes.Buffer
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf.Reset()
		if err := encode(m, &buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPromptSet260 is one prompt's full set (26 letters × 10 trials) evaluated in parallel
// on GOMAXPROCS workers; target ≤ 5 s on 2 cores.
func BenchmarkPromptSet260(b *testing.B) {
	levels := benchLevels(b, 26*TrialsPerLetter)
	workers := runtime.GOMAXPROCS(0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next := make(chan *Level)
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for lv := range next {
					res, err := Simulate(lv, DefaultSimConfig())
					if err != nil {
						b.Error(err)
						continue
					}
					Render(res)
				}
			}()
		}
		for _, lv := range levels {
			next <- lv
		}
		close(next)
		wg.Wait()
	}
	b.ReportMetric(float64(workers), "workers")
}

package app

import (
	"testing"
	"time"

	"pcgwb/problems"
	_ "pcgwb/problems/binary"
	_ "pcgwb/problems/sokoban"
	_ "pcgwb/problems/zelda"
)

// BenchmarkRunUIStall runs 200 generations of GA (population 100) on binary-v0 through the Run
// panel, as the window does, and reports the longest time any of the workbench's callbacks
// held the UI goroutine (max-ui-ms) and the run's wall time. Fyne's test driver paints
// nothing, so this is the workbench's own share of a stall; the real-window test in
// cmd/workbench measures painting too.
func BenchmarkRunUIStall(b *testing.B) {
	wb := newTestWorkbench(b, Options{Problem: "binary-v0", OutputDir: b.TempDir()})
	wb.Window.Resize(wb.Window.Canvas().Size().Max(wb.Window.Content().MinSize()))
	var worst time.Duration
	for i := 0; i < b.N; i++ {
		wb.LongestUICallback(true)
		start := time.Now()
		wb.showTab("run")
		wb.run.generator.SetSelected("ga")
		wb.run.popSize.SetText("100")
		wb.run.generations.SetText("200")
		wb.run.Start()
		var err error
		letUIRun(func() { err = wb.run.wait(5 * time.Minute) })
		if err != nil {
			b.Fatal(err)
		}
		if wb.run.State() != RunFinished {
			b.Fatalf("run %v: %s", wb.run.State(), wb.run.errorText.Text)
		}
		worst = max(worst, wb.LongestUICallback(false))
		b.ReportMetric(time.Since(start).Seconds(), "run-s")
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-ui-ms")
}

// BenchmarkEditorRecompute is what one painted tile costs in the editor for the fast tile
// problems: draw the level, compute its info, quality and controllability (aim: under a
// 16 ms frame).
func BenchmarkEditorRecompute(b *testing.B) {
	for _, name := range []string{"binary-v0", "zelda-v0", "sokoban-v0"} {
		b.Run(name, func(b *testing.B) {
			p, err := problems.Make(name)
			if err != nil {
				b.Skip(err)
			}
			r := newRand(1)
			content := p.ContentSpace().Sample(r)
			control := problems.SampleControl(p, r)
			g, _ := tileGridOf(p)
			cells := gridOfContent(content)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				cells[i%g.Rows][i%g.Cols] = g.Min + i%(g.Max-g.Min) // one painted tile
				c := contentOfGrid(cells)
				if _, err := p.Render(c); err != nil {
					b.Fatal(err)
				}
				info, err := p.Info(c)
				if err != nil {
					b.Fatal(err)
				}
				_ = p.Quality(info)
				_ = p.Controllability(info, control)
			}
		})
	}
}

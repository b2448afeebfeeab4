package playtest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"pcgwb/internal/atomicfile"
	"pcgwb/problems"
	"pcgwb/stats"
)

// ReportDir is the report's folder inside the (first) session folder.
const ReportDir = "report"

// Write saves the report into out: plays.csv (one row per play), generators.csv,
// differences.csv, positions.csv, levels.csv, report.md (tables with the thumbnails),
// thumbs/LEVEL.png and the plots completion.png, ratings.png and solver-time.png. It returns
// the files written. A report folder (or its thumbs folder) that is a symbolic link is refused
// before anything is written.
func Write(out string, rep *Report) ([]string, error) {
	for _, dir := range []string{out, filepath.Join(out, "thumbs")} {
		if err := realFolder(dir); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	var files []string
	put := func(name string, data []byte) error {
		path := filepath.Join(out, name)
		files = append(files, path)
		return atomicfile.Write(path, data, 0o644)
	}
	for _, l := range rep.Levels {
		data, err := thumbnail(l.Level)
		if err != nil {
			continue // a level that does not render keeps its row without a picture
		}
		if err := put(filepath.Join("thumbs", l.Name+".png"), data); err != nil {
			return files, err
		}
	}
	for _, f := range []struct {
		name string
		data func(*Report) []byte
	}{{"plays.csv", playsCSV}, {"generators.csv", generatorsCSV}, {"differences.csv", differencesCSV}, {"positions.csv", positionsCSV}} {
		if err := put(f.name, f.data(rep)); err != nil {
			return files, err
		}
	}
	if err := put("levels.csv", levelsCSV(rep)); err != nil {
		return files, err
	}
	for _, p := range []struct {
		name string
		draw func(*Report) (*plot.Plot, error)
	}{{"completion.png", completionPlot}, {"ratings.png", ratingsPlot}, {"solver-time.png", solverPlot}} {
		pl, err := p.draw(rep)
		if err != nil {
			return files, err
		}
		data, err := pngOf(pl)
		if err != nil {
			return files, err
		}
		if err := put(p.name, data); err != nil {
			return files, err
		}
	}
	return files, put("report.md", []byte(Markdown(rep)))
}

// realFolder refuses a path that is a symbolic link or not a folder (a missing one is fine):
// the report never writes through a link.
func realFolder(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: the report is not written through links (remove it or give --out)", dir)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	}
	return nil
}

// playsCSV is one row per play: participant, level, generator, source, position, times,
// outcome, moves, each per-level answer, then the participant's intake answers.
func playsCSV(rep *Report) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head := []string{"participant", "level", "generator", "source", "index", "problem", "position", "start", "end", "seconds", "outcome", "won", "moves"}
	for _, q := range rep.Questions {
		head = append(head, q.ID)
	}
	for _, q := range rep.Intake {
		head = append(head, "intake_"+q.ID)
	}
	w.Write(head)
	levels := map[string]Level{}
	for _, l := range rep.Levels {
		levels[l.Name] = l.Level
	}
	stamp := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	for _, r := range rep.Records {
		l := levels[r.Level]
		row := []string{r.Participant, r.Level, l.Generator, l.Source, strconv.Itoa(l.Index), l.Problem, strconv.Itoa(r.Position),
			stamp(r.Start), stamp(r.End), num(r.Seconds), string(r.Result), strconv.Itoa(int(won(r))), strconv.Itoa(r.Moves)}
		for _, q := range rep.Questions {
			row = append(row, r.Answers[q.ID])
		}
		for _, q := range rep.Intake {
			row = append(row, rep.Answers[r.Participant].Answers[q.ID])
		}
		w.Write(row)
	}
	w.Flush()
	return b.Bytes()
}

// differencesCSV is the table of differences between generators.
func differencesCSV(rep *Report) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"a", "b", "measure", "diff", "diff_lo", "diff_hi", "participants", "a12", "p", "p_holm", "test", "interval"})
	for _, d := range rep.Differences {
		w.Write([]string{d.A, d.B, d.Measure, num(d.Diff.Value), num(d.Diff.Lo), num(d.Diff.Hi), strconv.Itoa(d.Diff.N),
			num(d.A12), num(d.P), num(d.PHolm), d.Test, d.Diff.Method})
	}
	w.Flush()
	return b.Bytes()
}

// positionsCSV is completion and time to win by place in the order.
func positionsCSV(rep *Report) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"position", "plays", "completion", "completion_lo", "completion_hi", "win_time", "win_time_lo", "win_time_hi"})
	for _, p := range rep.Positions {
		w.Write([]string{strconv.Itoa(p.Position), strconv.Itoa(p.Plays), num(p.Completion.Value), num(p.Completion.Lo), num(p.Completion.Hi),
			num(p.WinTime.Value), num(p.WinTime.Lo), num(p.WinTime.Hi)})
	}
	w.Flush()
	return b.Bytes()
}

func thumbnail(l Level) ([]byte, error) {
	p, err := problems.Make(l.Problem)
	if err != nil {
		return nil, err
	}
	img, err := p.Render(l.Item.Content)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = png.Encode(&b, img)
	return b.Bytes(), err
}

func num(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

func generatorsCSV(rep *Report) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head := []string{"generator", "levels", "plays", "participants", "completion", "completion_lo", "completion_hi", "won",
		"win_time", "win_time_lo", "win_time_hi", "median_time", "median_time_lo", "median_time_hi"}
	for _, q := range rep.Questions {
		head = append(head, q.ID, q.ID+"_lo", q.ID+"_hi", q.ID+"_median")
		for _, o := range q.Options {
			head = append(head, q.ID+"="+o)
		}
	}
	w.Write(head)
	for _, g := range rep.Generators {
		row := []string{g.Generator, strconv.Itoa(g.Levels), strconv.Itoa(g.Plays), strconv.Itoa(g.Participants),
			num(g.Completion.Value), num(g.Completion.Lo), num(g.Completion.Hi), strconv.Itoa(g.MedianTime.N),
			num(g.WinTime.Value), num(g.WinTime.Lo), num(g.WinTime.Hi), num(g.MedianTime.Value), num(g.MedianTime.Lo), num(g.MedianTime.Hi)}
		for _, q := range rep.Questions {
			e := g.Ratings[q.ID]
			row = append(row, num(e.Value), num(e.Lo), num(e.Hi), num(g.Answers[q.ID].Median))
			for _, o := range q.Options {
				row = append(row, strconv.Itoa(g.Answers[q.ID].Counts[o]))
			}
		}
		w.Write(row)
	}
	w.Flush()
	return b.Bytes()
}

func levelsCSV(rep *Report) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head := []string{"level", "generator", "problem", "source", "index", "quality", "playable", "solver_moves", "plays", "won", "median_time"}
	for _, q := range rep.Questions {
		head = append(head, q.ID)
	}
	w.Write(head)
	for _, l := range rep.Levels {
		row := []string{l.Name, l.Generator, l.Problem, l.Source, strconv.Itoa(l.Index), num(l.Quality), strconv.FormatBool(l.Playable),
			strconv.Itoa(l.SolverMoves), strconv.Itoa(l.Plays), strconv.Itoa(l.Won), num(l.MedianTime)}
		for _, q := range rep.Questions {
			row = append(row, num(l.Ratings[q.ID]))
		}
		w.Write(row)
	}
	w.Flush()
	return b.Bytes()
}

// Markdown is the report as a page: the generators' table, the relations, the plots and the
// per-level table with thumbnails.
func Markdown(rep *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Playtest report\n\n%d plays by %d participants (%s). Plays are nested in participants and levels: "+
		"intervals are 95%% %s; n is the number of participants. Differences between generators: the same bootstrap of the difference, "+
		"and Mann–Whitney U over the per-level means (levels are the generators' independent units), Â12, p Holm-adjusted over the table.\n\n",
		rep.Plays, len(rep.Players), strings.Join(rep.Players, ", "), stats.TwoWayMethod)
	b.WriteString("## Generators\n\n| generator | levels | plays | completion | mean time to win (s) | median time to win (s) |")
	for _, q := range rep.Questions {
		b.WriteString(" " + q.ID + " (mean; median) |")
	}
	b.WriteString("\n|---|---|---|---|---|---|" + strings.Repeat("---|", len(rep.Questions)) + "\n")
	for _, g := range rep.Generators {
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %s |", g.Generator, g.Levels, g.Plays, g.Completion.Text(), g.WinTime.Text(), g.MedianTime.Text())
		for _, q := range rep.Questions {
			fmt.Fprintf(&b, " %s; %s |", g.Ratings[q.ID].Text(), num(g.Answers[q.ID].Median))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n### Answers\n\n| generator | question | " + "answers (option: plays) |\n|---|---|---|\n")
	for _, g := range rep.Generators {
		for _, q := range rep.Questions {
			var parts []string
			for _, o := range q.Options {
				parts = append(parts, fmt.Sprintf("%s: %d", o, g.Answers[q.ID].Counts[o]))
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", g.Generator, q.ID, strings.Join(parts, ", "))
		}
	}
	b.WriteString("\n## Differences between generators\n\n| A − B | measure | difference [95%] | Â12 | p | p (Holm) |\n|---|---|---|---|---|---|\n")
	for _, d := range rep.Differences {
		fmt.Fprintf(&b, "| %s − %s | %s | %s | %s | %s | %s |\n", d.A, d.B, d.Measure, d.Diff.Text(), num(d.A12), num(d.P), num(d.PHolm))
	}
	b.WriteString("\n## Position in the order\n\n| position | plays | completion | mean time to win (s) |\n|---|---|---|---|\n")
	for _, p := range rep.Positions {
		fmt.Fprintf(&b, "| %d | %d | %s | %s |\n", p.Position, p.Plays, p.Completion.Text(), p.WinTime.Text())
	}
	r := rep.Relations
	fmt.Fprintf(&b, "\n## People and metrics\n\n- Completion of levels the benchmark calls playable: %s; of the others: %s\n"+
		"- Rank correlation of the solver's path length with the median time to win: %s\n"+
		"- Rank correlation of quality with completion: %s\n\n",
		r.PlayableCompletion.Text(), r.UnplayableCompletion.Text(), r.SolverVsTime.Text(), r.QualityVsCompletion.Text())
	b.WriteString("![completion](completion.png) ![ratings](ratings.png) ![solver path vs time](solver-time.png)\n\n## Levels\n\n")
	b.WriteString("| level | picture | generator | quality | solver moves | plays | won | median time |")
	for _, q := range rep.Questions {
		b.WriteString(" " + q.ID + " |")
	}
	b.WriteString("\n|---|---|---|---|---|---|---|---|" + strings.Repeat("---|", len(rep.Questions)) + "\n")
	for _, l := range rep.Levels {
		fmt.Fprintf(&b, "| %s | ![%s](thumbs/%s.png) | %s | %.2f | %d | %d | %d | %s |", l.Name, l.Name, strings.ReplaceAll(l.Name, " ", "%20"),
			l.Generator, l.Quality, l.SolverMoves, l.Plays, l.Won, num(l.MedianTime))
		for _, q := range rep.Questions {
			fmt.Fprintf(&b, " %s |", num(l.Ratings[q.ID]))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// intervalPlot draws one point with its interval per generator and series.
func intervalPlot(title, ylabel string, rep *Report, series []string, get func(GeneratorRow, string) Estimate) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	var names []string
	for _, g := range rep.Generators {
		names = append(names, fmt.Sprintf("%s (n=%d)", g.Generator, g.Completion.N))
	}
	p.NominalX(names...)
	for si, s := range series {
		var pts plotter.XYs
		var errs plotter.YErrors
		for gi, g := range rep.Generators {
			e := get(g, s)
			if math.IsNaN(e.Value) {
				continue
			}
			lo, hi := e.Lo, e.Hi
			if math.IsNaN(lo) {
				lo, hi = e.Value, e.Value
			}
			x := float64(gi) + (float64(si)-float64(len(series)-1)/2)*0.15
			pts = append(pts, plotter.XY{X: x, Y: e.Value})
			errs = append(errs, struct{ Low, High float64 }{e.Value - lo, hi - e.Value})
		}
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		c := palette[si%len(palette)]
		sc.GlyphStyle.Color, sc.GlyphStyle.Radius, sc.GlyphStyle.Shape = c, vg.Points(4), draw.CircleGlyph{}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return nil, err
		}
		eb.LineStyle.Color = c
		p.Add(eb, sc)
		if len(series) > 1 {
			p.Legend.Add(s, sc)
		}
	}
	p.Legend.Top = true
	p.X.Min, p.X.Max = -0.5, float64(len(rep.Generators))-0.5
	return p, nil
}

var palette = []color.Color{color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0xd6, 0x27, 0x28, 0xff}, color.RGBA{0x2c, 0xa0, 0x2c, 0xff}, color.RGBA{0x94, 0x67, 0xbd, 0xff}}

func completionPlot(rep *Report) (*plot.Plot, error) {
	p, err := intervalPlot("Levels completed (95% interval)", "fraction of plays won", rep, []string{"completion"},
		func(g GeneratorRow, _ string) Estimate { return g.Completion })
	if err == nil {
		p.Y.Min, p.Y.Max = 0, 1
	}
	return p, err
}

func ratingsPlot(rep *Report) (*plot.Plot, error) {
	var ids []string
	for _, q := range rep.Questions {
		ids = append(ids, q.ID)
	}
	p, err := intervalPlot("Answers (mean, 95% interval)", "mean answer (1-5; for yes/no questions the fraction of yes)", rep, ids,
		func(g GeneratorRow, id string) Estimate { return g.Ratings[id] })
	if err == nil {
		p.Y.Min = 0
	}
	return p, err
}

func solverPlot(rep *Report) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Solver path length vs median human time to win"
	p.X.Label.Text = "solver moves"
	p.Y.Label.Text = "median seconds to win"
	gi := map[string]int{}
	for i, g := range rep.Generators {
		gi[g.Generator] = i
	}
	byGen := map[string]plotter.XYs{}
	for _, l := range rep.Levels {
		if l.SolverMoves > 0 && l.Won > 0 {
			byGen[l.Generator] = append(byGen[l.Generator], plotter.XY{X: float64(l.SolverMoves), Y: l.MedianTime})
		}
	}
	for _, g := range rep.Generators {
		pts := byGen[g.Generator]
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color, sc.GlyphStyle.Radius = palette[gi[g.Generator]%len(palette)], vg.Points(4)
		p.Add(sc)
		p.Legend.Add(g.Generator, sc)
	}
	p.Legend.Top = true
	return p, nil
}

func pngOf(p *plot.Plot) ([]byte, error) {
	c := vgimg.New(6*vg.Inch, 4*vg.Inch)
	p.Draw(draw.New(c))
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

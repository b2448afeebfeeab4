package experiment

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"pcgwb/internal/golden"
	"pcgwb/problems"
	"pcgwb/problems/search"
)

// The report's figures are checked against golden PNGs in testdata/golden, drawn from a small
// run folder written by the test itself (no generator runs, so only the report's numbers and
// drawing are under test). Rewrite them after an intended change of the figures with
//
//	go test ./problems/experiment -run Golden -update
//
// and look at the new PNGs before committing them. They are compared with golden.Text: gonum's
// text and anti-aliased lines may move by up to a pixel between compilers and machines.

// goldenFigure is where a figure's golden file lives.
func goldenFigure(name string) string { return filepath.Join("testdata", "golden", name) }

// goldenRuns writes a sweep folder of two problems × two generators × three seeds, five
// generations each, with one unfinished run (zelda, ga, seed 3: three generations, no
// final.json) so that the figures show the rule for unfinished runs. perturb, when not nil,
// may change an event before it is written.
func goldenRuns(t *testing.T, perturb func(problem, gen string, seed, generation int, ev *search.Event)) string {
	t.Helper()
	root := t.TempDir()
	const generations, pop = 5, 10
	for pi, problem := range []string{"binary-v0", "zelda-v0"} {
		for gi, gen := range []string{"random", "ga"} {
			for seed := 1; seed <= 3; seed++ {
				dir := filepath.Join(root, problem, "quality", gen, strconv.Itoa(seed))
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				cfg := Config{Format: Format, Generator: gen, Generations: generations, Options: search.Options{
					Problem: problem, Fitness: "quality", Seed: uint64(seed), PopSize: pop}}
				writeJSON(t, filepath.Join(dir, ConfigFile), cfg)
				recorded := generations
				if problem == "zelda-v0" && gen == "ga" && seed == 3 {
					recorded = 2
				}
				var events []byte
				best := 0.0
				for g := 0; g <= recorded; g++ {
					// ga climbs faster than random and spends fewer evaluations per generation;
					// zelda is harder; seeds spread the runs so that the bands have a width.
					step := []float64{0.04, 0.13}[gi]
					best = min(1, 0.15+0.1*float64(gi)-0.08*float64(pi)+step*float64(g)+0.025*float64(seed))
					ev := search.Event{Generator: gen, Generation: g, Evaluations: pop + g*[]int{pop, 7}[gi], Size: pop,
						BestFitness: best, MeanFitness: best / 2, Feasible: g * gi, Unique: pop - seed, Controlled: seed}
					if perturb != nil {
						perturb(problem, gen, seed, g, &ev)
					}
					line, err := json.Marshal(ev)
					if err != nil {
						t.Fatal(err)
					}
					events = append(append(events, line...), '\n')
				}
				if err := os.WriteFile(filepath.Join(dir, EventsFile), events, 0o644); err != nil {
					t.Fatal(err)
				}
				if recorded < generations {
					continue
				}
				final := Final{Config: cfg, Generation: generations, Evaluations: pop + generations*[]int{pop, 7}[gi], BestFitness: best,
					Size: pop, Feasible: []int{seed - 1, 3 + 2*seed - 2*pi}[gi], Unique: pop - seed, Controlled: seed + gi}
				for i := 0; i < pop; i++ {
					final.Population = append(final.Population, problems.Scored{Content: []int{i}, Fitness: best * float64(pop-i) / pop, Cell: problems.NoCell})
				}
				writeJSON(t, filepath.Join(dir, FinalFile), final)
			}
		}
	}
	return root
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// reportFigures are the figures Report draws for goldenRuns, by file name.
var reportFigures = []string{"fitness-binary-v0-quality.png", "fitness-zelda-v0-quality.png", "fitness-quality.png", "counts-quality.png"}

func TestGoldenReportFigures(t *testing.T) {
	root := goldenRuns(t, nil)
	tests := []struct {
		name   string
		x      XAxis
		golden string // folder under testdata/golden
		files  []string
	}{
		{"per generation", XGeneration, "", reportFigures},
		{"per evaluation", XEvaluations, "evaluations", []string{"fitness-binary-v0-quality.png", "fitness-quality.png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			figs := t.TempDir()
			res, err := ReportOver(context.Background(), root, figs, tt.x)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range tt.files {
				path := filepath.Join(figs, name)
				if !slices.Contains(res.Figures, path) {
					t.Fatalf("the report did not draw %s (it drew %v)", name, res.Figures)
				}
				t.Run(name, func(t *testing.T) {
					golden.CheckPNGFile(t, goldenFigure(filepath.Join(tt.golden, name)), path, golden.Text)
				})
			}
		})
	}
}

// `report --paper` draws the same figures into its figures folder, and the Markdown it writes
// shows every one of them by a link that resolves.
func TestGoldenPaperFigures(t *testing.T) {
	root := goldenRuns(t, nil)
	out := filepath.Join(t.TempDir(), "docs", "results.md")
	figs := filepath.Join(filepath.Dir(out), "results")
	if err := PaperReport(context.Background(), PaperOptions{Dir: root, Out: out, FigDir: figs, Command: "workbench report --paper RUNS --out docs/results.md"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range reportFigures {
		t.Run(name, func(t *testing.T) {
			golden.CheckPNGFile(t, goldenFigure(name), filepath.Join(figs, name), golden.Text)
		})
	}
	md, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`!\[[^\]]*\]\(([^)]+)\)`).FindAllStringSubmatch(string(md), -1)
	var shown []string
	for _, l := range links {
		if _, err := os.Stat(filepath.Join(filepath.Dir(out), filepath.FromSlash(l[1]))); err != nil {
			t.Errorf("results.md shows %s: %v", l[1], err)
		}
		shown = append(shown, filepath.Base(l[1]))
	}
	for _, name := range []string{"fitness-quality.png", "counts-quality.png"} {
		if !slices.Contains(shown, name) {
			t.Errorf("results.md does not show %s (it shows %v)", name, shown)
		}
	}
}

// The tolerance lets no real change through: a run whose best fitness is a little different
// at one generation, or a generator whose counts differ, does not match the golden figures.
func TestGoldenFigureCatchesAChangedRun(t *testing.T) {
	if golden.Updating() {
		t.Skip("the golden files are being rewritten")
	}
	tests := []struct {
		name    string
		figure  string
		perturb func(problem, gen string, seed, generation int, ev *search.Event)
	}{
		{"one generation of one run", "fitness-binary-v0-quality.png", func(problem, gen string, seed, g int, ev *search.Event) {
			if problem == "binary-v0" && gen == "ga" && seed == 2 && g == 3 {
				ev.BestFitness -= 0.15 // the mean of three runs moves by 0.05: a few pixels
			}
		}},
		{"a fourth, unfinished seed", "fitness-zelda-v0-quality.png", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var root string
			if tt.perturb != nil {
				root = goldenRuns(t, tt.perturb)
			} else {
				root = goldenRuns(t, nil)
				// a fourth seed of zelda's ga, unfinished like the third: one more run in the
				// legend and the curve
				src := filepath.Join(root, "zelda-v0", "quality", "ga", "3")
				dst := filepath.Join(root, "zelda-v0", "quality", "ga", "4")
				if err := os.MkdirAll(dst, 0o755); err != nil {
					t.Fatal(err)
				}
				var cfg Config
				data, _ := os.ReadFile(filepath.Join(src, ConfigFile))
				if err := json.Unmarshal(data, &cfg); err != nil {
					t.Fatal(err)
				}
				cfg.Seed = 4
				writeJSON(t, filepath.Join(dst, ConfigFile), cfg)
				events, _ := os.ReadFile(filepath.Join(src, EventsFile))
				if err := os.WriteFile(filepath.Join(dst, EventsFile), events, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			figs := t.TempDir()
			if _, err := Report(root, figs); err != nil {
				t.Fatal(err)
			}
			want := golden.ReadPNG(t, goldenFigure(tt.figure))
			got := golden.ReadPNG(t, filepath.Join(figs, tt.figure))
			res, err := golden.Compare(want, got, golden.Text)
			if err == nil && res.Failed <= golden.Text.Pixels {
				t.Fatalf("%s of a changed run folder matches the golden figure", tt.figure)
			}
		})
	}
}

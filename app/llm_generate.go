package app

// The LLM tab's batch generation: streaming replies into the gallery and the run folder.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"pcgwb/app/widgets"
	"pcgwb/llm"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// llmStream gathers the streamed text of every level of a batch; the generator calls it from
// many goroutines.
type llmStream struct {
	mu    sync.Mutex
	texts map[int]string
	turns map[int]int
	tries map[int]int
}

func (s *llmStream) add(ev llm.DeltaEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.turns[ev.Item] != ev.Turn || s.tries[ev.Item] != ev.Attempt {
		// a re-ask or a retry starts over: what came before is void
		s.texts[ev.Item] = ""
		s.turns[ev.Item], s.tries[ev.Item] = ev.Turn, ev.Attempt
	}
	s.texts[ev.Item] += ev.Text
}

func (s *llmStream) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	items := make([]int, 0, len(s.texts))
	for i := range s.texts {
		items = append(items, i)
	}
	sort.Ints(items)
	var sb strings.Builder
	for _, i := range items {
		fmt.Fprintf(&sb, "── level %d", i+1)
		if t := s.turns[i]; t > 0 {
			fmt.Fprintf(&sb, " (re-ask %d)", t)
		}
		fmt.Fprintf(&sb, "\n%s\n", strings.TrimSpace(s.texts[i]))
	}
	return sb.String()
}

// Generate asks the model for the number of levels set, for the selected problem, and writes
// the run folder into the output folder.
func (lp *llmPanel) Generate() { lp.generate(nil) }

// generate runs a batch; the requests whose cache keys are in refresh are asked past the cache
// (Ask again), the others may be answered from it.
func (lp *llmPanel) generate(refresh map[string]bool) {
	if lp.busy() {
		return
	}
	name, p, err := lp.wb.currentProblem()
	if err != nil {
		lp.status.SetText(err.Error())
		return
	}
	n, err := parseLevelCount(lp.count.Text)
	if err != nil {
		lp.status.SetText(err.Error())
		return
	}
	seed, err := parseSeed(lp.seed.Text)
	if err != nil {
		lp.status.SetText(err.Error())
		return
	}
	cfg, err := lp.config()
	if err != nil {
		lp.status.SetText(err.Error())
		return
	}
	text := lp.template.Text
	edited := text != lp.templateOriginal
	if edited {
		if _, err := (llm.Templates{}).Parse(lp.templateName, text); err != nil {
			lp.status.SetText("The template does not parse: " + err.Error())
			return
		}
	}
	outDir := lp.wb.outputDir()
	cfg.CacheDir = filepath.Join(outDir, llmCacheDir)
	traffic := &llmTraffic{} // every HTTP attempt, retries included
	cfg.HTTPClient = traffic.client()
	cfg.RefreshKeys = refresh
	client, err := llm.New(cfg)
	if err != nil {
		lp.status.SetText(err.Error())
		return
	}
	k, err := parseExampleCount(lp.examples.Text)
	if err != nil {
		lp.status.SetText(err.Error())
		return
	}
	opts := llm.GeneratorOptions{
		Options: search.Options{Problem: name, Fitness: search.FitnessQuality, Seed: seed, PopSize: n},
		PromptSettings: llm.PromptSettings{Examples: k, ExamplesFrom: lp.exampleDirs[lp.examplesFrom.Selected],
			Control: lp.control.Checked, MaxRepairs: llm.DefaultMaxRepairs, Template: lp.templateName},
	}
	ctx, cancel := context.WithCancel(context.Background())
	lp.mu.Lock()
	lp.running, lp.cancel = true, cancel
	lp.mu.Unlock()
	lp.generateButton.Disable()
	lp.cancelButton.Enable()
	lp.clearFeedback()
	lp.progress.SetValue(0)
	lp.stream.SetText("")
	lp.gallery.ShowMessage("Waiting for the first reply…")
	lp.batch++
	batch := lp.batch
	finals := 0
	// progress shows, while the batch runs, the levels done and the requests sent, failed and
	// retried (UI goroutine)
	progress := func() {
		if lp.batch != batch || !lp.busy() {
			return
		}
		lp.status.SetText(fmt.Sprintf("Asking %s for %d levels of %s: %d of %d done · %s", cfg.Model, n, name, finals, n,
			traffic.counts().text(true)))
		lp.progress.Refresh()
	}
	lp.progress.TextFormatter = func() string {
		c := traffic.counts()
		return fmt.Sprintf("%d of %d levels · %d %s", int(math.Round(lp.progress.Value*float64(n))), n, c.sent, nouns(c.sent, "request", "requests"))
	}
	lp.status.SetText(fmt.Sprintf("Asking %s for %d levels of %s…", cfg.Model, n, name))
	lp.watchTraffic(traffic, progress)

	stream := &llmStream{texts: map[int]string{}, turns: map[int]int{}, tries: map[int]int{}}
	var thumbsMu sync.Mutex
	thumbs := map[int]*widgets.Thumb{}
	contents := map[int]problems.Content{}     // each cell's level, to match the final diversities
	fb := llmFeedback{keys: map[string]bool{}} // where the answers came from
	lp.jobs.Add(1)
	go func() {
		defer lp.jobs.Done()
		defer cancel()
		final, dir, err := lp.execute(ctx, p, client, opts, outDir, edited, text, stream, func(ev llm.ReplyEvent) {
			var img, rerr = problemImage(p, ev)
			lp.wb.ui.onUI(func() {
				thumbsMu.Lock()
				defer thumbsMu.Unlock()
				t := widgets.NewThumb(ev.Item, img, rerr, ev.Quality, 0, ev.Controllability)
				if rerr == nil {
					m := newMember(ev.Item, problems.Scored{Content: ev.Content, Control: ev.Control, Info: ev.Info, Quality: ev.Quality,
						Controllability: ev.Controllability, Cell: problems.NoCell})
					t.OnTapped = func() {
						m.Diversity = t.Diversity.Value
						lp.wb.showDetail(name, p, m, img)
					}
				}
				thumbs[ev.Item], contents[ev.Item] = t, ev.Content
				fb.reply(ev)
				if ev.Final {
					finals++
					lp.progress.SetValue(float64(finals) / float64(n))
					progress()
				}
				keys := make([]int, 0, len(thumbs))
				for k := range thumbs {
					keys = append(keys, k)
				}
				sort.Ints(keys)
				list := make([]*widgets.Thumb, len(keys))
				for i, k := range keys {
					list[i] = thumbs[k]
				}
				lp.gallery.SetThumbs(list)
			})
		})
		lp.wb.ui.onUI(func() {
			lp.mu.Lock()
			lp.running, lp.cancel = false, nil
			if err == nil {
				lp.lastDir = dir
			}
			lp.mu.Unlock()
			lp.generateButton.Enable()
			lp.cancelButton.Disable()
			lp.stream.SetText(stream.text())
			thumbsMu.Lock()
			shown := len(thumbs)
			thumbsMu.Unlock()
			lp.showFeedback(fb, err, shown)
			switch {
			case errors.Is(err, context.Canceled):
				lp.status.SetText("Cancelled; the unfinished run folder is " + dir + fb.note())
			case err != nil:
				lp.status.SetText("Generation failed: " + err.Error() + " (" + traffic.counts().text(false) + ")")
			default:
				lp.progress.SetValue(1)
				thumbsMu.Lock()
				showDiversity(thumbs, contents, final)
				thumbsMu.Unlock()
				lp.status.SetText(fmt.Sprintf("%d of %d levels valid%s · %s; run folder %s (added to Compare)", len(final.Population), n, fb.note(),
					traffic.counts().text(false), dir))
				lp.compared.addFolder(dir)
				lp.compareButton.Enable()
			}
		})
	}()
}

// execute runs the batch: the run folder (with the edited template inside it, so the run
// records what it asked), the stream shown as it arrives, and Execute.
func (lp *llmPanel) execute(ctx context.Context, p problems.Problem, client *llm.Client, opts llm.GeneratorOptions, outDir string,
	edited bool, text string, stream *llmStream, onReply func(llm.ReplyEvent)) (*experiment.Final, string, error) {
	cfg := experiment.Config{Generator: llm.GeneratorName, Options: opts.Options}
	dir := runFolderName(outDir, cfg, time.Now().Format("20060102-150405"))
	if edited {
		promptDir := filepath.Join(dir, "prompts")
		if err := os.MkdirAll(promptDir, 0o755); err != nil {
			return nil, dir, err
		}
		if err := os.WriteFile(filepath.Join(promptDir, opts.Template+".tmpl"), []byte(text), 0o644); err != nil {
			return nil, dir, err
		}
		opts.PromptDir = promptDir
	}
	var refreshMu sync.Mutex
	pending := false
	onDelta := func(ev llm.DeltaEvent) {
		stream.add(ev)
		refreshMu.Lock()
		if pending {
			refreshMu.Unlock()
			return
		}
		pending = true
		refreshMu.Unlock()
		// one refresh at a time: a fast stream must not queue a callback per token
		lp.jobs.Add(1)
		go func() {
			defer lp.jobs.Done()
			time.Sleep(50 * time.Millisecond)
			refreshMu.Lock()
			pending = false
			refreshMu.Unlock()
			text := stream.text()
			lp.wb.ui.onUI(func() {
				if lp.busy() {
					lp.stream.SetText(text)
					lp.streamScroll.ScrollToBottom()
				}
			})
		}()
	}
	final, err := llm.StartRun(ctx, dir, client, opts, 0, func(g *llm.Generator) {
		g.OnDelta, g.OnReply = onDelta, onReply
	}, nil)
	return final, dir, err
}

// problemImage draws a reply's level, or says why there is none.
func problemImage(p problems.Problem, ev llm.ReplyEvent) (img image.Image, err error) {
	if ev.Error != "" {
		return nil, fmt.Errorf("invalid reply: %s", ev.Error)
	}
	return safeRender(p, ev.Content)
}

// showDiversity fills in the diversity badges once the batch is measured: the final
// population is sorted, so its members are matched to the cells by content (contents: each
// cell's level, by the same key).
func showDiversity(thumbs map[int]*widgets.Thumb, contents map[int]problems.Content, final *experiment.Final) {
	if final == nil {
		return
	}
	byContent := map[string]float64{}
	for _, ind := range final.Population {
		b, _ := json.Marshal(ind.Content)
		byContent[string(b)] = ind.Diversity
	}
	for k, t := range thumbs {
		b, _ := json.Marshal(contents[k])
		if d, ok := byContent[string(b)]; ok && contents[k] != nil {
			t.Diversity.SetValue(d)
		}
	}
}

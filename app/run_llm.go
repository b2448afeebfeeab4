package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/llm"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// The Run tab's LLM-guided evolution (llm-ga, llm-mapelites): the share of children asked from
// the model and the re-asks, with the LLM tab's endpoint. The run goes through the same core
// entry points as `workbench run --generator llm-ga` (llm.EvolveConfig, llm.ContinueEvolve).

// setupLLM builds the row of the model's operator settings (shown for the LLM generators).
func (rp *runPanel) setupLLM() {
	rp.llmRate = newEntry(rp.wb)
	rp.llmRate.SetText(strconv.FormatFloat(llm.DefaultEvolveRate, 'g', -1, 64))
	rp.llmRepairs = newEntry(rp.wb)
	rp.llmRepairs.SetText(strconv.Itoa(llm.DefaultMaxRepairs))
	rp.endpointNote = widget.NewLabel("")
	rp.endpointNote.SizeName = theme.SizeNameCaptionText
	rp.endpointNote.Truncation = fyne.TextTruncateEllipsis
	rp.llmRow = container.NewBorder(nil, nil, container.NewHBox(caption("LLM RATE"), widgets.FixedWidth(60, rp.llmRate),
		caption("REPAIRS"), widgets.FixedWidth(50, rp.llmRepairs)), nil, rp.endpointNote)
	rp.llmRow.Hide()
}

// usesAxes tells whether generator g needs MAP-Elites axes (its descriptor says so).
func usesAxes(g string) bool { d, _ := search.Describe(g); return d.UsesAxes }

// shown refreshes what the Run tab reads from other tabs (the LLM tab's endpoint).
func (rp *runPanel) shown() { rp.refreshStart() }

// endpointMissing says why the LLM tab's endpoint cannot run the selected generator ("" when
// it can, or when the generator needs no model).
func (rp *runPanel) endpointMissing() string {
	if !llm.IsEvolve(rp.generator.Selected) {
		return ""
	}
	lp := rp.llmTab()
	if lp == nil {
		return rp.generator.Selected + " asks a language model, and this window has no LLM tab to configure one."
	}
	if model, _, _ := lp.endpoint(); model == "" {
		return "No endpoint configured: set the model (and base URL, key) in the LLM tab to run " + rp.generator.Selected + "."
	}
	return ""
}

// refreshStart shows the endpoint used (or why there is none) and disables Start for a new
// LLM-guided run without an endpoint. A paused run resumes with the endpoint it recorded.
func (rp *runPanel) refreshStart() {
	if !llm.IsEvolve(rp.generator.Selected) {
		rp.endpointNote.SetText("")
		return
	}
	reason := rp.endpointMissing()
	if reason == "" {
		model, url, offline := rp.llmTab().endpoint()
		if url == "" {
			url = llm.DefaultBaseURL
		}
		note := "model " + model + " at " + url + " (LLM tab)"
		if offline {
			note += ", offline: replayed from the cache"
		}
		rp.endpointNote.SetText(note)
	} else {
		rp.endpointNote.SetText(reason)
	}
	if rp.state == runRunning || rp.state == runPaused {
		return
	}
	if reason != "" {
		rp.startButton.Disable()
	} else if _, _, err := rp.wb.currentProblem(); err == nil {
		rp.startButton.Enable()
	}
}

// evolveSettings reads the operator's settings.
func (rp *runPanel) evolveSettings() (llm.EvolveSettings, error) {
	rate, err := strconv.ParseFloat(strings.TrimSpace(rp.llmRate.Text), 64)
	if err != nil || !(rate >= 0 && rate <= 1) {
		return llm.EvolveSettings{}, errors.New("llm rate: enter the share of children asked from the model, from 0 to 1")
	}
	repairs, err := parseIntIn(rp.llmRepairs.Text, 0, 20, "repairs")
	if err != nil {
		return llm.EvolveSettings{}, err
	}
	return llm.EvolveSettings{Rate: rate, MaxRepairs: repairs}, nil
}

// evolveClient makes the client of the LLM tab's endpoint, answering from the output folder's
// response cache (the LLM tab's), with the run's seed as the CLI does.
func (rp *runPanel) evolveClient(outDir string, seed uint64) (*llm.Client, error) {
	if reason := rp.endpointMissing(); reason != "" {
		return nil, errors.New(reason)
	}
	cfg, err := rp.llmTab().config()
	if err != nil {
		return nil, err
	}
	if seed > uint64(int(^uint(0)>>1)) {
		return nil, errors.New("seed: too large for a model's seed")
	}
	s := int(seed)
	cfg.Seed = &s
	cfg.CacheDir = filepath.Join(outDir, llmCacheDir)
	cfg.HTTPClient = rp.watchRequests()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	return llm.New(cfg)
}

// resumeClient makes the client that continues the evolution run cfg: its recorded endpoint
// and sampling settings; the key, offline box and transport come from the LLM tab.
func (rp *runPanel) resumeClient(dir string, cfg experiment.Config) (*llm.Client, error) {
	es, err := llm.ReadEvolveSettings(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	lp := rp.llmTab()
	if lp == nil {
		return nil, errors.New("this window has no LLM tab: resume the run with workbench run --resume " + dir)
	}
	c, err := lp.config()
	if err != nil {
		return nil, err
	}
	c.BaseURL, c.Model = es.BaseURL, es.Model
	c.Temperature, c.Seed, c.MaxTokens, c.Price = es.Temperature, es.Seed, es.MaxTokens, es.Price
	c.CacheDir = filepath.Join(filepath.Dir(dir), llmCacheDir)
	c.HTTPClient = rp.watchRequests()
	if err := c.Check(); err != nil {
		return nil, err
	}
	return llm.New(c)
}

// evolveExec runs an evolution run folder with client c through the CLI's core entry point.
func evolveExec(c *llm.Client) runExec {
	return func(ctx context.Context, run *experiment.Run, onEvent func(search.Event)) error {
		_, err := llm.ContinueEvolve(ctx, run, c, nil, onEvent)
		return err
	}
}

// startEvolve starts a new llm-ga or llm-mapelites run with the panel's settings.
func (rp *runPanel) startEvolve(cfg experiment.Config, axes []string, bins int, outDir string) {
	es, err := rp.evolveSettings()
	if err != nil {
		rp.showError(err)
		return
	}
	client, err := rp.evolveClient(outDir, cfg.Seed)
	if err != nil {
		rp.showError(err)
		return
	}
	p, err := makeProblem(cfg.Problem)
	if err != nil {
		rp.showError(err)
		return
	}
	rp.hideError()
	rp.setStatus("starting…")
	rp.problem = p
	rp.record = newRunRecord("", cfg)
	rp.population.Clear("The population appears here after the first generation.")
	rp.showProgress(nil)
	rp.startJobWith(func(ctx context.Context) (*experiment.Run, error) {
		opts := cfg.Options
		if usesAxes(cfg.Generator) {
			ax, err := sampleAxes(ctx, p, axes, bins, cfg.Seed)
			if err != nil {
				return nil, err
			}
			opts.Axes = ax
		}
		ecfg, err := llm.EvolveConfig(client, cfg.Generator, opts, es, cfg.Generations)
		if err != nil {
			return nil, err
		}
		return experiment.Create(runFolderName(outDir, ecfg, timeStamp()), ecfg)
	}, evolveExec(client))
}

// showEvolveSettings shows an opened evolution run's operator settings.
func (rp *runPanel) showEvolveSettings(cfg experiment.Config) {
	if es, err := llm.ReadEvolveSettings(cfg); err == nil {
		rp.llmRate.SetText(strconv.FormatFloat(es.Rate, 'g', -1, 64))
		rp.llmRepairs.SetText(strconv.Itoa(es.MaxRepairs))
	}
}

// watchRequests counts the HTTP requests of the LLM-guided run about to start (the client
// retries a refused request by itself, for as long as a minute or more) and returns the
// client that sends them: the status shows them between generations too.
func (rp *runPanel) watchRequests() *http.Client {
	t := &llmTraffic{}
	rp.traffic = t
	t.watch(rp.wb.ui, nil, func() {
		if rp.traffic == t && rp.state == runRunning {
			rp.setStatus(rp.statusBase)
		}
	})
	return t.client()
}

// setStatus shows base in the status, followed by what the run's model requests have done
// ("4 requests sent · 2 failed and retried (last: 429 Too Many Requests)") for an LLM-guided
// run.
func (rp *runPanel) setStatus(base string) {
	rp.statusBase = base
	if t := rp.traffic; t != nil {
		if c := t.counts(); c.sent > 0 {
			base += " · " + c.text(rp.state == runRunning)
		}
	}
	rp.status.SetText(base)
}

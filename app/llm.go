package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/llm"
	"pcgwb/problems"
)

// Preference keys of the LLM tab. The API key is not among them: it lives in the OS keyring
// (or in memory, see llm_key.go); prefLLMKey is only read to delete what older versions wrote.
const (
	prefLLMBaseURL     = "llm_base_url"
	prefLLMModel       = "llm_model"
	prefLLMKey         = "llm_api_key"
	prefLLMTemperature = "llm_temperature"
	prefLLMOffline     = "llm_offline"
)

// llmCacheDir is the response cache inside the output folder; it holds no config.json, so
// Compare's folder scan never mistakes it for a run.
const llmCacheDir = ".llm-cache"

// llmTemplateVariables is the help shown next to the prompt editor.
const llmTemplateVariables = `{{.Problem}} {{.Family}} {{.Description}} {{.Params}}
{{.Format}} {{.Rows}} {{.Cols}} {{.Length}} {{.Tiles}}
{{.Examples}} (each .Text, .Quality)  {{.ControlFormat}}
{{.Control}} {{.ControlText}} {{.ControlValues}}
named: {{template "format" .}} "examples" "control" "answer"; define "system" and "repair" (.Error, .Reply)
functions: json add sub mul percent fixed indent param imperfect`

// LLM returns the workbench's LLM tab (nil if the tab is not registered).
func (wb *Workbench) LLM() *LLMPanel {
	lp, _ := wb.extensionPanel("LLM").(*LLMPanel)
	return lp
}

// Content is the tab's widget tree.
func (lp *LLMPanel) Content() fyne.CanvasObject { return lp.content }

// LLMPanel is the LLM tab: an OpenAI-compatible endpoint, the problem's prompt template, and a
// batch of levels asked from the model, streamed as they arrive and written as a run folder
// that Compare shows next to the evolutionary runs.
type LLMPanel struct {
	BaseURL, Model, Temperature *widget.Entry
	APIKey                      *widget.Entry
	// KeyStatus says where the key is kept (the OS keyring, or memory until exit).
	KeyStatus *widget.Label
	// AllowInsecure accepts a plain http:// base URL on a host other than this machine.
	AllowInsecure *widget.Check
	// ReaskInvalid asks the server again, past the cache, for a cached reply that fails
	// validation (the CLI's --reask-invalid); the new answer replaces the cached one.
	ReaskInvalid *widget.Check
	keys         *llm.KeyStore
	// Offline answers every request from the response cache (a workshop without network
	// replays what was recorded) and fails clearly on a request it lacks.
	Offline    *widget.Check
	TestButton *widget.Button
	TestResult *widget.Label

	Template     *widget.Entry
	TemplateName *widget.Label
	ResetButton  *widget.Button
	// TemplateHelp folds the list of the template's variables away.
	TemplateHelp *widget.Accordion

	Count, Seed *widget.Entry
	// Examples is k, the example levels per prompt; ExamplesFrom picks where they come from:
	// the built-in set or a finished run of the problem loaded in Compare.
	Examples     *widget.Entry
	ExamplesFrom *widget.Select
	// Control puts a sampled control target into each level's prompt.
	Control                      *widget.Check
	exampleDirs                  map[string]string
	GenerateButton, CancelButton *widget.Button
	// CompareButton brings Compare forward, where the finished batch sits next to the other runs.
	CompareButton *widget.Button
	// AskAgainButton re-asks the last batch's replies that came from the cache; ErrorButton
	// shows the last failure's whole text (llm_feedback.go).
	AskAgainButton, ErrorButton    *widget.Button
	feedback                       llmFeedback // the last batch's
	lastErr                        string
	Progress                       *widget.ProgressBar
	Stream                         *widget.Label
	Gallery                        *Gallery
	Status                         *widget.Label
	streamScroll                   *container.Scroll
	content                        fyne.CanvasObject
	wb                             *Workbench
	templateName, templateOriginal string

	mu      sync.Mutex
	cancel  context.CancelFunc
	jobs    jobGroup
	running bool
	// lastDir is the run folder of the last finished batch.
	lastDir string
	// batch numbers the batches (UI goroutine): a late progress callback of an earlier batch
	// is dropped.
	batch int
}

func newLLMPanel(wb *Workbench) *LLMPanel {
	lp := &LLMPanel{wb: wb}
	prefs := wb.App.Preferences()
	lp.BaseURL = widget.NewEntry()
	lp.BaseURL.SetPlaceHolder(llm.DefaultBaseURL)
	lp.BaseURL.SetText(prefs.String(prefLLMBaseURL))
	lp.BaseURL.OnChanged = func(s string) { prefs.SetString(prefLLMBaseURL, strings.TrimSpace(s)) }
	lp.Model = widget.NewEntry()
	lp.Model.SetPlaceHolder("gpt-4o-mini, llama3.1, …")
	lp.Model.SetText(prefs.String(prefLLMModel))
	lp.Model.OnChanged = func(s string) { prefs.SetString(prefLLMModel, strings.TrimSpace(s)) }
	lp.setupKey(prefs)
	lp.Temperature = widget.NewEntry()
	lp.Temperature.SetPlaceHolder("server default")
	lp.Temperature.SetText(prefs.String(prefLLMTemperature))
	lp.Temperature.Validator = func(s string) error { _, err := parseTemperature(s); return err }
	lp.Temperature.OnChanged = func(s string) { prefs.SetString(prefLLMTemperature, strings.TrimSpace(s)) }
	lp.Offline = widget.NewCheck("Offline: replay from the cache only", func(b bool) { prefs.SetBool(prefLLMOffline, b) })
	lp.Offline.SetChecked(prefs.Bool(prefLLMOffline))
	lp.TestButton = widget.NewButtonWithIcon("Test", theme.ConfirmIcon(), lp.Test)
	lp.TestResult = widget.NewLabel("")
	lp.TestResult.Wrapping = fyne.TextWrapWord

	lp.Template = widget.NewMultiLineEntry()
	lp.Template.TextStyle = fyne.TextStyle{Monospace: true}
	lp.Template.Wrapping = fyne.TextWrapOff
	lp.TemplateName = widget.NewLabel("")
	lp.ResetButton = widget.NewButtonWithIcon("Reset", theme.ContentUndoIcon(), func() { lp.Template.SetText(lp.templateOriginal) })
	vars := widget.NewLabel(llmTemplateVariables)
	vars.TextStyle = fyne.TextStyle{Monospace: true}
	vars.SizeName = theme.SizeNameCaptionText
	vars.Wrapping = fyne.TextWrapWord

	lp.Count = widget.NewEntry()
	lp.Count.SetText("10")
	lp.Count.Validator = func(s string) error { _, err := parseLevelCount(s); return err }
	lp.Seed = widget.NewEntry()
	lp.Seed.SetText(strconv.FormatUint(wb.Settings().DefaultSeed(), 10))
	lp.Seed.Validator = func(s string) error { _, err := parseSeed(s); return err }
	lp.Examples = widget.NewEntry()
	lp.Examples.SetText(strconv.Itoa(llm.DefaultExamples))
	lp.Examples.Validator = func(s string) error { _, err := parseExampleCount(s); return err }
	lp.ExamplesFrom = widget.NewSelect([]string{builtinExamples}, nil)
	lp.ExamplesFrom.SetSelected(builtinExamples)
	lp.Control = widget.NewCheck("Control targets", nil)
	lp.GenerateButton = widget.NewButtonWithIcon("Generate", theme.MediaPlayIcon(), lp.Generate)
	lp.GenerateButton.Importance = widget.HighImportance
	lp.CancelButton = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), lp.Cancel)
	lp.CancelButton.Disable()
	lp.CompareButton = widget.NewButtonWithIcon("Compare", theme.ListIcon(), func() { lp.wb.ShowTab("compare") })
	lp.CompareButton.Disable()
	lp.setupFeedback()
	lp.Progress = widget.NewProgressBar()
	lp.Stream = widget.NewLabel("")
	lp.Stream.TextStyle = fyne.TextStyle{Monospace: true}
	lp.Stream.Wrapping = fyne.TextWrapWord
	lp.streamScroll = container.NewVScroll(lp.Stream)
	lp.Gallery = NewGallery("The levels appear here as the model writes them.")
	lp.Status = widget.NewLabel("Set the endpoint, press Test, then Generate.")
	lp.Status.Wrapping = fyne.TextWrapWord
	lp.content = lp.layout(vars)

	wb.OnProblemChanged(func(name string, p problems.Problem) { lp.loadTemplate(name); lp.shown() })
	if name, _, err := wb.CurrentProblem(); err == nil {
		lp.loadTemplate(name)
	}
	return lp
}

// layout places the tab's parts so that it fits the default 1280×720 window and stays usable
// in a window about 1000 units wide (the tab area is then some 750 wide): the batch's controls
// and actions come first, across the whole width, wrapping onto more rows rather than widening
// the tab; the endpoint and the template sit beside the replies and the gallery below them.
func (lp *LLMPanel) layout(vars *widget.Label) fyne.CanvasObject {
	endpoint := widget.NewForm(
		widget.NewFormItem("Base URL", lp.BaseURL),
		widget.NewFormItem("Model", lp.Model),
		widget.NewFormItem("API key", lp.APIKey),
		widget.NewFormItem("", lp.KeyStatus),
		widget.NewFormItem("Temperature", lp.Temperature),
	)
	// the checks under the form, not in its value column: their labels need the whole width;
	// Test and its answer above them, outside their scroll, always in view
	endpointBox := container.NewBorder(container.NewBorder(nil, nil, lp.TestButton, nil, lp.TestResult), nil, nil, nil,
		container.NewVScroll(container.NewVBox(endpoint, lp.Offline, lp.AllowInsecure, lp.ReaskInvalid)))
	// the variables' help folds away, leaving the template its room
	lp.TemplateHelp = widget.NewAccordion(widget.NewAccordionItem("Template variables", vars))
	editor := container.NewBorder(container.NewBorder(nil, nil, nil, lp.ResetButton, lp.TemplateName),
		lp.TemplateHelp, nil, nil, lp.Template)
	// both scroll within their half of the column, so the tab needs no more height than the
	// default window gives it
	left := container.NewVSplit(endpointBox, editor)
	left.Offset = 0.5

	controls := container.New(newWrapLayout(),
		container.NewHBox(widget.NewLabel("Levels"), sized(lp.Count, 70), widget.NewLabel("Seed"), sized(lp.Seed, 110)),
		container.NewHBox(widget.NewLabel("Examples"), sized(lp.Examples, 60), widget.NewLabel("from"), sized(lp.ExamplesFrom, 220)),
		lp.Control, lp.GenerateButton, lp.CancelButton)
	actions := container.New(newWrapLayout(), lp.ErrorButton, lp.AskAgainButton, lp.CompareButton)
	top := container.NewVBox(controls, lp.Progress, container.NewBorder(nil, nil, nil, actions, lp.Status))
	right := container.NewVSplit(lp.streamScroll, lp.Gallery)
	right.Offset = 0.3
	split := container.NewHSplit(left, right)
	split.Offset = 0.45
	return container.NewBorder(top, nil, nil, nil, split)
}

// builtinExamples is the example source that needs no run.
const builtinExamples = "built-in examples"

func parseExampleCount(s string) (int, error) { return parseWhole(s, "examples", 0, 20) }

// shown lists the finished runs of the current problem that Compare holds as example sources.
func (lp *LLMPanel) shown() {
	name, _, err := lp.wb.CurrentProblem()
	options := []string{builtinExamples}
	lp.exampleDirs = map[string]string{}
	if err == nil && lp.wb.Compare != nil {
		for _, r := range lp.wb.Compare.Runs() {
			if r.Final == nil || r.Config.Problem != name || len(r.Final.Population) == 0 {
				continue
			}
			label := r.Label() + " · " + filepath.Base(r.Dir)
			lp.exampleDirs[label] = r.Dir
			options = append(options, label)
		}
	}
	selected := lp.ExamplesFrom.Selected
	lp.ExamplesFrom.Options = options
	if _, ok := lp.exampleDirs[selected]; !ok {
		selected = builtinExamples
	}
	lp.ExamplesFrom.SetSelected(selected)
	lp.ExamplesFrom.Refresh()
}

// SelectExamplesFrom takes the examples from a run folder Compare holds; it reports whether
// the folder is one of the offered sources.
func (lp *LLMPanel) SelectExamplesFrom(dir string) bool {
	lp.shown()
	for label, d := range lp.exampleDirs {
		if d == dir {
			lp.ExamplesFrom.SetSelected(label)
			return true
		}
	}
	return false
}

// sized gives an entry a fixed width in a row of buttons.
func sized(o fyne.CanvasObject, w float32) fyne.CanvasObject {
	return container.NewGridWrap(fyne.NewSize(w, o.MinSize().Height), o)
}

func parseTemperature(s string) (*float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	t, err := strconv.ParseFloat(s, 64)
	if err != nil || t < 0 || t > 2 {
		return nil, errors.New("a temperature is a number from 0 to 2")
	}
	return &t, nil
}

func parseLevelCount(s string) (int, error) { return parseWhole(s, "levels", 1, 1000) }

// loadTemplate shows the prompt template the selected problem uses.
func (lp *LLMPanel) loadTemplate(problem string) {
	p, err := llm.Templates{}.Load(problem, "")
	if err != nil {
		lp.templateName, lp.templateOriginal = "", ""
		lp.TemplateName.SetText(err.Error())
		lp.Template.SetText("")
		return
	}
	lp.templateName, lp.templateOriginal = p.Name, p.Text
	lp.TemplateName.SetText(fmt.Sprintf("Prompt template %s (%s)", p.Name, p.Origin))
	lp.Template.SetText(p.Text)
}

// config reads the endpoint settings; the key falls back to the environment.
func (lp *LLMPanel) config() (llm.Config, error) {
	temp, err := parseTemperature(lp.Temperature.Text)
	if err != nil {
		return llm.Config{}, err
	}
	key := lp.saveKey()
	if key == "" {
		key = llm.KeyFromEnv("")
	}
	return llm.Config{BaseURL: strings.TrimSpace(lp.BaseURL.Text), Model: strings.TrimSpace(lp.Model.Text), APIKey: key,
		Temperature: temp, Timeout: 2 * time.Minute, Offline: lp.Offline.Checked, AllowInsecure: lp.AllowInsecure.Checked,
		ReaskInvalid: lp.ReaskInvalid.Checked}, nil
}

// Test sends the endpoint a tiny request (off the UI goroutine) and shows the answer.
func (lp *LLMPanel) Test() {
	if lp.Offline.Checked {
		lp.TestResult.SetText("Offline: requests are answered from the cache (" + filepath.Join(lp.wb.outputDir(), llmCacheDir) +
			") and the endpoint is not asked; uncheck Offline to test it.")
		return
	}
	cfg, err := lp.config()
	var c *llm.Client
	if err == nil {
		cfg.MaxRetries = -1 // a test should say at once what is wrong
		c, err = llm.New(cfg)
	}
	if err != nil {
		lp.TestResult.SetText("✗ " + err.Error())
		return
	}
	lp.TestButton.Disable()
	lp.TestResult.SetText("asking " + cfg.Model + "…")
	lp.jobs.Add(1)
	go func() {
		defer lp.jobs.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		start := time.Now()
		resp, err := c.Test(ctx)
		onUI(func() {
			lp.TestButton.Enable()
			if err != nil {
				lp.TestResult.SetText("✗ " + err.Error()) // RequestError never holds the key
				return
			}
			reply := strings.TrimSpace(resp.Content)
			if len(reply) > 60 {
				reply = reply[:60] + "…"
			}
			lp.TestResult.SetText(fmt.Sprintf("✓ %s answered %q in %.1f s", resp.Model, reply, time.Since(start).Seconds()))
		})
	}()
}

// Busy reports whether a batch is being generated.
func (lp *LLMPanel) Busy() bool {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	return lp.running
}

// LastRunDir is the run folder of the last batch that finished.
func (lp *LLMPanel) LastRunDir() string {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	return lp.lastDir
}

// Cancel stops the batch in flight; the partial run folder is left unfinished.
func (lp *LLMPanel) Cancel() {
	lp.mu.Lock()
	c := lp.cancel
	lp.mu.Unlock()
	if c != nil {
		c()
	}
}

// Wait blocks until the test and the batch in flight are done and shown, at most timeout.
// It must not be called on the UI goroutine.
func (lp *LLMPanel) Wait(timeout time.Duration) error {
	if !lp.jobs.Wait(timeout) {
		return fmt.Errorf("LLM panel still working after %v", timeout)
	}
	return nil
}

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

	"pcgwb/app/widgets"
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

// llm returns the workbench's LLM tab (nil if the tab is not registered).
func (wb *Workbench) llm() *llmPanel {
	lp, _ := wb.extensionPanel("LLM").(*llmPanel)
	return lp
}

// Content is the tab's widget tree.
func (lp *llmPanel) Content() fyne.CanvasObject { return lp.content }

// llmPanel is the LLM tab: an OpenAI-compatible endpoint, the problem's prompt template, and a
// batch of levels asked from the model, streamed as they arrive and written as a run folder
// that Compare shows next to the evolutionary runs.
type llmPanel struct {
	baseURL, model, temperature *widget.Entry
	apiKey                      *widget.Entry
	// keyStatus says where the key is kept (the OS keyring, or memory until exit).
	keyStatus *widget.Label
	// allowInsecure accepts a plain http:// base URL on a host other than this machine.
	allowInsecure *widget.Check
	// reaskInvalid asks the server again, past the cache, for a cached reply that fails
	// validation (the CLI's --reask-invalid); the new answer replaces the cached one.
	reaskInvalid *widget.Check
	keys         *llm.KeyStore
	// offline answers every request from the response cache (a workshop without network
	// replays what was recorded) and fails clearly on a request it lacks.
	offline    *widget.Check
	testButton *widget.Button
	testResult *widget.Label

	template     *widget.Entry
	TemplateName *widget.Label
	resetButton  *widget.Button
	// templateHelp folds the list of the template's variables away.
	templateHelp *widget.Accordion

	count, seed *widget.Entry
	// examples is k, the example levels per prompt; ExamplesFrom picks where they come from:
	// the built-in set or a finished run of the problem loaded in Compare.
	examples     *widget.Entry
	examplesFrom *widget.Select
	// control puts a sampled control target into each level's prompt.
	control                      *widget.Check
	exampleDirs                  map[string]string
	generateButton, cancelButton *widget.Button
	// compareButton brings Compare forward, where the finished batch sits next to the other runs.
	compareButton *widget.Button
	// askAgainButton re-asks the last batch's replies that came from the cache; ErrorButton
	// shows the last failure's whole text (llm_feedback.go).
	askAgainButton, errorButton    *widget.Button
	feedback                       llmFeedback // the last batch's
	lastErr                        string
	progress                       *widget.ProgressBar
	stream                         *widget.Label
	gallery                        *widgets.Gallery
	status                         *widget.Label
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
	// compared is the Compare tab: its finished runs are example sources, and a finished
	// batch is added to it (window_links.go).
	compared runCollection
}

func newLLMPanel(wb *Workbench, compared runCollection) *llmPanel {
	lp := &llmPanel{wb: wb, compared: compared}
	prefs := wb.app.Preferences()
	lp.baseURL = widget.NewEntry()
	lp.baseURL.SetPlaceHolder(llm.DefaultBaseURL)
	lp.baseURL.SetText(prefs.String(prefLLMBaseURL))
	lp.baseURL.OnChanged = func(s string) { prefs.SetString(prefLLMBaseURL, strings.TrimSpace(s)) }
	lp.model = widget.NewEntry()
	lp.model.SetPlaceHolder("gpt-4o-mini, llama3.1, …")
	lp.model.SetText(prefs.String(prefLLMModel))
	lp.model.OnChanged = func(s string) { prefs.SetString(prefLLMModel, strings.TrimSpace(s)) }
	lp.setupKey(prefs)
	lp.temperature = widget.NewEntry()
	lp.temperature.SetPlaceHolder("server default")
	lp.temperature.SetText(prefs.String(prefLLMTemperature))
	lp.temperature.Validator = func(s string) error { _, err := parseTemperature(s); return err }
	lp.temperature.OnChanged = func(s string) { prefs.SetString(prefLLMTemperature, strings.TrimSpace(s)) }
	lp.offline = widget.NewCheck("Offline: replay from the cache only", func(b bool) { prefs.SetBool(prefLLMOffline, b) })
	lp.offline.SetChecked(prefs.Bool(prefLLMOffline))
	lp.testButton = widget.NewButtonWithIcon("Test", theme.ConfirmIcon(), lp.test)
	lp.testResult = widget.NewLabel("")
	lp.testResult.Wrapping = fyne.TextWrapWord

	lp.template = widget.NewMultiLineEntry()
	lp.template.TextStyle = fyne.TextStyle{Monospace: true}
	lp.template.Wrapping = fyne.TextWrapOff
	lp.TemplateName = widget.NewLabel("")
	lp.resetButton = widget.NewButtonWithIcon("Reset", theme.ContentUndoIcon(), func() { lp.template.SetText(lp.templateOriginal) })
	vars := widget.NewLabel(llmTemplateVariables)
	vars.TextStyle = fyne.TextStyle{Monospace: true}
	vars.SizeName = theme.SizeNameCaptionText
	vars.Wrapping = fyne.TextWrapWord

	lp.count = widget.NewEntry()
	lp.count.SetText("10")
	lp.count.Validator = func(s string) error { _, err := parseLevelCount(s); return err }
	lp.seed = widget.NewEntry()
	lp.seed.SetText(strconv.FormatUint(wb.prefs().defaultSeed(), 10))
	lp.seed.Validator = func(s string) error { _, err := parseSeed(s); return err }
	lp.examples = widget.NewEntry()
	lp.examples.SetText(strconv.Itoa(llm.DefaultExamples))
	lp.examples.Validator = func(s string) error { _, err := parseExampleCount(s); return err }
	lp.examplesFrom = widget.NewSelect([]string{builtinExamples}, nil)
	lp.examplesFrom.SetSelected(builtinExamples)
	lp.control = widget.NewCheck("Control targets", nil)
	lp.generateButton = widget.NewButtonWithIcon("Generate", theme.MediaPlayIcon(), lp.Generate)
	lp.generateButton.Importance = widget.HighImportance
	lp.cancelButton = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), lp.Cancel)
	lp.cancelButton.Disable()
	lp.compareButton = widget.NewButtonWithIcon("Compare", theme.ListIcon(), func() { lp.wb.showTab("compare") })
	lp.compareButton.Disable()
	lp.setupFeedback()
	lp.progress = widget.NewProgressBar()
	lp.stream = widget.NewLabel("")
	lp.stream.TextStyle = fyne.TextStyle{Monospace: true}
	lp.stream.Wrapping = fyne.TextWrapWord
	lp.streamScroll = container.NewVScroll(lp.stream)
	lp.gallery = widgets.NewGallery("The levels appear here as the model writes them.")
	lp.status = widget.NewLabel("Set the endpoint, press Test, then Generate.")
	lp.status.Wrapping = fyne.TextWrapWord
	lp.content = lp.layout(vars)

	wb.onProblemChanged(func(name string, p problems.Problem) { lp.loadTemplate(name); lp.shown() })
	if name, _, err := wb.currentProblem(); err == nil {
		lp.loadTemplate(name)
	}
	return lp
}

// layout places the tab's parts so that it fits the default 1280×720 window and stays usable
// in a window about 1000 units wide (the tab area is then some 750 wide): the batch's controls
// and actions come first, across the whole width, wrapping onto more rows rather than widening
// the tab; the endpoint and the template sit beside the replies and the gallery below them.
func (lp *llmPanel) layout(vars *widget.Label) fyne.CanvasObject {
	endpoint := widget.NewForm(
		widget.NewFormItem("Base URL", lp.baseURL),
		widget.NewFormItem("Model", lp.model),
		widget.NewFormItem("API key", lp.apiKey),
		widget.NewFormItem("", lp.keyStatus),
		widget.NewFormItem("Temperature", lp.temperature),
	)
	// the checks under the form, not in its value column: their labels need the whole width;
	// Test and its answer above them, outside their scroll, always in view
	endpointBox := container.NewBorder(container.NewBorder(nil, nil, lp.testButton, nil, lp.testResult), nil, nil, nil,
		container.NewVScroll(container.NewVBox(endpoint, lp.offline, lp.allowInsecure, lp.reaskInvalid)))
	// the variables' help folds away, leaving the template its room
	lp.templateHelp = widget.NewAccordion(widget.NewAccordionItem("Template variables", vars))
	editor := container.NewBorder(container.NewBorder(nil, nil, nil, lp.resetButton, lp.TemplateName),
		lp.templateHelp, nil, nil, lp.template)
	// both scroll within their half of the column, so the tab needs no more height than the
	// default window gives it
	left := container.NewVSplit(endpointBox, editor)
	left.Offset = 0.5

	controls := container.New(widgets.NewWrapLayout(),
		container.NewHBox(widget.NewLabel("Levels"), sized(lp.count, 70), widget.NewLabel("Seed"), sized(lp.seed, 110)),
		container.NewHBox(widget.NewLabel("Examples"), sized(lp.examples, 60), widget.NewLabel("from"), sized(lp.examplesFrom, 220)),
		lp.control, lp.generateButton, lp.cancelButton)
	actions := container.New(widgets.NewWrapLayout(), lp.errorButton, lp.askAgainButton, lp.compareButton)
	top := container.NewVBox(controls, lp.progress, container.NewBorder(nil, nil, nil, actions, lp.status))
	right := container.NewVSplit(lp.streamScroll, lp.gallery)
	right.Offset = 0.3
	split := container.NewHSplit(left, right)
	split.Offset = 0.45
	return container.NewBorder(top, nil, nil, nil, split)
}

// builtinExamples is the example source that needs no run.
const builtinExamples = "built-in examples"

func parseExampleCount(s string) (int, error) { return parseWhole(s, "examples", 0, 20) }

// shown lists the finished runs of the current problem that Compare holds as example sources.
func (lp *llmPanel) shown() {
	name, _, err := lp.wb.currentProblem()
	options := []string{builtinExamples}
	lp.exampleDirs = map[string]string{}
	if err == nil && lp.compared != nil {
		for _, r := range lp.compared.Runs() {
			if r.Final == nil || r.Config.Problem != name || len(r.Final.Population) == 0 {
				continue
			}
			label := r.Label() + " · " + filepath.Base(r.Dir)
			lp.exampleDirs[label] = r.Dir
			options = append(options, label)
		}
	}
	selected := lp.examplesFrom.Selected
	lp.examplesFrom.Options = options
	if _, ok := lp.exampleDirs[selected]; !ok {
		selected = builtinExamples
	}
	lp.examplesFrom.SetSelected(selected)
	lp.examplesFrom.Refresh()
}

// selectExamplesFrom takes the examples from a run folder Compare holds; it reports whether
// the folder is one of the offered sources.
func (lp *llmPanel) selectExamplesFrom(dir string) bool {
	lp.shown()
	for label, d := range lp.exampleDirs {
		if d == dir {
			lp.examplesFrom.SetSelected(label)
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
func (lp *llmPanel) loadTemplate(problem string) {
	p, err := llm.Templates{}.Load(problem, "")
	if err != nil {
		lp.templateName, lp.templateOriginal = "", ""
		lp.TemplateName.SetText(err.Error())
		lp.template.SetText("")
		return
	}
	lp.templateName, lp.templateOriginal = p.Name, p.Text
	lp.TemplateName.SetText(fmt.Sprintf("Prompt template %s (%s)", p.Name, p.Origin))
	lp.template.SetText(p.Text)
}

// config reads the endpoint settings; the key falls back to the environment.
func (lp *llmPanel) config() (llm.Config, error) {
	temp, err := parseTemperature(lp.temperature.Text)
	if err != nil {
		return llm.Config{}, err
	}
	key := lp.saveKey()
	if key == "" {
		key = llm.KeyFromEnv("")
	}
	return llm.Config{BaseURL: strings.TrimSpace(lp.baseURL.Text), Model: strings.TrimSpace(lp.model.Text), APIKey: key,
		Temperature: temp, Timeout: 2 * time.Minute, Offline: lp.offline.Checked, AllowInsecure: lp.allowInsecure.Checked,
		ReaskInvalid: lp.reaskInvalid.Checked}, nil
}

// test sends the endpoint a tiny request (off the UI goroutine) and shows the answer.
func (lp *llmPanel) test() {
	if lp.offline.Checked {
		lp.testResult.SetText("Offline: requests are answered from the cache (" + filepath.Join(lp.wb.outputDir(), llmCacheDir) +
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
		lp.testResult.SetText("✗ " + err.Error())
		return
	}
	lp.testButton.Disable()
	lp.testResult.SetText("asking " + cfg.Model + "…")
	lp.jobs.Add(1)
	go func() {
		defer lp.jobs.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		start := time.Now()
		resp, err := c.Test(ctx)
		lp.wb.ui.onUI(func() {
			lp.testButton.Enable()
			if err != nil {
				lp.testResult.SetText("✗ " + err.Error()) // RequestError never holds the key
				return
			}
			reply := strings.TrimSpace(resp.Content)
			if len(reply) > 60 {
				reply = reply[:60] + "…"
			}
			lp.testResult.SetText(fmt.Sprintf("✓ %s answered %q in %.1f s", resp.Model, reply, time.Since(start).Seconds()))
		})
	}()
}

// busy reports whether a batch is being generated.
func (lp *llmPanel) busy() bool {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	return lp.running
}

// lastRunDir is the run folder of the last batch that finished.
func (lp *llmPanel) lastRunDir() string {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	return lp.lastDir
}

// Cancel stops the batch in flight; the partial run folder is left unfinished.
func (lp *llmPanel) Cancel() {
	lp.mu.Lock()
	c := lp.cancel
	lp.mu.Unlock()
	if c != nil {
		c()
	}
}

// wait blocks until the test and the batch in flight are done and shown, at most timeout.
// It must not be called on the UI goroutine.
func (lp *llmPanel) wait(timeout time.Duration) error {
	if !lp.jobs.wait(timeout) {
		return fmt.Errorf("LLM panel still working after %v", timeout)
	}
	return nil
}

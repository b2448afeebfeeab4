package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/assets"
	"pcgwb/games/birds"
	"pcgwb/llm"
)

// Preference keys of the prompt runner: the last prompt and settings come back next time.
const (
	prefBirdsPrompt    = "birds_prompt"
	prefBirdsFollowUps = "birds_prompt_follow_ups"
	prefBirdsTeam      = "birds_prompt_team"
	prefBirdsLetters   = "birds_prompt_letters"
	prefBirdsTrials    = "birds_prompt_trials"
	prefBirdsEdition   = "birds_prompt_edition"
)

// streamRefresh is how often, at most, the streamed reply in the level view is redrawn (the
// level is evaluated once typing, or streaming, pauses).
const streamRefresh = 100 * time.Millisecond

// birdsPromptRequest is one ChatGPT4PCG run from the Birds tab: the prompt is sent for every
// letter and trial to the model set on the LLM tab, the answers are saved in the competition's
// layout, and the folder is evaluated and ranked.
type birdsPromptRequest struct {
	// turns are the user messages of a conversation; <OBJECT> is replaced by the letter.
	turns   []string
	team    string
	letters []string
	trials  int
	edition birds.Edition
	// out is the competition folder; empty means OUTPUT/birds-TEAM.
	out string
}

// turnSeparator splits the follow-up editor into turns: a line holding only dashes.
var turnSeparator = regexp.MustCompile(`(?m)^[ \t]*-{3,}[ \t]*$`)

// splitTurns cuts the follow-up text into turns at lines of three or more dashes; blank turns
// are dropped.
func splitTurns(text string) []string {
	var out []string
	for _, t := range turnSeparator.Split(text, -1) {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// birdsPromptForm is the dialog's form; its fields are kept in the preferences as they change.
type birdsPromptForm struct {
	prompt, followUps, team, letters, trials *widget.Entry
	edition                                  *widget.Select
	endpoint                                 *widget.Label
	content                                  fyne.CanvasObject
}

func (p *birdsPanel) newPromptForm() *birdsPromptForm {
	prefs := p.wb.app.Preferences()
	f := &birdsPromptForm{}
	keep := func(e *widget.Entry, key, def string) {
		e.SetText(prefs.StringWithFallback(key, def))
		e.OnChanged = func(s string) { prefs.SetString(key, s) }
	}
	f.prompt = widget.NewMultiLineEntry()
	f.prompt.TextStyle = fyne.TextStyle{Monospace: true}
	f.prompt.Wrapping = fyne.TextWrapWord
	f.prompt.SetMinRowsVisible(12)
	keep(f.prompt, prefBirdsPrompt, assets.BirdsPrompt())
	f.followUps = widget.NewMultiLineEntry()
	f.followUps.Wrapping = fyne.TextWrapWord
	f.followUps.SetMinRowsVisible(2)
	f.followUps.SetPlaceHolder("Optional: more user turns for a multi-turn conversation, sent one after each answer; separate them with a line ---")
	keep(f.followUps, prefBirdsFollowUps, "")
	f.team = widget.NewEntry()
	keep(f.team, prefBirdsTeam, "workbench")
	f.letters = widget.NewEntry()
	keep(f.letters, prefBirdsLetters, "A-Z")
	f.letters.Validator = func(s string) error { _, err := llm.ParseLetters(s); return err }
	f.trials = widget.NewEntry()
	keep(f.trials, prefBirdsTrials, strconv.Itoa(llm.BirdsTrials))
	f.trials.Validator = func(s string) error { _, err := parseTrials(s); return err }
	var names []string
	for _, r := range birds.Editions() {
		names = append(names, r.Name)
	}
	f.edition = widget.NewSelect(names, func(s string) { prefs.SetString(prefBirdsEdition, s) })
	f.edition.SetSelected(prefs.StringWithFallback(prefBirdsEdition, birds.DefaultEdition.Rules().Name))
	f.endpoint = widget.NewLabel(p.endpointSummary())
	f.endpoint.Wrapping = fyne.TextWrapWord

	form := container.NewGridWithColumns(2,
		widget.NewForm(widget.NewFormItem("Team", f.team), widget.NewFormItem("Letters", f.letters)),
		widget.NewForm(widget.NewFormItem("Trials", f.trials), widget.NewFormItem("Rules", f.edition)))
	help := widget.NewLabel("<OBJECT> is replaced by each letter" + quotedUnder() + ". Answers go to " +
		"OUTPUT/birds-TEAM/TEAM/raw/L/TEAM_L_n.txt; trials already answered there are kept, so a cancelled run continues. " +
		"The replies stream into the level editor, replacing what it holds.")
	help.Wrapping = fyne.TextWrapWord
	help.SizeName = theme.SizeNameCaptionText
	f.content = container.NewBorder(
		container.NewVBox(f.endpoint, sectionTitle("PROMPT")), container.NewVBox(sectionTitle("FOLLOW-UP TURNS"), f.followUps, form, help),
		nil, nil, f.prompt)
	return f
}

// quotedUnder is " (quoted, "A", under the 2023 rules)": the editions that quote the letter,
// from the editions table.
func quotedUnder() string {
	var names []string
	for _, r := range birds.Editions() {
		if r.QuoteLetter {
			names = append(names, r.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" (quoted, \"A\", under the %s rules)", strings.Join(names, " and "))
}

func parseTrials(s string) (int, error) { return parseWhole(s, "trials", 1, 100) }

// request reads the form.
func (f *birdsPromptForm) request() (birdsPromptRequest, error) {
	letters, err := llm.ParseLetters(f.letters.Text)
	if err != nil {
		return birdsPromptRequest{}, err
	}
	trials, err := parseTrials(f.trials.Text)
	if err != nil {
		return birdsPromptRequest{}, err
	}
	edition, err := birds.ParseEdition(f.edition.Selected)
	if err != nil {
		return birdsPromptRequest{}, fmt.Errorf("choose the competition rules (%s)", birds.EditionNames())
	}
	turns := append([]string{f.prompt.Text}, splitTurns(f.followUps.Text)...)
	return birdsPromptRequest{turns: turns, team: strings.TrimSpace(f.team.Text), letters: letters, trials: trials,
		edition: edition}, nil
}

// endpointSummary names the model the prompt will be sent to.
func (p *birdsPanel) endpointSummary() string {
	lp := p.wb.llm()
	if lp == nil {
		return "No LLM tab: the prompt cannot be sent."
	}
	cfg, err := lp.config()
	switch {
	case err != nil:
		return "The LLM tab's settings are not valid: " + err.Error()
	case cfg.Model == "":
		return "Set the endpoint and model on the LLM tab first (and press Test there)."
	}
	url := cfg.BaseURL
	if url == "" {
		url = llm.DefaultBaseURL
	}
	return fmt.Sprintf("Model %s at %s (set on the LLM tab).", cfg.Model, url)
}

func (p *birdsPanel) showPromptDialog() {
	f := p.newPromptForm()
	var d dialog.Dialog
	d = dialog.NewCustomConfirm("Run a ChatGPT4PCG prompt", "Run", "Close", f.content, func(run bool) {
		if !run {
			return
		}
		req, err := f.request()
		if err == nil {
			err = p.runPrompt(req)
		}
		if err != nil {
			dialog.ShowError(err, p.wb.Window)
		}
	}, p.wb.Window)
	d.Resize(fyne.NewSize(940, 680))
	d.Show()
}

// runPrompt checks the request, then (in the background) asks the LLM tab's model for every
// letter and trial, shows answers in the level view as they arrive, evaluates the folder with
// every stage of the pipeline and shows the ranking. Errors found before anything is asked
// are returned; later ones are shown in the progress line. Call it on the UI goroutine.
func (p *birdsPanel) runPrompt(req birdsPromptRequest) error {
	if p.folder.busy() {
		return errors.New("the Birds tab is still working: cancel it or wait")
	}
	lp := p.wb.llm()
	if lp == nil {
		return errors.New("the LLM tab is not available: there is no endpoint to ask")
	}
	cfg, err := lp.config()
	if err != nil {
		return err
	}
	if cfg.Model == "" {
		return errors.New("set the endpoint and model on the LLM tab first")
	}
	if req.edition == 0 {
		req.edition = birds.DefaultEdition
	}
	rules, ok := req.edition.Lookup()
	if !ok {
		return fmt.Errorf("unknown competition rules %d (%s)", req.edition, birds.EditionNames())
	}
	out := req.out
	if out == "" {
		out = filepath.Join(p.wb.outputDir(), "birds-"+req.team)
	}
	opts := llm.BirdsOptions{Team: req.team, Turns: req.turns, Letters: req.letters, Trials: req.trials,
		QuoteLetter: rules.QuoteLetter, Out: out, TokenLimit: llm.BirdsTokenLimit, TimeLimit: llm.BirdsTimeLimit}
	if opts.Letters == nil {
		opts.Letters = llm.AllLetters()
	}
	if opts.Trials <= 0 {
		opts.Trials = llm.BirdsTrials
	}
	if err := opts.Validate(); err != nil {
		return err
	}
	cfg.CacheDir = filepath.Join(p.wb.outputDir(), llmCacheDir)
	client, err := llm.New(cfg)
	if err != nil {
		return err
	}
	total := len(opts.Letters) * opts.Trials
	classifier := p.classifier()
	p.progressLabel.SetText(fmt.Sprintf("Asking %s for %d answers (%d letters × %d trials) into %s…",
		cfg.Model, total, len(opts.Letters), opts.Trials, out))
	p.startFolderJob(func(ctx context.Context) func() {
		follow := &replyFollower{show: func(text string) { p.wb.ui.onUI(func() { p.program.SetText(text) }) }}
		opts.OnDelta = follow.delta
		progress := p.trialProgress(cfg.Model, total)
		opts.OnTrial = func(r llm.TrialResult) {
			follow.ended(r)
			progress(r)
		}
		rep, err := llm.RunBirdsPrompts(ctx, client, opts)
		if err != nil {
			if errors.Is(err, llm.ErrOfflineMiss) {
				err = fmt.Errorf("%w (the model was not asked)", err)
			}
			return func() { p.progressLabel.SetText("Prompt run failed: " + err.Error()) }
		}
		tot := client.Totals()
		lead := fmt.Sprintf("%s: %d answers written, %d kept from before, %d trials saved nothing; %d requests (%d cached), %d tokens",
			rep.Team, rep.Written, rep.Skipped, rep.Failed, tot.Requests, tot.CacheHits, tot.Usage.TotalTokens)
		// Trials are scored as run: a 2-trial run averages over 2, not the competition's 10.
		eval, err := birds.Evaluate(ctx, out, birds.Options{Edition: req.edition, Classifier: classifier,
			TrialsPerLetter: req.trials, Progress: p.stageProgress(req.team + ": ")})
		return func() {
			p.showReport(out, eval, err, classifier, lead)
			if err == nil {
				p.team.SetSelected(req.team)
			}
		}
	})
	return nil
}

// trialProgress reports asked trials in the progress bar. RunBirdsPrompts serialises the calls.
func (p *birdsPanel) trialProgress(model string, total int) func(llm.TrialResult) {
	done, failed := 0, 0
	return func(r llm.TrialResult) {
		done++
		if r.Error != "" {
			failed++
		}
		label := fmt.Sprintf("asking %s: %d of %d trials", model, done, total)
		if failed > 0 {
			label += fmt.Sprintf(" (%d saved nothing)", failed)
		}
		frac := float64(done) / float64(max(total, 1))
		p.wb.ui.onUI(func() {
			p.progress.SetValue(frac)
			p.progressLabel.SetText(label)
		})
	}
}

// replyFollower shows one trial's reply as it streams: it follows a trial until that trial
// ends, then the next one that streams. It keeps the text of every trial in flight, so a trial
// followed from the middle of its reply is shown from the start. Deltas come from the trials'
// goroutines at once; one trial's deltas and its end come from one goroutine, in order.
type replyFollower struct {
	show func(text string) // draws the followed reply; called without the lock

	mu        sync.Mutex
	followed  string
	texts     map[string]*streamedTurn
	lastShown time.Time
}

// streamedTurn is a trial's current turn as received so far.
type streamedTurn struct {
	turn, attempt int
	text          strings.Builder
}

func trialKey(letter string, trial int) string { return fmt.Sprintf("%s/%d", letter, trial) }

func (f *replyFollower) delta(d llm.BirdsDelta) {
	k := trialKey(d.Letter, d.Trial)
	f.mu.Lock()
	if f.texts == nil {
		f.texts = map[string]*streamedTurn{}
	}
	st := f.texts[k]
	if st == nil || st.turn != d.Turn || st.attempt != d.Attempt {
		st = &streamedTurn{turn: d.Turn, attempt: d.Attempt} // a new turn, or a retry starting over
		f.texts[k] = st
	}
	st.text.WriteString(d.Text)
	if f.followed == "" {
		f.followed = k
	}
	text, due := "", f.followed == k && time.Since(f.lastShown) >= streamRefresh
	if due {
		text, f.lastShown = st.text.String(), time.Now()
	}
	f.mu.Unlock()
	if due {
		f.show(text)
	}
}

// ended shows the followed trial's whole last reply and lets the next trial be followed.
func (f *replyFollower) ended(r llm.TrialResult) {
	k := trialKey(r.Letter, r.Trial)
	f.mu.Lock()
	st, followed := f.texts[k], f.followed == k
	delete(f.texts, k)
	f.mu.Unlock()
	if followed && st != nil {
		f.show(st.text.String())
	}
	if followed {
		f.mu.Lock()
		f.followed = ""
		f.mu.Unlock()
	}
}

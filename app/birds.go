package app

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	fynecanvas "fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/birds"
	"pcgwb/games/birds/classifier/vit"
	"pcgwb/internal/safeio"
)

// birdsDebounce is how long typing must pause before the level is evaluated again.
const birdsDebounce = 300 * time.Millisecond

// birdsPanel is the Science Birds tab: a drop_block program (or level XML) evaluated as it is
// typed — the evaluator's image, the stability and the classifier's top letters — an Animate
// button that opens the physics in a window, and a whole competition folder evaluated with a
// progress bar and its ranking.
type birdsPanel struct {
	wb *Workbench

	program   *widget.Entry
	image     *fynecanvas.Image
	stability *widget.Label
	letters   *widget.Label
	problem   *widget.Label // errors of the program, inline

	openButton, animateButton, evaluateButton, promptButton, cancelButton *widget.Button

	progress      *widget.ProgressBar
	progressLabel *widget.Label
	Ranking       *widget.Table
	// team picks whose per-letter results the chart shows and whose trials TrialList lists;
	// a trial opens its level in the level view.
	team      *widget.Select
	chart     *fynecanvas.Image
	trialList *widget.List

	// classifier gives the letter classifier: Options.BirdsClassifier, or Unavailable.
	classifier func() birds.Classifier

	eval, folder latest
	mu           sync.Mutex
	timer        *time.Timer
	closed       bool // the window closed: typing starts no evaluation (Cancel)
	ranking      [][4]string
	characters   []birds.CharacterScore
	resultDir    string        // the folder the results come from
	scores       *birds.Scores // its scores
	trials       []birds.TrialView
	content      fyne.CanvasObject
}

// newBirdsPanel builds the tab.
func newBirdsPanel(wb *Workbench) *birdsPanel {
	p := &birdsPanel{wb: wb, eval: latest{ui: wb.ui}, folder: latest{ui: wb.ui}, classifier: func() birds.Classifier {
		if c := wb.opts.BirdsClassifier; c != nil {
			return c
		}
		return birds.Unavailable{}
	}}
	p.program = widget.NewMultiLineEntry()
	p.program.TextStyle = fyne.TextStyle{Monospace: true}
	p.program.SetPlaceHolder("drop_block('b31', 10)\ndrop_block('b13', 9)\n…\n\nType or paste a drop_block program, an answer with a ``` block, or a level XML.")
	p.program.OnChanged = p.changed

	p.image = fynecanvas.NewImageFromImage(blankBirdsImage())
	p.image.FillMode = fynecanvas.ImageFillContain
	p.image.ScaleMode = fynecanvas.ImageScaleSmooth
	p.image.SetMinSize(fyne.NewSize(260, 260))
	p.stability = widget.NewLabel("Stability: –")
	p.letters = widget.NewLabel("Letters: –")
	p.letters.Wrapping = fyne.TextWrapWord
	p.problem = widget.NewLabel("")
	p.problem.Wrapping = fyne.TextWrapWord
	p.problem.Importance = widget.DangerImportance

	p.openButton = widget.NewButtonWithIcon("Open level…", theme.FolderOpenIcon(), p.showOpenLevel)
	p.animateButton = widget.NewButtonWithIcon("Animate", theme.MediaPlayIcon(), p.animate)
	p.animateButton.Disable()
	p.evaluateButton = widget.NewButtonWithIcon("Evaluate folder…", theme.FolderIcon(), p.showEvaluateFolder)
	p.promptButton = widget.NewButtonWithIcon("Run prompt…", theme.MailComposeIcon(), p.showPromptDialog)
	p.cancelButton = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() {
		p.folder.Cancel()
		p.progressLabel.SetText("Cancelled.")
	})
	p.cancelButton.Disable()
	p.progress = widget.NewProgressBar()
	p.progressLabel = widget.NewLabel("Evaluate a competition folder (TEAM/raw/L/TEAM_L_n.txt), or run a prompt on the LLM tab's model: every stage, then the ranking.")
	// One line: a wrapped label grows over the ranking table when the tab is narrow.
	p.progressLabel.Truncation = fyne.TextTruncateEllipsis
	p.Ranking = widget.NewTable(
		func() (int, int) { return len(p.ranking) + 1, 4 },
		func() fyne.CanvasObject { return widget.NewLabel("normalized score 00.0000 %") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			if id.Row == 0 {
				l.TextStyle.Bold = true
				l.SetText([...]string{"Rank", "Team", "Normalized score", "Prompt score"}[id.Col])
				return
			}
			l.TextStyle.Bold = false
			l.SetText(p.ranking[id.Row-1][id.Col])
		})
	p.Ranking.OnSelected = func(id widget.TableCellID) {
		if id.Row > 0 && id.Row <= len(p.ranking) {
			p.team.SetSelected(p.ranking[id.Row-1][1])
		}
	}
	p.chart = fynecanvas.NewImageFromImage(letterChart(nil, ""))
	p.chart.FillMode = fynecanvas.ImageFillContain
	p.chart.SetMinSize(fyne.NewSize(400, 120))
	p.trialList = p.newTrialList()
	p.team = widget.NewSelect(nil, func(team string) {
		p.chart.Image = letterChart(p.characters, team)
		p.chart.Refresh()
		p.showTeamTrials(team)
	})
	p.team.PlaceHolder = "Team (per-letter results)"
	p.Ranking.SetColumnWidth(0, 60)
	p.Ranking.SetColumnWidth(1, 170)
	p.Ranking.SetColumnWidth(2, 130)
	p.Ranking.SetColumnWidth(3, 130)

	left := container.NewBorder(
		container.NewHBox(p.openButton, p.animateButton), p.problem, nil, nil, p.program)
	right := container.NewBorder(nil, container.NewVBox(p.stability, p.letters), nil, nil, p.image)
	level := container.NewHSplit(left, right)
	level.SetOffset(0.45)
	chart := followTheme(p.chart, func() image.Image { return letterChart(p.characters, p.team.Selected) })
	chartAndTrials := container.NewVSplit(chart, p.trialList)
	results := container.NewHSplit(p.Ranking, container.NewBorder(p.team, nil, nil, nil, chartAndTrials))
	results.SetOffset(0.45)
	folder := container.NewBorder(
		container.NewVBox(container.NewHBox(p.evaluateButton, p.promptButton, p.cancelButton), p.progress, p.progressLabel),
		nil, nil, nil, results)
	split := container.NewVSplit(level, folder)
	split.SetOffset(0.58)
	p.content = split
	return p
}

// Content is the tab's content.
func (p *birdsPanel) Content() fyne.CanvasObject { return p.content }

func blankBirdsImage() image.Image {
	img := image.NewGray(image.Rect(0, 0, 64, 64))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	return img
}

// changed restarts the debounce: the level is evaluated once typing pauses.
func (p *birdsPanel) changed(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.timer != nil {
		p.timer.Stop()
	}
	if p.closed {
		return
	}
	p.timer = time.AfterFunc(birdsDebounce, func() {
		p.mu.Lock()
		closed := p.closed
		p.mu.Unlock()
		if !closed {
			p.evaluate(text)
		}
	})
}

// Cancel stops the panel's work when its window closes: the typing debounce (a closed
// window's timer used to fire later and start an evaluation that drew on the gone window),
// the evaluation and the folder run.
func (p *birdsPanel) Cancel() {
	p.mu.Lock()
	p.closed = true
	if p.timer != nil {
		p.timer.Stop()
	}
	p.mu.Unlock()
	p.eval.Cancel()
	p.folder.Cancel()
}

// birdsLevelResult is what one evaluation of the typed text found.
type birdsLevelResult struct {
	source     string
	result     *birds.Result
	image      image.Image
	letters    string
	err        error
	empty      bool
	classifier string
}

// evaluate runs the level off the UI goroutine; only the newest text's result is shown.
func (p *birdsPanel) evaluate(text string) {
	classifier := p.classifier
	p.eval.Go(func(ctx context.Context) func() {
		r := evaluateBirdsText(ctx, text, classifier)
		return func() { p.show(r) }
	})
}

// evaluateBirdsText evaluates the typed text by the core's one single-level flow
// (birds.EvaluateLevel, which `workbench birds level` calls too) and formats it for the tab.
func evaluateBirdsText(ctx context.Context, text string, classifier func() birds.Classifier) birdsLevelResult {
	if strings.TrimSpace(text) == "" {
		return birdsLevelResult{empty: true}
	}
	c := classifier()
	ev, err := birds.EvaluateLevel(ctx, []byte(text), birds.LevelOptions{Classifier: c})
	if err != nil {
		r := birdsLevelResult{err: err}
		if ev != nil {
			r.source = ev.Source
		}
		return r
	}
	r := birdsLevelResult{source: ev.Source, result: ev.Result, image: ev.Mask.Gray()}
	switch {
	case ev.Classification != nil:
		r.letters = "Letters: " + topLetters(ev.Classification, 5) + " — " + classifierLabel(c)
	case errors.Is(ev.SimilarityErr, birds.ErrClassifierUnavailable):
		r.letters = "Letters: no classifier available (similarity cannot be computed)"
	default:
		r.letters = "Letters: " + ev.SimilarityErr.Error()
	}
	return r
}

// classifierLabel names the classifier, saying so when it is the project's proxy and not the
// competition's ViT.
func classifierLabel(c birds.Classifier) string {
	name := c.Name()
	if strings.Contains(strings.ToLower(name), "proxy") {
		return name
	}
	switch c.(type) {
	case *birds.CommandClassifier, *birds.HTTPClassifier, *vit.Classifier:
		return name
	}
	return "proxy " + name + ", not the competition's ViT"
}

// topLetters formats the n most probable letters, "A 0.812 · H 0.104 · …".
func topLetters(cl *birds.Classification, n int) string {
	var parts []string
	for _, l := range cl.TopLetters(n) {
		parts = append(parts, fmt.Sprintf("%s %.3f", l.Letter, l.Probability))
	}
	return strings.Join(parts, " · ")
}

func (p *birdsPanel) show(r birdsLevelResult) {
	switch {
	case r.empty:
		p.problem.SetText("")
		p.stability.SetText("Stability: –")
		p.letters.SetText("Letters: –")
		p.image.Image = blankBirdsImage()
		p.animateButton.Disable()
	case r.result == nil:
		p.problem.SetText(r.err.Error())
		p.stability.SetText("Stability: –")
		p.letters.SetText("Letters: –")
		p.image.Image = blankBirdsImage()
		p.animateButton.Disable()
	default:
		p.problem.SetText("")
		res := r.result
		p.stability.SetText(fmt.Sprintf("Stability: %.4f — %d of %d blocks moved ≥ %.1f (legacy %.4f) · %s",
			res.Score, res.Moving, res.Total, birds.MovementThreshold, res.Legacy, r.source))
		p.letters.SetText(r.letters)
		p.image.Image = r.image
		p.animateButton.Enable()
	}
	p.image.Refresh()
}

// wait blocks until the level evaluation and the folder run in flight are done and shown.
// It must not be called on the UI goroutine.
func (p *birdsPanel) wait(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	if err := p.eval.wait(timeout); err != nil {
		return err
	}
	return p.folder.wait(time.Until(deadline))
}

// maxBirdsLevelFile bounds a level file opened in the panel.
const maxBirdsLevelFile = 1 << 20

func (p *birdsPanel) showOpenLevel() {
	p.wb.pickFile("Open a drop_block program or level", "Open", "", nil, func(path string) {
		if err := p.openProgramFile(path); err != nil {
			dialog.ShowError(err, p.wb.Window)
		}
	})
}

// openProgramFile puts a program or level file into the editor. The file is hostile: at most
// maxBirdsLevelFile bytes, and no device or pipe (safeio refuses them before reading).
func (p *birdsPanel) openProgramFile(path string) error {
	data, err := safeio.ReadFile(path, maxBirdsLevelFile)
	if err != nil {
		return err
	}
	p.program.SetText(string(data))
	return nil
}

func (p *birdsPanel) animate() {
	text := p.program.Text
	go func() {
		if err := LaunchBirdsAnimate(context.Background(), text); err != nil {
			fyne.Do(func() { dialog.ShowError(err, p.wb.Window) })
		}
	}()
}

// tips are the Birds tab's tooltips (buildTabs hands them to tipAll; the texts several tabs
// share are in widget_tips.go).
func (p *birdsPanel) tips() map[fyne.CanvasObject]string {
	return map[fyne.CanvasObject]string{
		p.openButton:     "Open a Science Birds level (XML) or a letter program.",
		p.animateButton:  "Drop the level's blocks and watch whether the structure stands.",
		p.evaluateButton: "Score a competition folder: stability, similarity to the letter and the ranking.",
		p.promptButton:   "Ask a language model to write a letter's structure and score it.",
		p.cancelButton:   "Stop the evaluation or prompt run.",
		p.team:           "Show one team's per-letter stability, similarity and score.",
	}
}

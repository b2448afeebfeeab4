package app

// The LLM tab's feedback on a finished batch: how many answers the cache gave (and Ask again
// for those), the whole text of a failure, and the gallery's failure state.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/llm"
)

// llmFeedback counts where a batch's levels came from. Only the UI goroutine touches it.
type llmFeedback struct {
	levels, cached int             // final replies, and those answered by the cache
	keys           map[string]bool // cache keys of every cached reply (any turn)
}

// reply notes one reply of the batch.
func (f *llmFeedback) reply(ev llm.ReplyEvent) {
	if ev.Cached && ev.Key != "" {
		f.keys[ev.Key] = true
	}
	if ev.Final {
		f.levels++
		if ev.Cached {
			f.cached++
		}
	}
}

// note is the status's mention of the cache ("" when nothing came from it).
func (f llmFeedback) note() string {
	if f.cached == 0 {
		return ""
	}
	return fmt.Sprintf(" · %d of %d from cache", f.cached, f.levels)
}

// setupFeedback makes Ask again and Error details (both hidden until a batch needs them).
func (lp *llmPanel) setupFeedback() {
	lp.askAgainButton = widget.NewButtonWithIcon("Ask again", theme.ViewRefreshIcon(), lp.askAgain)
	lp.askAgainButton.Hide()
	lp.errorButton = widget.NewButtonWithIcon("Error details…", theme.ErrorIcon(), func() { lp.showError() })
	lp.errorButton.Importance = widget.DangerImportance
	lp.errorButton.Hide()
}

// clearFeedback forgets the last batch's (a new one starts).
func (lp *llmPanel) clearFeedback() {
	lp.feedback, lp.lastErr = llmFeedback{}, ""
	lp.askAgainButton.Hide()
	lp.errorButton.Hide()
}

// showFeedback shows what the finished batch needs: Ask again when answers came from the
// cache, Error details and the gallery's failure state when it failed (shown thumbs it has).
func (lp *llmPanel) showFeedback(f llmFeedback, err error, shown int) {
	lp.feedback = f
	if len(f.keys) > 0 {
		lp.askAgainButton.SetText(fmt.Sprintf("Ask again (%d)", len(f.keys)))
		lp.askAgainButton.Show()
	}
	if err == nil {
		return
	}
	lp.lastErr = err.Error()
	if !isCancel(err) {
		lp.errorButton.Show()
	}
	if shown == 0 {
		lp.gallery.ShowMessage(galleryFailure(err))
	}
}

// isCancel reports whether err is a cancellation (Cancel, or the window closing).
func isCancel(err error) bool { return errors.Is(err, context.Canceled) }

// galleryFailure is what an empty gallery says after a batch that stopped: the first line of
// the error (Error details has all of it).
func galleryFailure(err error) string {
	if isCancel(err) {
		return "Cancelled before the first reply."
	}
	first, _, more := strings.Cut(err.Error(), "\n")
	if more {
		first += " …"
	}
	return "No level: the batch failed. " + first + "\n(Error details… shows the whole message.)"
}

// askAgain runs the last batch again, asking the server anew for the replies that came from
// the cache (the new answers replace the cached ones); the other requests replay.
func (lp *llmPanel) askAgain() {
	if len(lp.feedback.keys) == 0 || lp.busy() {
		return
	}
	lp.generate(lp.feedback.keys)
}

// showError opens the last failure's whole text, selectable, with a Copy button; it returns
// the dialog and the text's entry.
func (lp *llmPanel) showError() (*dialog.CustomDialog, *widget.Entry) {
	return lp.wb.showErrorDetails("The batch failed", lp.lastErr)
}

// showErrorDetails opens an error's whole text, selectable and read-only, with a Copy button
// (the status lines show only an excerpt); it returns the dialog and the text's entry. Every
// "Error details…" of the workbench goes through here.
func (wb *Workbench) showErrorDetails(title, message string) (*dialog.CustomDialog, *widget.Entry) {
	text := widget.NewMultiLineEntry()
	text.SetText(message)
	text.Wrapping = fyne.TextWrapWord
	text.TextStyle = fyne.TextStyle{Monospace: true}
	text.OnChanged = func(string) { text.SetText(message) } // read-only, but selectable
	text.SetMinRowsVisible(8)
	copyButton := widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
		fyne.CurrentApp().Clipboard().SetContent(message)
	})
	body := container.NewBorder(nil, container.NewHBox(copyButton), nil, nil, text)
	d := dialog.NewCustom(title, "Close", body, wb.Window)
	d.Resize(fyne.NewSize(min(wb.Window.Canvas().Size().Width-40, 720), 360))
	d.Show()
	return d, text
}

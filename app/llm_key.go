package app

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/llm"
)

// openKeyStore opens where the GUI keeps the API key: the OS keyring, or memory when there is
// none. Tests replace the keyring with go-keyring's mock.
var openKeyStore = llm.NewKeyStore

// setupKey builds the key entry, its status line, the insecure-http box and the re-ask box. Earlier versions
// wrote the key into the Fyne preferences file: a key found there is moved to the store and
// deleted from the preferences at once.
func (lp *llmPanel) setupKey(prefs fyne.Preferences) {
	lp.keys = openKeyStore()
	if old := strings.TrimSpace(prefs.String(prefLLMKey)); old != "" {
		if lp.keys.Key() == "" {
			_ = lp.keys.Set(old) // a failing keyring keeps it in memory; Status says so
		}
	}
	prefs.RemoveValue(prefLLMKey)
	lp.apiKey = widget.NewPasswordEntry()
	lp.apiKey.SetPlaceHolder("empty: $" + llm.DefaultKeyEnv + " (local servers need none)")
	lp.apiKey.SetText(lp.keys.Key())
	lp.apiKey.OnSubmitted = func(string) { lp.saveKey() }
	lp.keyStatus = widget.NewLabel(lp.keys.Status())
	lp.keyStatus.Wrapping = fyne.TextWrapWord
	lp.keyStatus.SizeName = theme.SizeNameCaptionText
	lp.allowInsecure = widget.NewCheck("Allow plain http to another machine", nil)
	lp.reaskInvalid = widget.NewCheck("Re-ask invalid cached replies", nil)
}

// saveKey keeps the entry's key in the store (called when the key is used or submitted, not
// on every keystroke) and shows where it is kept.
func (lp *llmPanel) saveKey() string {
	key := strings.TrimSpace(lp.apiKey.Text)
	if err := lp.keys.Set(key); err != nil {
		fyne.LogError("API key", err)
	}
	lp.keyStatus.SetText(lp.keys.Status())
	return key
}

// tips are the LLM tab's tooltips (buildTabs hands them to tipAll; the texts several tabs
// share are in widget_tips.go).
func (lp *llmPanel) tips() map[fyne.CanvasObject]string {
	return map[fyne.CanvasObject]string{
		lp.offline:        "Answer every request from the response cache only (no network); a request not recorded fails.",
		lp.allowInsecure:  "Allow a plain http:// endpoint on another machine; the API key is then sent unencrypted.",
		lp.reaskInvalid:   "When a cached reply fails validation, ask the server again instead of reusing it.",
		lp.testButton:     "Send one short request to check the endpoint, model and key.",
		lp.resetButton:    "Put back the problem's original prompt template.",
		lp.templateHelp:   "Open or fold the list of variables the prompt template may use.",
		lp.examplesFrom:   "Where the example levels in the prompt come from: the built-in set or a finished run loaded in Compare.",
		lp.control:        "Put a random control target (for example a path length) into each level's prompt, so controllability can be scored.",
		lp.generateButton: "Ask the model for the levels, one request per level, and score them as a run folder.",
		lp.cancelButton:   "Stop asking; the replies received so far are kept.",
		lp.compareButton:  "Show the finished batch in Compare, next to the other runs.",
		lp.askAgainButton: "Ask the model again for the replies that came from the cache (the new answers replace the cached ones; the others replay).",
		lp.errorButton:    "Show the whole error message of the failed batch, to read or copy.",
		lp.count:          "How many levels to ask for, one request each.",
		lp.seed:           tipSeed + " It picks the examples and control targets; the model's own randomness is the temperature's.",
		lp.examples:       "How many example levels each prompt shows the model (k).",
		lp.temperature:    "The model's sampling temperature: 0 is the most predictable, higher is more varied; empty uses the server's default.",
	}
}

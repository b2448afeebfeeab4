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

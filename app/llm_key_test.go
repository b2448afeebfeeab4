package app

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/zalando/go-keyring"
)

func init() {
	// No app test touches the developer's real keyring.
	keyring.MockInit()
}

func TestLLMKeyLeavesThePreferences(t *testing.T) {
	for _, tc := range []struct {
		name       string
		keyringErr error
		wantStatus string
	}{
		{"keyring", nil, "OS keyring"},
		{"no keyring", errors.New("no secret service here"), "kept in memory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.keyringErr != nil {
				keyring.MockInitWithError(tc.keyringErr)
			} else {
				keyring.MockInit()
			}
			defer keyring.MockInit()
			a := test.NewTempApp(t)
			prefs := a.Preferences()
			prefs.SetString(prefLLMKey, "sk-old-plaintext")
			lp := &llmPanel{}
			lp.setupKey(prefs)
			if got := prefs.String(prefLLMKey); got != "" {
				t.Fatalf("the old key stays in the preferences: %q", got)
			}
			if lp.apiKey.Text != "sk-old-plaintext" {
				t.Errorf("the old key was lost: entry %q", lp.apiKey.Text)
			}
			if !strings.Contains(lp.keyStatus.Text, tc.wantStatus) {
				t.Errorf("status %q, want %q", lp.keyStatus.Text, tc.wantStatus)
			}
			lp.apiKey.SetText("sk-new")
			if got := lp.saveKey(); got != "sk-new" {
				t.Errorf("saveKey %q", got)
			}
			if got := prefs.String(prefLLMKey); got != "" {
				t.Errorf("typing the key wrote it to the preferences: %q", got)
			}
			v, err := keyring.Get("pcg-workbench", "llm-api-key")
			if tc.keyringErr == nil && (err != nil || v != "sk-new") {
				t.Errorf("keyring holds %q, %v", v, err)
			}
			if lp.keys.Key() != "sk-new" {
				t.Errorf("the store holds %q", lp.keys.Key())
			}
		})
	}
}

func TestLLMInsecureBaseURLNeedsTheBox(t *testing.T) {
	wb := newTestWorkbench(t)
	lp := wb.llm()
	lp.baseURL.SetText("http://example.test/v1")
	lp.model.SetText("m")
	cfg, err := lp.config()
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Check(); err == nil || !strings.Contains(err.Error(), "clear") {
		t.Fatalf("plain http to another host accepted: %v", err)
	}
	lp.allowInsecure.SetChecked(true)
	if cfg, _ = lp.config(); cfg.Check() != nil {
		t.Fatalf("the box does not allow it: %v", cfg.Check())
	}
}

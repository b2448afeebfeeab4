package app

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"pcgwb/games/birds"
	"pcgwb/games/birds/classifier/vit"
	"pcgwb/internal/testshared"
)

// The Birds tab's classifier is the one Options.BirdsClassifier passes in; without one the tab
// says there is none (nothing registers itself behind the app's back).
func TestBirdsPanelClassifierComesFromOptions(t *testing.T) {
	// Each part builds its own workbench (one at a time: a test workbench holds the UI).
	t.Run("none", func(t *testing.T) {
		wb := newTestWorkbench(t, Options{Problem: fakeName})
		if _, none := newBirdsPanel(wb).classifier().(birds.Unavailable); !none {
			t.Fatal("without Options.BirdsClassifier the tab has a classifier")
		}
	})
	t.Run("given", func(t *testing.T) {
		wb := newTestWorkbench(t, Options{Problem: fakeName, BirdsClassifier: fixedLetterClassifier{'I'}})
		p := newBirdsPanel(wb)
		w := test.NewWindow(p.Content())
		w.Resize(fyne.NewSize(1200, 800))
		t.Cleanup(w.Close)
		p.program.SetText("drop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n")
		eventually(t, "the letters", func() bool { return strings.Contains(p.letters.Text, "I 0.800") })
		if !strings.Contains(p.letters.Text, "test proxy") {
			t.Fatalf("letters %q do not name the classifier", p.letters.Text)
		}
	})
}

// The native ViT is named as itself, not labelled a proxy.
func TestBirdsClassifierLabelNativeViT(t *testing.T) {
	c, err := vit.Open(filepath.Join(testshared.Dir(t, "science-birds", "vit"), "model"))
	if err != nil {
		t.Fatal(err)
	}
	if got := classifierLabel(c); !strings.HasPrefix(got, "ViT (native Go") || strings.Contains(got, "proxy") {
		t.Fatalf("label %q", got)
	}
}

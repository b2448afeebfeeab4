package app

import (
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"pcgwb/llm/llmtest"
)

// A batch answered from the cache says so ("3 of 3 from cache") and offers Ask again, which
// asks the server anew for exactly those replies; a fresh batch says nothing of the cache.
func TestLLMSaysWhatCameFromTheCacheAndAsksAgain(t *testing.T) {
	var n atomic.Int64
	srv := llmtest.New(func(llmtest.Call, int) llmtest.Reply {
		return llmtest.Reply{Content: roomsReply(int(n.Add(1)))}
	})
	defer srv.Close()
	wb, lp := newLLMTestPanel(t, srv)
	wb.outputDirOverride = t.TempDir()
	lp.count.SetText("3")
	lp.seed.SetText("9")
	steps := []struct {
		name      string
		press     func()
		calls     int
		note      string // "" : the status must not mention the cache
		askAgain  bool
		askedKeys int
	}{
		{"first batch asks the server", func() { test.Tap(lp.generateButton) }, 3, "", false, 0},
		{"the same batch replays the cache", func() { test.Tap(lp.generateButton) }, 3, "3 of 3 from cache", true, 3},
		{"Ask again asks those three anew", func() { test.Tap(lp.askAgainButton) }, 6, "", false, 0},
		{"the new answers are cached", func() { test.Tap(lp.generateButton) }, 6, "3 of 3 from cache", true, 3},
	}
	for _, st := range steps {
		st.press()
		waitLLM(t, lp)
		await(t, wb.compare.wait)
		status := lp.status.Text
		switch {
		case len(srv.Calls()) != st.calls:
			t.Fatalf("%s: %d calls, want %d (status %q)", st.name, len(srv.Calls()), st.calls, status)
		case st.note != "" && !strings.Contains(status, st.note):
			t.Fatalf("%s: status %q lacks %q", st.name, status, st.note)
		case st.note == "" && strings.Contains(status, "from cache"):
			t.Fatalf("%s: status %q mentions the cache", st.name, status)
		case lp.askAgainButton.Visible() != st.askAgain || len(lp.feedback.keys) != st.askedKeys:
			t.Fatalf("%s: Ask again shown %v for %d keys", st.name, lp.askAgainButton.Visible(), len(lp.feedback.keys))
		case lp.errorButton.Visible():
			t.Fatalf("%s: an error button after a good batch", st.name)
		case lp.gallery.Len() != 3:
			t.Fatalf("%s: %d levels shown", st.name, lp.gallery.Len())
		}
	}
}

// A failed batch shows its failure in the gallery (not "Waiting for the first reply…") and its
// whole error text, selectable and copyable, behind Error details.
func TestLLMFailureIsShownInFull(t *testing.T) {
	srv := llmtest.New(func(llmtest.Call, int) llmtest.Reply { return llmtest.Reply{Status: 400} })
	defer srv.Close()
	wb, lp := newLLMTestPanel(t, srv)
	wb.outputDirOverride = t.TempDir()
	lp.count.SetText("2")
	test.Tap(lp.generateButton)
	waitLLM(t, lp)
	msg := lp.gallery.Message()
	if !strings.Contains(lp.status.Text, "Generation failed") || lp.lastErr == "" {
		t.Fatalf("status %q, error %q", lp.status.Text, lp.lastErr)
	}
	if strings.Contains(msg, "Waiting") || !strings.Contains(msg, "failed") {
		t.Fatalf("the gallery says %q", msg)
	}
	if !lp.errorButton.Visible() || lp.askAgainButton.Visible() {
		t.Fatal("Error details is not offered (or Ask again is, with nothing cached)")
	}
	d, text := lp.showError()
	defer d.Hide()
	if text.Text != lp.lastErr || !strings.Contains(text.Text, "scripted failure 400") {
		t.Fatalf("the error dialog does not hold the server's message: error %q", lp.lastErr)
	}
	wb.app.Clipboard().SetContent("")
	test.Tap(findButton(t, wb.Window.Canvas().Overlays().Top(), "Copy"))
	if got := wb.app.Clipboard().Content(); got != lp.lastErr || strings.Contains(got, llmTestKey) {
		t.Fatalf("copied %q, want the whole error %q (without the key)", got, lp.lastErr)
	}
	if galleryFailure(errString("a\nb")) != "No level: the batch failed. a …\n(Error details… shows the whole message.)" {
		t.Fatal("the gallery's failure text is not the first line")
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// findButton is the button labelled text in the tree under root.
func findButton(t *testing.T, root fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	var found *widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			found = b
		}
		switch v := o.(type) {
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(v).Objects() {
				walk(c)
			}
		}
	}
	walk(root)
	if found == nil {
		t.Fatalf("no %q button", text)
	}
	return found
}

package llm

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"pcgwb/llm/llmtest"
)

// splitsKey reports whether cutting content in three as the fake server streams it (rune
// counts, ASCII here) leaves the key whole in none of the pieces.
func splitsKey(content string) bool {
	n := len(content)
	for i := 0; i < 3; i++ {
		if strings.Contains(content[i*n/3:(i+1)*n/3], testKey) {
			return false
		}
	}
	return true
}

// A streamed reply that echoes the key, split across the stream's pieces, reaches the stream
// callback redacted, and so does the text of an attempt cut short before its retry.
func TestStreamedReplyIsRedactedAcrossDeltas(t *testing.T) {
	content := "level: " + strings.Repeat("a", 18) + testKey + strings.Repeat("b", 3) + testKey + " end"
	if !splitsKey(content) {
		t.Fatalf("the test reply does not split the key across the stream's pieces")
	}
	srv := llmtest.New(llmtest.Script(llmtest.Reply{Content: content, Truncate: true}, llmtest.Reply{Content: content}))
	defer srv.Close()
	cfg := testConfig(srv, t.TempDir())
	c := newTestClient(t, cfg)
	byAttempt := map[int]*strings.Builder{}
	resp, err := c.ChatStream(context.Background(), userReq("hello"), func(attempt int, d string) {
		if byAttempt[attempt] == nil {
			byAttempt[attempt] = &strings.Builder{}
		}
		byAttempt[attempt].WriteString(d)
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Attempts != 2 {
		t.Fatalf("%d attempts, want the truncated one and its retry", resp.Attempts)
	}
	// The cut-short attempt ended inside the first key: what it held back is never shown.
	for a, sb := range byAttempt {
		if strings.Contains(sb.String(), testKey[:len(testKey)/2]) {
			t.Errorf("attempt %d streamed %q, which holds (half) the key", a, sb.String())
		}
	}
	want := strings.ReplaceAll(content, testKey, "[redacted]")
	if got := byAttempt[2].String(); got != want || resp.Content != want {
		t.Errorf("streamed %q, reply %q, want %q", got, resp.Content, want)
	}
}

// A run whose replies stream from a server echoing the key keeps it out of everything written
// (replies.jsonl, events, usage log, llm.json, the cache) and out of the deltas the window shows.
func TestStreamedRunWritesNoKey(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		r := toyHandler(c, seen)
		r.Content = strings.Replace(r.Content, "I hope", "key "+testKey+" — I hope", 1)
		return r
	})
	defer srv.Close()
	cache := t.TempDir()
	c := newTestClient(t, testConfig(srv, cache))
	g := newToyGenerator(t, c, toyOptions(3))
	var mu sync.Mutex
	var deltas strings.Builder
	g.OnDelta = func(ev DeltaEvent) {
		mu.Lock()
		deltas.WriteString(ev.Text)
		mu.Unlock()
	}
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := execute(context.Background(), dir, g, 1, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(deltas.String(), testKey) || !strings.Contains(deltas.String(), "[redacted]") {
		t.Errorf("the streamed deltas hold the key (or no redaction): %.200q", deltas.String())
	}
	if n := checkNoKey(t, dir); n < 4 {
		t.Errorf("only %d files in the run folder", n)
	}
	if n := checkNoKey(t, cache); n == 0 {
		t.Error("nothing cached")
	}
}

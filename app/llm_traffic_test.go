package app

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2/test"

	"pcgwb/llm/llmtest"
)

// TestLLMShowsRetriesAsTheyHappen: while the client retries a request the server refuses (it
// did so 120 times in 45 s while the tab said "Asking…" at 0%), the status and the bar say
// how many requests were sent, how many failed and were retried and why, and how many levels
// are done; the final status keeps the counts.
func TestLLMShowsRetriesAsTheyHappen(t *testing.T) {
	var calls atomic.Int64
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	srv := llmtest.New(func(llmtest.Call, int) llmtest.Reply {
		if calls.Add(1) <= 3 {
			return llmtest.Reply{Status: 503, RetryAfter: "0"} // busy: retry at once
		}
		<-release // the fourth attempt waits until the test has looked
		return llmtest.Reply{Content: roomsReply(1)}
	})
	defer srv.Close()
	defer free()
	wb, lp := newLLMTestPanel(t, srv)
	wb.outputDirOverride = t.TempDir()
	lp.count.SetText("1")
	test.Tap(lp.generateButton)

	const during = "0 of 1 done · 4 requests sent (1 waiting for an answer) · 3 failed and retried (last: 503 Service Unavailable)"
	eventually(t, "the retries shown", func() bool { return strings.Contains(lp.status.Text, during) })
	if bar := lp.progress.TextFormatter(); bar != "0 of 1 levels · 4 requests" {
		t.Errorf("the bar says %q", bar)
	}
	free()
	waitLLM(t, lp)
	if !strings.Contains(lp.status.Text, "1 of 1 levels valid · 4 requests sent · 3 failed (last: 503 Service Unavailable)") {
		t.Fatalf("final status %q", lp.status.Text)
	}
	if bar := lp.progress.TextFormatter(); bar != "1 of 1 levels · 4 requests" {
		t.Errorf("the bar says %q at the end", bar)
	}
}

func TestLLMCountsText(t *testing.T) {
	for _, tc := range []struct {
		c       llmCounts
		running bool
		want    string
	}{
		{llmCounts{}, true, "no request sent yet"},
		{llmCounts{}, false, "no request sent (every answer came from the cache)"},
		{llmCounts{sent: 1, inFlight: 1}, true, "1 request sent (1 waiting for an answer)"},
		{llmCounts{sent: 9, failed: 8, last: "429 Too Many Requests"}, false, "9 requests sent · 8 failed (last: 429 Too Many Requests)"},
		{llmCounts{sent: 2, failed: 1, last: strings.Repeat("e", 200)}, true, "2 requests sent · 1 failed and retried (last: " + strings.Repeat("e", 80) + "…)"},
	} {
		if got := tc.c.text(tc.running); got != tc.want {
			t.Errorf("%+v running %v: %q, want %q", tc.c, tc.running, got, tc.want)
		}
	}
}

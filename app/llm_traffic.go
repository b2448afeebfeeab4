package app

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// llmTraffic counts the HTTP requests a batch sends to the endpoint as they happen. The client
// retries a failed request by itself (a timeout, 429, a server error: up to Config.MaxRetries
// times, with backoff), and without these counts the tab showed "Asking…" at 0% for as long as
// the retries lasted (120 requests in 45 s). It sits in the client's HTTP transport
// (llm.Config.HTTPClient), so every attempt is counted, retries included.
type llmTraffic struct {
	mu                     sync.Mutex
	sent, failed, inFlight int
	last                   string // the last failure: "429 Too Many Requests", or the transport's error
	onChange               func() // called after each change (from the requests' goroutines)
}

// llmCounts is a snapshot of a batch's requests.
type llmCounts struct {
	sent, failed, inFlight int
	last                   string
}

// client is an HTTP client whose requests the traffic counts.
func (t *llmTraffic) client() *http.Client {
	return &http.Client{Transport: trafficTransport{t: t, base: http.DefaultTransport}}
}

type trafficTransport struct {
	t    *llmTraffic
	base http.RoundTripper
}

func (tr trafficTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	tr.t.change(func(t *llmTraffic) { t.sent++; t.inFlight++ })
	resp, err := tr.base.RoundTrip(r)
	tr.t.change(func(t *llmTraffic) {
		t.inFlight--
		switch {
		case err != nil:
			t.failed++
			t.last = err.Error()
		case resp.StatusCode >= 400:
			t.failed++
			t.last = resp.Status
		}
	})
	return resp, err
}

func (t *llmTraffic) change(f func(*llmTraffic)) {
	t.mu.Lock()
	f(t)
	on := t.onChange
	t.mu.Unlock()
	if on != nil {
		on()
	}
}

func (t *llmTraffic) counts() llmCounts {
	t.mu.Lock()
	defer t.mu.Unlock()
	return llmCounts{sent: t.sent, failed: t.failed, inFlight: t.inFlight, last: t.last}
}

// text says what the requests have done so far: "4 requests sent (2 waiting for an answer) · 2
// failed and retried (last: 429 Too Many Requests)".
func (c llmCounts) text(running bool) string {
	if c.sent == 0 {
		if running {
			return "no request sent yet"
		}
		return "no request sent (every answer came from the cache)"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d %s sent", c.sent, nouns(c.sent, "request", "requests"))
	if running && c.inFlight > 0 {
		fmt.Fprintf(&sb, " (%d waiting for an answer)", c.inFlight)
	}
	if c.failed > 0 {
		what := "failed"
		if running {
			what = "failed and retried"
		}
		last := c.last
		if r := []rune(last); len(r) > 80 {
			last = string(r[:80]) + "…"
		}
		fmt.Fprintf(&sb, " · %d %s (last: %s)", c.failed, what, last)
	}
	return sb.String()
}

func nouns(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// watchTraffic shows the batch's progress in the status and the bar while it runs: levels
// done and requests sent, failed and retried.
func (lp *llmPanel) watchTraffic(t *llmTraffic, show func()) { t.watch(lp.wb.ui, &lp.jobs, show) }

// watch runs show on the UI goroutine after changes of the counts (the Run tab's status shows
// an LLM-guided run's retries with it). A change schedules one refresh at a time (a burst of
// retries must not queue a callback per request); jobs, when not nil, counts the refreshes
// pending. The refreshes run on the window's plumbing ui.
func (t *llmTraffic) watch(ui *uiThread, jobs *jobGroup, show func()) {
	var mu sync.Mutex
	pending := false
	t.mu.Lock()
	defer t.mu.Unlock()
	t.onChange = func() {
		mu.Lock()
		if pending {
			mu.Unlock()
			return
		}
		pending = true
		mu.Unlock()
		if jobs != nil {
			jobs.Add(1)
		}
		ui.goJob(func() {
			if jobs != nil {
				defer jobs.Done()
			}
			time.Sleep(50 * time.Millisecond) // gathers a burst into one refresh; not a synchronisation
			mu.Lock()
			pending = false
			mu.Unlock()
			ui.onUI(show)
		})
	}
}

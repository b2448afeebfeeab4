package llm

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// go-openai hides the HTTP response behind its error types, but a retry needs the
// Retry-After header and a stream needs to know whether the server ended it properly
// ("data: [DONE]"). The transport below records both into an exchange that the client puts
// into each attempt's context.

type exchangeKey struct{}

// exchange is what the transport saw of one attempt.
type exchange struct {
	mu         sync.Mutex
	status     int
	retryAfter time.Duration
	hasRetry   bool
	sawDone    bool
}

func (e *exchange) retryDelay() (time.Duration, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.retryAfter, e.hasRetry
}

func (e *exchange) done() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sawDone
}

func withExchange(ctx context.Context, e *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, e)
}

type recordingTransport struct{ base http.RoundTripper }

func (t recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	ex, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if err != nil || ex == nil {
		return resp, err
	}
	ex.mu.Lock()
	ex.status = resp.StatusCode
	ex.retryAfter, ex.hasRetry = parseRetryAfter(resp.Header, time.Now())
	ex.mu.Unlock()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body = &doneWatcher{ReadCloser: resp.Body, ex: ex}
	}
	return resp, nil
}

// parseRetryAfter reads OpenAI's retry-after-ms, then the standard Retry-After (seconds or an
// HTTP date).
func parseRetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}

var doneMarker = []byte("[DONE]")

// doneWatcher notices the "[DONE]" marker in a stream body, across read boundaries.
type doneWatcher struct {
	io.ReadCloser
	ex   *exchange
	tail []byte
}

func (w *doneWatcher) Read(p []byte) (int, error) {
	n, err := w.ReadCloser.Read(p)
	if n > 0 {
		buf := append(w.tail, p[:n]...)
		if bytes.Contains(buf, doneMarker) {
			w.ex.mu.Lock()
			w.ex.sawDone = true
			w.ex.mu.Unlock()
		}
		keep := min(len(buf), len(doneMarker)-1)
		w.tail = append(w.tail[:0], buf[len(buf)-keep:]...)
	}
	return n, err
}

package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
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

// recordingTransport records each exchange and bounds every response body to limit bytes.
type recordingTransport struct {
	base  http.RoundTripper
	limit int64
}

func (t recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if t.limit > 0 && resp.Body != nil {
		resp.Body = &limitedBody{ReadCloser: resp.Body, left: t.limit, limit: t.limit}
	}
	ex, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if ex == nil {
		return resp, nil
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
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			if d, ok := delayOf(ms, float64(time.Millisecond)); ok {
				return d, true
			}
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return delayOf(s, float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, min(t.Sub(now), maxRetryAfterHeader)), true
	}
	return 0, false
}

// maxRetryAfterHeader bounds what a header can ask for before Config.MaxRetryAfter caps it
// further: a huge or infinite value must not overflow into a negative delay.
const maxRetryAfterHeader = 24 * time.Hour

// delayOf converts n units to a delay; NaN and negative values are no delay at all.
func delayOf(n, unit float64) (time.Duration, bool) {
	if n != n || n < 0 {
		return 0, false
	}
	if n*unit >= float64(maxRetryAfterHeader) {
		return maxRetryAfterHeader, true
	}
	return time.Duration(n * unit), true
}

// ErrReplyTooLarge is a response body longer than Config.MaxReplyBytes.
var ErrReplyTooLarge = errors.New("the reply is larger than the reply size limit")

// limitedBody fails once more than limit bytes arrived, instead of letting an endless body
// grow whatever reads it.
type limitedBody struct {
	io.ReadCloser
	left, limit int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, fmt.Errorf("%w (%d bytes; raise it with --max-reply-bytes)", ErrReplyTooLarge, b.limit)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// sameOrigin tells whether two URLs share scheme, host and port (default ports made explicit).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && effectivePort(a) == effectivePort(b)
}

func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// redirectPolicy wraps next (nil: Go's default of at most 10 redirects) so that the
// Authorization header, which Go forwards to any port of the same host, is dropped whenever a
// redirect leaves the first request's origin.
func redirectPolicy(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > 0 && !sameOrigin(req.URL, via[0].URL) {
			req.Header.Del("Authorization")
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
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

package llm

import (
	"net/http"
	"testing"
	"time"
)

// FuzzParseRetryAfter: any header value gives a non-negative delay or none, never a panic.
func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"", "0", "1.5", "-3", "120", "1e400", "NaN", "Inf", "Wed, 21 Oct 2015 07:28:00 GMT", "Sun, 06 Nov 1994 08:49:37 GMT", "999999999999999999999"} {
		f.Add(s, s)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	f.Fuzz(func(t *testing.T, ms, secs string) {
		h := http.Header{}
		h.Set("Retry-After-Ms", ms)
		h.Set("Retry-After", secs)
		d, ok := parseRetryAfter(h, now)
		if !ok && d != 0 {
			t.Fatalf("no delay but %v", d)
		}
		if d < 0 {
			t.Fatalf("negative delay %v for %q / %q", d, ms, secs)
		}
	})
}

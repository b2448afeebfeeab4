package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pcgwb/llm/llmtest"
)

const testKey = "sk-test-SECRET-0123456789"

// testConfig is a fast client config for srv: tiny backoff, short timeout.
func testConfig(srv *llmtest.Server, cacheDir string) Config {
	temp, seed := 0.7, 42
	return Config{BaseURL: srv.BaseURL(), Model: "test-model", APIKey: testKey, Temperature: &temp, Seed: &seed,
		MaxTokens: 300, Timeout: 2 * time.Second, BackoffBase: time.Millisecond, BackoffMax: 4 * time.Millisecond,
		CacheDir: cacheDir, Concurrency: 4}
}

func newTestClient(t *testing.T, cfg Config) *Client {
	t.Helper()
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func userReq(text string) Request {
	return Request{Messages: []Message{{Role: RoleUser, Content: text}}}
}

func TestChatSendsSettingsAndKeyOnlyInHeader(t *testing.T) {
	srv := llmtest.New(llmtest.Text("hello"))
	defer srv.Close()
	var log bytes.Buffer
	cfg := testConfig(srv, "")
	cfg.UsageLog = &log
	cfg.Price = Price{InputPerMillion: 1e6, OutputPerMillion: 2e6} // 1 and 2 per token
	c := newTestClient(t, cfg)
	resp, err := c.Chat(context.Background(), userReq("say hello now"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "hello" || resp.Cached || resp.Attempts != 1 || resp.FinishReason != "stop" {
		t.Fatalf("response %+v", resp)
	}
	calls := srv.Calls()
	if len(calls) != 1 {
		t.Fatalf("%d calls", len(calls))
	}
	r := calls[0].Request
	if calls[0].Authorization != "Bearer "+testKey {
		t.Errorf("authorization %q", calls[0].Authorization)
	}
	if r.Model != "test-model" || r.Seed == nil || *r.Seed != 42 || r.MaxTokens != 300 || r.Temperature < 0.69 || r.Temperature > 0.71 {
		t.Errorf("request %+v", r)
	}
	var rec UsageRecord
	if err := json.Unmarshal(log.Bytes(), &rec); err != nil {
		t.Fatalf("usage log %q: %v", log.String(), err)
	}
	if rec.PromptTokens != 3 || rec.CompletionTokens != 1 || rec.Cost != 5 || rec.Attempts != 1 || rec.Cached {
		t.Errorf("usage record %+v", rec)
	}
	if strings.Contains(log.String(), testKey) {
		t.Error("the usage log holds the key")
	}
	if tot := c.Totals(); tot.Requests != 1 || tot.Cost != 5 || tot.Usage.TotalTokens != 4 {
		t.Errorf("totals %+v", tot)
	}
}

func TestZeroTemperatureIsSent(t *testing.T) {
	srv := llmtest.New(llmtest.Text("x"))
	defer srv.Close()
	cfg := testConfig(srv, "")
	zero := 0.0
	cfg.Temperature = &zero
	if _, err := newTestClient(t, cfg).Chat(context.Background(), userReq("x")); err != nil {
		t.Fatal(err)
	}
	if tt := srv.Calls()[0].Request.Temperature; tt <= 0 || tt > 1e-30 {
		t.Fatalf("temperature sent as %v, want a tiny positive value", tt)
	}
}

func TestConfigRejectsBadSettings(t *testing.T) {
	for _, cfg := range []Config{
		{BaseURL: "ftp://x", Model: "m"},
		{BaseURL: "http://user:pw@host/v1", Model: "m"},
		{BaseURL: "http://host/v1?key=abc", Model: "m"},
		{BaseURL: "http://host/v1"},
		{BaseURL: "http://host/v1", Model: "m", MaxTokens: -1},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

func TestStreamingDeliversDeltasAndUsage(t *testing.T) {
	srv := llmtest.New(llmtest.Text("the quick brown fox"))
	defer srv.Close()
	c := newTestClient(t, testConfig(srv, t.TempDir()))
	var got strings.Builder
	n := 0
	resp, err := c.ChatStream(context.Background(), userReq("stream please"), func(attempt int, d string) {
		if attempt != 1 {
			t.Errorf("attempt %d", attempt)
		}
		n++
		got.WriteString(d)
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "the quick brown fox" || got.String() != resp.Content || n < 2 {
		t.Fatalf("content %q, deltas %q in %d pieces", resp.Content, got.String(), n)
	}
	if resp.Usage.CompletionTokens != 4 || resp.FinishReason != "stop" {
		t.Errorf("usage %+v finish %q", resp.Usage, resp.FinishReason)
	}
	if !srv.Calls()[0].Request.Stream {
		t.Error("not streamed")
	}
	// A cached replay streams the whole reply at once, as attempt 0.
	var again []string
	resp2, err := c.ChatStream(context.Background(), userReq("stream please"), func(attempt int, d string) {
		again = append(again, fmt.Sprint(attempt, ":", d))
	})
	if err != nil || !resp2.Cached || len(again) != 1 || again[0] != "0:the quick brown fox" {
		t.Fatalf("cached stream: %v %+v %q", err, resp2, again)
	}
}

func TestCacheHitMissAndOffline(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply { return llmtest.Reply{Content: fmt.Sprint("reply ", c.N)} })
	defer srv.Close()
	dir := t.TempDir()
	c := newTestClient(t, testConfig(srv, dir))
	ctx := context.Background()
	a, err := c.Chat(ctx, userReq("one"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Chat(ctx, userReq("one"))
	if err != nil {
		t.Fatal(err)
	}
	if !b.Cached || b.Content != a.Content || a.Key != b.Key {
		t.Fatalf("second identical request: %+v vs %+v", b, a)
	}
	// Another sample of the same conversation is another request.
	req := userReq("one")
	req.Sample = 1
	s1, err := c.Chat(ctx, req)
	if err != nil || s1.Cached || s1.Content == a.Content {
		t.Fatalf("sample 1: %v %+v", err, s1)
	}
	if n := len(srv.Calls()); n != 2 {
		t.Fatalf("%d server calls, want 2", n)
	}

	// The key is not part of the cache key: another key replays the same entries offline.
	cfg := testConfig(srv, dir)
	cfg.APIKey, cfg.Offline = "another-key", true
	off := newTestClient(t, cfg)
	r, err := off.Chat(ctx, userReq("one"))
	if err != nil || r.Content != a.Content {
		t.Fatalf("offline replay: %v %+v", err, r)
	}
	_, err = off.Chat(ctx, userReq("never asked"))
	if !errors.Is(err, ErrOfflineMiss) || !strings.Contains(err.Error(), "run once online") {
		t.Fatalf("offline miss: %v", err)
	}
	if n := len(srv.Calls()); n != 2 {
		t.Fatalf("offline mode called the server (%d calls)", n)
	}
	// Any setting that changes the reply changes the key.
	for _, change := range []func(*Config){
		func(c *Config) { c.Model = "other" },
		func(c *Config) { t := 0.1; c.Temperature = &t },
		func(c *Config) { s := 7; c.Seed = &s },
		func(c *Config) { c.MaxTokens = 10 },
		func(c *Config) { c.BaseURL = srv.URL + "/v2" },
	} {
		cfg := testConfig(srv, dir)
		cfg.Offline = true
		change(&cfg)
		if _, err := newTestClient(t, cfg).Chat(ctx, userReq("one")); !errors.Is(err, ErrOfflineMiss) {
			t.Errorf("a changed setting still hit the cache: %v", err)
		}
	}
}

func TestDamagedCacheEntryIsReportedOfflineAndReplacedOnline(t *testing.T) {
	srv := llmtest.New(llmtest.Text("fresh"))
	defer srv.Close()
	dir := t.TempDir()
	c := newTestClient(t, testConfig(srv, dir))
	r, err := c.Chat(context.Background(), userReq("q"))
	if err != nil {
		t.Fatal(err)
	}
	path := Cache{Dir: dir}.path(r.Key)
	if err := writeFile(path, "{broken"); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(srv, dir)
	cfg.Offline = true
	if _, err := newTestClient(t, cfg).Chat(context.Background(), userReq("q")); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("offline with a damaged entry: %v", err)
	}
	r2, err := c.Chat(context.Background(), userReq("q"))
	if err != nil || r2.Cached {
		t.Fatalf("online with a damaged entry: %v %+v", err, r2)
	}
	r3, err := c.Chat(context.Background(), userReq("q"))
	if err != nil || !r3.Cached {
		t.Fatalf("the entry was not rewritten: %v %+v", err, r3)
	}
}

// faults is the fault matrix: each is served to a conversation's first attempt, the retry
// gets the real reply.
var faults = []struct {
	name  string
	reply llmtest.Reply
}{
	{"timeout", llmtest.Reply{Delay: time.Minute}}, // ends when the client gives up
	{"429 retry-after", llmtest.Reply{Status: http.StatusTooManyRequests, RetryAfter: "0"}},
	{"500", llmtest.Reply{Status: http.StatusInternalServerError}},
	{"502", llmtest.Reply{Status: http.StatusBadGateway}},
	{"malformed json", llmtest.Reply{Malformed: true}},
	{"truncated", llmtest.Reply{Truncate: true, Content: "partial reply text"}},
	{"aborted connection", llmtest.Reply{Abort: true, Content: "partial reply text"}},
	{"empty choices", llmtest.Reply{EmptyChoices: true}},
}

func TestFaultMatrixRetriesToTheRightAnswer(t *testing.T) {
	for _, stream := range []bool{false, true} {
		for _, f := range faults {
			t.Run(fmt.Sprintf("%s stream=%v", f.name, stream), func(t *testing.T) {
				srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
					if seen == 0 {
						return f.reply
					}
					return llmtest.Reply{Content: "answer to " + c.LastUser()}
				})
				defer srv.Close()
				cfg := testConfig(srv, t.TempDir())
				if f.reply.Delay > 0 {
					// Short enough to keep the test quick, long enough that the retry's
					// real answer arrives in time on a loaded machine (300 ms did not).
					cfg.Timeout = 2 * time.Second
				}
				var log bytes.Buffer
				cfg.UsageLog = &log
				c := newTestClient(t, cfg)
				var resp *Response
				var err error
				var deltas []string
				if stream {
					resp, err = c.ChatStream(context.Background(), userReq("q1"), func(a int, d string) {
						deltas = append(deltas, fmt.Sprint(a, d))
					})
				} else {
					resp, err = c.Chat(context.Background(), userReq("q1"))
				}
				if err != nil {
					t.Fatal(err)
				}
				if resp.Content != "answer to q1" || resp.Attempts != 2 {
					t.Fatalf("response %+v", resp)
				}
				if n := len(srv.Calls()); n != 2 {
					t.Fatalf("%d calls, want 2", n)
				}
				if stream && (len(deltas) == 0 || !strings.HasPrefix(deltas[len(deltas)-1], "2")) {
					t.Errorf("deltas %q do not end with attempt 2", deltas)
				}
				if lines := strings.Count(log.String(), "\n"); lines != 1 {
					t.Errorf("%d usage lines, want 1", lines)
				}
				// The cache holds the good answer, never the fault.
				r, err := c.Chat(context.Background(), userReq("q1"))
				if err != nil || !r.Cached || r.Content != "answer to q1" {
					t.Fatalf("cached: %v %+v", err, r)
				}
			})
		}
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		if seen == 0 {
			return llmtest.Reply{Status: http.StatusTooManyRequests, RetryAfter: "3"}
		}
		if seen == 1 {
			return llmtest.Reply{Status: http.StatusServiceUnavailable}
		}
		return llmtest.Reply{Content: "ok"}
	})
	defer srv.Close()
	c := newTestClient(t, testConfig(srv, ""))
	var delays []time.Duration
	c.sleep = func(_ context.Context, d time.Duration) error { delays = append(delays, d); return nil }
	resp, err := c.Chat(context.Background(), userReq("x"))
	if err != nil || resp.Attempts != 3 {
		t.Fatalf("%v %+v", err, resp)
	}
	if len(delays) != 2 || delays[0] != 3*time.Second || delays[1] > 4*time.Millisecond {
		t.Fatalf("delays %v: want the server's 3s, then a jittered backoff <= 4ms", delays)
	}
}

func TestRetryAfterIsCapped(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		if seen == 0 {
			return llmtest.Reply{Status: http.StatusTooManyRequests, RetryAfter: "86400"}
		}
		return llmtest.Reply{Content: "ok"}
	})
	defer srv.Close()
	cfg := testConfig(srv, "")
	cfg.MaxRetryAfter = 10 * time.Second
	c := newTestClient(t, cfg)
	var delays []time.Duration
	c.sleep = func(_ context.Context, d time.Duration) error { delays = append(delays, d); return nil }
	if _, err := c.Chat(context.Background(), userReq("x")); err != nil {
		t.Fatal(err)
	}
	if len(delays) != 1 || delays[0] != 10*time.Second {
		t.Fatalf("delays %v", delays)
	}
}

func TestBackoffGrowsWithJitterWithinBounds(t *testing.T) {
	c := &Client{cfg: Config{BackoffBase: 100 * time.Millisecond, BackoffMax: time.Second}}
	for attempt, ceil := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 4: 800 * time.Millisecond, 9: time.Second} {
		seen := map[time.Duration]bool{}
		for i := 0; i < 200; i++ {
			d := c.backoff(attempt)
			if d < 0 || d > ceil {
				t.Fatalf("attempt %d: %v outside [0, %v]", attempt, d, ceil)
			}
			seen[d] = true
		}
		if len(seen) < 20 {
			t.Errorf("attempt %d: only %d distinct delays: no jitter?", attempt, len(seen))
		}
	}
}

func TestPermanentErrorsAreNotRetried(t *testing.T) {
	for _, status := range []int{http.StatusUnauthorized, http.StatusBadRequest, http.StatusNotFound} {
		srv := llmtest.New(llmtest.Script(llmtest.Reply{Status: status}))
		c := newTestClient(t, testConfig(srv, ""))
		_, err := c.Chat(context.Background(), userReq("x"))
		var rerr *RequestError
		if !errors.As(err, &rerr) || rerr.Attempts != 1 || len(srv.Calls()) != 1 {
			t.Errorf("status %d: %v after %d calls", status, err, len(srv.Calls()))
		}
		if strings.Contains(err.Error(), testKey) {
			t.Errorf("the error shows the key: %v", err)
		}
		srv.Close()
	}
}

func TestRetriesRunOut(t *testing.T) {
	srv := llmtest.New(llmtest.Script(llmtest.Reply{Status: http.StatusInternalServerError}))
	defer srv.Close()
	cfg := testConfig(srv, t.TempDir())
	cfg.MaxRetries = 3
	var log bytes.Buffer
	cfg.UsageLog = &log
	c := newTestClient(t, cfg)
	_, err := c.Chat(context.Background(), userReq("x"))
	var rerr *RequestError
	if !errors.As(err, &rerr) || rerr.Attempts != 4 || len(srv.Calls()) != 4 {
		t.Fatalf("%v after %d calls", err, len(srv.Calls()))
	}
	if !strings.Contains(log.String(), `"attempts":4`) || !strings.Contains(log.String(), "500") {
		t.Errorf("usage log %q", log.String())
	}
	if tot := c.Totals(); tot.Failures != 1 || tot.Retries != 3 {
		t.Errorf("totals %+v", tot)
	}
}

func TestCancellationStopsWaitingAndBackoff(t *testing.T) {
	srv := llmtest.New(llmtest.Script(llmtest.Reply{Delay: 10 * time.Second}))
	defer srv.Close()
	cfg := testConfig(srv, "")
	cfg.Timeout = time.Minute
	c := newTestClient(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Chat(ctx, userReq("x"))
	if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
		t.Fatalf("%v after %v", err, time.Since(start))
	}
	// During a Retry-After wait too.
	srv2 := llmtest.New(llmtest.Script(llmtest.Reply{Status: 429, RetryAfter: "60"}))
	defer srv2.Close()
	c2 := newTestClient(t, testConfig(srv2, ""))
	ctx2, cancel2 := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel2)
	start = time.Now()
	_, err = c2.Chat(ctx2, userReq("x"))
	if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
		t.Fatalf("%v after %v", err, time.Since(start))
	}
}

func TestConcurrencyLimit(t *testing.T) {
	var inFlight, peak atomic.Int32
	srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply {
		n := inFlight.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		inFlight.Add(-1)
		return llmtest.Reply{Content: "ok"}
	})
	defer srv.Close()
	cfg := testConfig(srv, "")
	cfg.Concurrency = 3
	c := newTestClient(t, cfg)
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Chat(context.Background(), userReq(fmt.Sprint("q", i))); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 3 || p < 2 {
		t.Fatalf("peak concurrency %d, limit 3", p)
	}
}

func TestTestBypassesTheCache(t *testing.T) {
	srv := llmtest.New(llmtest.Text("OK"))
	defer srv.Close()
	dir := t.TempDir()
	c := newTestClient(t, testConfig(srv, dir))
	for i := 0; i < 2; i++ {
		r, err := c.Test(context.Background())
		if err != nil || r.Cached || r.Content != "OK" {
			t.Fatalf("%v %+v", err, r)
		}
	}
	if len(srv.Calls()) != 2 {
		t.Fatalf("%d calls", len(srv.Calls()))
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		h    http.Header
		want time.Duration
		ok   bool
	}{
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second, true},
		{http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond, true},
		{http.Header{"Retry-After": {now.Add(7 * time.Second).Format(http.TimeFormat)}}, 7 * time.Second, true},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, 250 * time.Millisecond, true},
		{http.Header{"Retry-After": {"soon"}}, 0, false},
		{http.Header{}, 0, false},
	}
	for _, c := range cases {
		got, ok := parseRetryAfter(c.h, now)
		if got != c.want || ok != c.ok {
			t.Errorf("%v: got %v %v", c.h, got, ok)
		}
	}
}

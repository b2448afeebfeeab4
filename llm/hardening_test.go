package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"pcgwb/llm/llmtest"
)

func TestBaseURLSchemeRules(t *testing.T) {
	cases := []struct {
		url      string
		insecure bool
		ok       bool
	}{
		{"http://127.0.0.1:8080/v1", false, true},
		{"http://127.9.9.9/v1", false, true},
		{"http://localhost:11434/v1", false, true},
		{"http://[::1]:8000/v1", false, true},
		{"https://example.test/v1", false, true},
		{"http://example.test/v1", false, false},
		{"http://192.168.1.20:8000/v1", false, false},
		{"http://example.test/v1", true, true},
		{"http://127.0.0.1.example.test/v1", false, false},
	}
	for _, tc := range cases {
		_, err := New(Config{BaseURL: tc.url, Model: "m", AllowInsecure: tc.insecure})
		if (err == nil) != tc.ok {
			t.Errorf("%s insecure=%v: err %v, want ok=%v", tc.url, tc.insecure, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "--allow-insecure") {
			t.Errorf("%s: the error does not say how to allow it: %v", tc.url, err)
		}
	}
}

// TestRedirectKeepsTheKeyInItsOrigin: a redirect to another port of the same host (another
// origin) must not carry the bearer key; one within the origin keeps it.
func TestRedirectKeepsTheKeyInItsOrigin(t *testing.T) {
	var gotAuth atomic.Value
	gotAuth.Store("unset")
	other := llmtest.New(llmtest.Text("moved"))
	defer other.Close()
	spy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth.Store(r.Header.Get("Authorization"))
		other.Config.Handler.ServeHTTP(w, r)
	}))
	defer spy.Close()
	for _, tc := range []struct {
		name     string
		target   func(r *http.Request) string
		wantAuth string
	}{
		{"other port", func(r *http.Request) string { return spy.URL + r.URL.Path }, ""},
		{"same origin", func(r *http.Request) string { return "/moved" + r.URL.Path }, "Bearer " + testKey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gotAuth.Store("unset")
			redir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, "/moved") {
					gotAuth.Store(r.Header.Get("Authorization"))
					r.URL.Path = strings.TrimPrefix(r.URL.Path, "/moved")
					other.Config.Handler.ServeHTTP(w, r)
					return
				}
				http.Redirect(w, r, tc.target(r), http.StatusTemporaryRedirect)
			}))
			defer redir.Close()
			cfg := Config{BaseURL: redir.URL + "/v1", Model: "m", APIKey: testKey, MaxRetries: -1, Timeout: 5 * time.Second}
			c := newTestClient(t, cfg)
			resp, err := c.Chat(context.Background(), userReq("hi"))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Content != "moved" {
				t.Fatalf("content %q", resp.Content)
			}
			if got := gotAuth.Load().(string); got != tc.wantAuth {
				t.Errorf("authorization after the redirect %q, want %q", got, tc.wantAuth)
			}
		})
	}
}

// endless writes a 200 body that never ends (until the client goes away).
func endless(stream bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if stream {
			w.Header().Set("Content-Type", "text/event-stream")
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(http.StatusOK)
		chunk := []byte(strings.Repeat(" ", 32<<10))
		if stream {
			chunk = []byte(`data: {"id":"x","choices":[{"index":0,"delta":{"content":"` + strings.Repeat("a", 32<<10) + `"}}]}` + "\n\n")
		} else {
			_, _ = w.Write([]byte(`{"id":"x","choices":[{"message":{"content":"`))
		}
		for i := 0; i < 1<<20; i++ { // bounded: 32 GB at most, far past any limit
			if _, err := w.Write(chunk); err != nil {
				return
			}
			if r.Context().Err() != nil {
				return
			}
		}
	}
}

func TestEndlessReplyStopsAtTheSizeLimit(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				endless(stream)(w, r)
			}))
			defer srv.Close()
			cfg := Config{BaseURL: srv.URL + "/v1", Model: "m", MaxReplyBytes: 1 << 20, Timeout: time.Minute,
				BackoffBase: time.Millisecond, BackoffMax: time.Millisecond}
			c := newTestClient(t, cfg)
			var got int
			var err error
			if stream {
				_, err = c.ChatStream(context.Background(), userReq("hi"), func(_ int, d string) { got += len(d) })
			} else {
				_, err = c.Chat(context.Background(), userReq("hi"))
			}
			if !errors.Is(err, ErrReplyTooLarge) {
				t.Fatalf("error %v, want ErrReplyTooLarge", err)
			}
			if got > 1<<20 {
				t.Errorf("%d bytes delivered past a 1 MiB limit", got)
			}
			if n := calls.Load(); n != 1 {
				t.Errorf("%d requests: an oversized reply must not be asked again", n)
			}
		})
	}
}

func TestReplyUnderTheLimitPasses(t *testing.T) {
	srv := llmtest.New(llmtest.Text(strings.Repeat("x", 100<<10)))
	defer srv.Close()
	cfg := testConfig(srv, "")
	cfg.MaxReplyBytes = 1 << 20
	c := newTestClient(t, cfg)
	resp, err := c.Chat(context.Background(), userReq("hi"))
	if err != nil || len(resp.Content) != 100<<10 {
		t.Fatalf("err %v", err)
	}
	cfg.MaxReplyBytes = -1
	if _, err := New(cfg); err == nil {
		t.Error("a negative reply limit was accepted")
	}
}

// TestTemplateAndExampleFilesAreBounded: a FIFO as a template or an examples file is refused
// at once (no hang), and so is a file over the limit.
func TestTemplateAndExampleFilesAreBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := dir + "/generic.tmpl"
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	if _, _, err := (Templates{Dir: dir}).Read("generic"); err == nil {
		t.Error("a FIFO template was read")
	}
	big := dir + "/big.tmpl"
	if err := os.WriteFile(big, make([]byte, maxTemplateBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := (Templates{Dir: dir}).Read("big"); err == nil || !strings.Contains(err.Error(), "large") {
		t.Errorf("an oversized template: %v", err)
	}
	if _, err := readExampleContents(nil, fifo); err == nil {
		t.Error("a FIFO examples file was read")
	}
}

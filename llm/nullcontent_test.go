package llm

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A reply whose message has "content": null is a failed request: it is retried, and when
// every attempt says null the request fails; it is never an empty answer (nor cached).
func TestNullContentIsAFailedRequest(t *testing.T) {
	for _, always := range []bool{false, true} {
		var calls atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := calls.Add(1)
			w.Header().Set("Content-Type", "application/json")
			content := `null`
			if n > 1 && !always {
				content = `"drop_block('b11', 10)"`
			}
			fmt.Fprintf(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":0,"total_tokens":1}}`, content)
		}))
		cfg := Config{BaseURL: srv.URL + "/v1", Model: "m", APIKey: testKey, CacheDir: t.TempDir(), MaxRetries: 2,
			Timeout: 2 * time.Second, BackoffBase: time.Millisecond, BackoffMax: 4 * time.Millisecond}
		c := newTestClient(t, cfg)
		resp, err := c.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "q"}}})
		srv.Close()
		if always {
			if err == nil || !strings.Contains(err.Error(), "no content") || calls.Load() != 3 {
				t.Fatalf("always null: %v after %d calls (%+v)", err, calls.Load(), resp)
			}
			continue
		}
		if err != nil || resp.Content != "drop_block('b11', 10)" || calls.Load() != 2 {
			t.Fatalf("null then an answer: %v after %d calls (%+v)", err, calls.Load(), resp)
		}
	}
}

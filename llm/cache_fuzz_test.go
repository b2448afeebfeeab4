package llm

import (
	"strings"
	"testing"
)

func FuzzCacheEntry(f *testing.F) {
	f.Add([]byte(`{"key":"abcd","created":"2026-01-01T00:00:00Z","request":{"base_url":"u","model":"m","messages":[],"sample":0},"response":{"content":"x","usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}}`))
	f.Add([]byte(`{"key":"other"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := decodeCacheEntry("c/ab/abcd.json", "abcd", data)
		switch {
		case err == nil && (e.Key != "abcd" || e.Response.Usage.TotalTokens < 0):
			t.Fatalf("accepted %+v", e)
		case err != nil && !strings.Contains(err.Error(), "c/ab/abcd.json"):
			t.Fatalf("error does not name the file: %v", err)
		case err != nil && len(err.Error()) > 800:
			t.Fatalf("error quotes too much: %d bytes", len(err.Error()))
		}
	})
}

package llm

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pcgwb/llm/llmtest"
)

// A NAME.localhost base URL over plain http is trusted only when the name resolves to loopback
// addresses alone: a resolver answering with another machine would get the key in clear.
func TestLocalhostSubdomainIsResolvedBeforeItIsTrusted(t *testing.T) {
	old := lookupIP
	t.Cleanup(func() { lookupIP = old })
	for _, tt := range []struct {
		name string
		ips  []net.IP
		err  error
		ok   bool
	}{
		{"remote", []net.IP{net.ParseIP("203.0.113.5")}, nil, false},
		{"mixed", []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("203.0.113.5")}, nil, false},
		{"unresolved", nil, errors.New("no such host"), false},
		{"loopback", []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1")}, nil, true},
	} {
		lookupIP = func(string) ([]net.IP, error) { return tt.ips, tt.err }
		_, err := New(Config{BaseURL: "http://api.localhost:8080/v1", Model: "m", APIKey: testKey})
		if (err == nil) != tt.ok {
			t.Errorf("%s: err %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
	lookupIP = func(string) ([]net.IP, error) { t.Error("localhost itself was resolved"); return nil, nil }
	if _, err := New(Config{BaseURL: "http://localhost:8080/v1", Model: "m", APIKey: testKey}); err != nil {
		t.Error(err)
	}
}

// A server that echoes the key in a successful reply does not get it into the reply, the
// cache or the usage log.
func TestKeyEchoedInASuccessfulReplyIsRedacted(t *testing.T) {
	srv := llmtest.New(llmtest.Text("here is your key: " + testKey + " and a level"))
	defer srv.Close()
	cache := t.TempDir()
	var usage strings.Builder
	cfg := testConfig(srv, cache)
	cfg.UsageLog = &usage
	c := newTestClient(t, cfg)
	resp, err := c.Chat(context.Background(), userReq("hello"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(resp.Content, testKey) || !strings.Contains(resp.Content, "[redacted]") {
		t.Errorf("reply %q", resp.Content)
	}
	if n := llmtest.CheckNoSecret(t, cache, testKey); n == 0 {
		t.Error("no cache file was checked")
	}
	if strings.Contains(usage.String(), testKey) {
		t.Error("the usage log holds the key")
	}
	// replayed from the cache, still redacted
	resp, err = newTestClient(t, cfg).Chat(context.Background(), userReq("hello"))
	if err != nil || !resp.Cached || strings.Contains(resp.Content, testKey) {
		t.Fatalf("replay: %+v %v", resp, err)
	}
}

// Temporary files a writer killed in the middle of a Put left in the cache are removed when a
// client next opens it; a fresh one (a live writer's) is kept.
func TestStaleCacheTempsAreRemoved(t *testing.T) {
	srv := llmtest.New(llmtest.Text("x"))
	defer srv.Close()
	cache := t.TempDir()
	sub := filepath.Join(cache, "ab")
	os.MkdirAll(sub, 0o755)
	stale := filepath.Join(sub, ".abcd.json.tmp-123")
	fresh := filepath.Join(sub, ".abce.json.tmp-456")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * staleCacheTemp)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	newTestClient(t, testConfig(srv, cache))
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale temporary file is still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a live writer's temporary file was removed: %v", err)
	}
}

// A usage.jsonl that is a symbolic link is not read (its first line would be quoted in an
// error) and not appended to.
func TestUsageLogThroughASymlinkIsRefused(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside.txt")
	os.WriteFile(outside, []byte("PRIVATE first line\n"), 0o644)
	link := filepath.Join(dir, UsageFile)
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	_, err := ReadUsage(link)
	if err == nil || strings.Contains(err.Error(), "PRIVATE") || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("ReadUsage through a link: %v", err)
	}
}

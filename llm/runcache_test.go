package llm

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"pcgwb/llm/llmtest"
)

// A run folder is untrusted: its replies.jsonl may record answers no server gave. A refill
// into a shared cache keeps such replies to that run's own replays; another run asking the
// same request is not served them. A reply sealed by this cache's own sessions is refilled
// for everyone (the full-disk case of TestCacheWriteFailureFailsTheRun).
func TestRefillDoesNotPlantRepliesForOtherRuns(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply { return llmtest.Reply{Content: "the server's answer"} })
	defer srv.Close()
	cache := t.TempDir()
	offline := testConfig(srv, cache)
	offline.Offline = true
	foreign, mine := filepath.Join(t.TempDir(), "foreign"), filepath.Join(t.TempDir(), "mine")
	owner := newTestClient(t, offline)
	other := newTestClient(t, offline)
	if err := owner.bindRun(foreign); err != nil {
		t.Fatal(err)
	}
	if err := other.bindRun(mine); err != nil {
		t.Fatal(err)
	}
	ask := func(c *Client, text string) (*Response, error) {
		msgs := []Message{{Role: RoleUser, Content: text}}
		return c.Chat(context.Background(), Request{Messages: msgs, Seed: sampleSeed(c, 0)})
	}
	exchange := func(text, reply string, sealed bool) Exchange {
		msgs := []Message{{Role: RoleUser, Content: text}}
		key := owner.canonical(Request{Messages: msgs, Seed: sampleSeed(owner, 0)}).key()
		ex := Exchange{Key: key, Sent: msgs, Reply: reply, Usage: Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}}
		if sealed {
			ex.Seal = owner.seal(key, reply, ex.Usage)
		}
		return ex
	}
	os.MkdirAll(foreign, 0o755)
	var log []byte
	for _, ex := range []Exchange{exchange("planted", "FORGED", false), exchange("received", "kept", true)} {
		b, _ := json.Marshal(ex)
		log = append(append(log, b...), '\n')
	}
	if err := os.WriteFile(filepath.Join(foreign, RepliesFile), log, 0o644); err != nil {
		t.Fatal(err)
	}
	if missing, err := refillCache(foreign, owner); missing != 0 || err != nil {
		t.Fatalf("refill: %d missing, %v", missing, err)
	}
	// The unsealed reply: the folder's own run replays it, another run does not get it.
	if r, err := ask(owner, "planted"); err != nil || r.Content != "FORGED" {
		t.Fatalf("the run's own replay: %v %v", r, err)
	}
	if r, err := ask(other, "planted"); !errors.Is(err, ErrOfflineMiss) {
		t.Fatalf("another run was served a reply planted by a run folder: %+v %v", r, err)
	}
	// Online, the other run asks the server, and the real answer replaces the planted one.
	online := newTestClient(t, testConfig(srv, cache))
	if r, err := ask(online, "planted"); err != nil || r.Content != "the server's answer" || r.Cached {
		t.Fatalf("online: %+v %v", r, err)
	}
	if r, err := ask(other, "planted"); err != nil || r.Content != "the server's answer" {
		t.Fatalf("after the real answer: %+v %v", r, err)
	}
	// The sealed reply is this cache's own: every run replays it.
	if r, err := ask(other, "received"); err != nil || r.Content != "kept" {
		t.Fatalf("a sealed reply refilled: %+v %v", r, err)
	}
	// A seal does not carry over to another reply or another cache.
	ex := exchange("x", "one reply", true)
	if owner.sealed(ex.Key, "another reply", ex.Usage, ex.Seal) {
		t.Fatal("a seal vouched for another reply")
	}
	elsewhere := newTestClient(t, testConfig(srv, t.TempDir()))
	if elsewhere.sealed(ex.Key, ex.Reply, ex.Usage, ex.Seal) {
		t.Fatal("another cache accepted this cache's seal")
	}
}

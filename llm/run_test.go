package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pcgwb/internal/folderlock"
	"pcgwb/llm/llmtest"
	"pcgwb/problems/experiment"
)

// A run interrupted in its second generation keeps the usage lines of what it bought; the
// rerun adds its own (nothing bought twice: generation 0 comes from the checkpoint and the
// replies of generation 1 received before the failure from the cache), and llm.json sums both
// sessions.
func TestUsageIsAppendOnlyAndNothingIsBoughtTwice(t *testing.T) {
	var fail atomic.Bool
	var n atomic.Int32
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		if fail.Load() && n.Add(1) > 2 {
			return llmtest.Reply{Status: 401} // not retried
		}
		return toyHandler(c, seen)
	})
	defer srv.Close()
	cache := t.TempDir()
	cfg := testConfig(srv, cache)
	cfg.Concurrency = 1
	c := newTestClient(t, cfg)
	dir := filepath.Join(t.TempDir(), "run")
	g := newToyGenerator(t, c, toyOptions(4))
	ctx := context.Background()
	_, err := execute(ctx, dir, g, 1, func(ev searchEvent) {
		if ev.Generation == 0 {
			fail.Store(true) // generation 1: two answers, then the server refuses
		}
	})
	if err == nil {
		t.Fatal("the failing server did not stop the run")
	}
	first := readLines(t, filepath.Join(dir, UsageFile))
	callsBefore := len(srv.Calls())
	fail.Store(false)
	if _, err := execute(ctx, dir, newToyGenerator(t, c, toyOptions(4)), 1, nil); err != nil {
		t.Fatal(err)
	}
	all := readLines(t, filepath.Join(dir, UsageFile))
	if len(all) <= len(first) || strings.Join(all[:len(first)], "\n") != strings.Join(first, "\n") {
		t.Fatalf("usage.jsonl was not appended to: %d lines, then %d", len(first), len(all))
	}
	// Bought: 4 (generation 0) + 2 (generation 1, before the failure) + 1 refused, then the 2
	// missing answers of generation 1; nothing else.
	if got := len(srv.Calls()) - callsBefore; got != 2 {
		t.Fatalf("the rerun asked the server %d times, want 2", got)
	}
	var sum RunSummary
	b, _ := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, l := range all {
		if strings.Contains(l, `"error":`) {
			failed++
		}
	}
	if sum.Totals.Requests != len(all) || sum.Totals.Failures != failed || failed == 0 || sum.Totals.CacheHits != 2 {
		t.Fatalf("llm.json totals %+v over %d usage lines", sum.Totals, len(all))
	}
	if sum.Stats.Items != 8 || sum.Stats.Valid != 8 {
		t.Fatalf("llm.json stats %+v", sum.Stats)
	}
}

// A reply that the cache failed to store (here: every cache shard is a file, as good as a full
// disk) fails the run with a message saying so. Running again while the cache still cannot be
// written fails the same way, asking nothing; once it can, the rerun refills the missing
// entries from replies.jsonl, asking nothing, and an --offline run of the same configuration
// then replays every reply from the cache.
func TestCacheWriteFailureFailsTheRun(t *testing.T) {
	// Half the levels are invalid at first, so their conversations have a re-ask (turn 1),
	// whose request the refill rebuilds from the opening, the reply and the re-ask.
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		asked := false
		for _, m := range c.Request.Messages {
			asked = asked || m.Role == RoleAssistant
		}
		if !asked && c.Request.Seed != nil && *c.Request.Seed%2 == 0 {
			return llmtest.Reply{Content: "no level, sorry"}
		}
		return toyHandler(c, seen)
	})
	defer srv.Close()
	cache := t.TempDir()
	for i := 0; i < 256; i++ {
		os.WriteFile(filepath.Join(cache, fmt.Sprintf("%02x", i)), nil, 0o644)
	}
	c := newTestClient(t, testConfig(srv, cache))
	dir := filepath.Join(t.TempDir(), "run")
	_, err := execute(context.Background(), dir, newToyGenerator(t, c, toyOptions(3)), 1, nil)
	if err == nil || !strings.Contains(err.Error(), "replies received could not be written to the response cache") {
		t.Fatalf("error %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, experiment.FinalFile)); err == nil {
		t.Fatal("final.json written although the cache lost replies")
	}
	calls := len(srv.Calls())
	if _, err := execute(context.Background(), dir, newToyGenerator(t, c, toyOptions(3)), 1, nil); err == nil ||
		!strings.Contains(err.Error(), "could not be written to the response cache") {
		t.Fatalf("a rerun with the cache still full: %v", err)
	}
	// The disk has room again.
	for i := 0; i < 256; i++ {
		os.Remove(filepath.Join(cache, fmt.Sprintf("%02x", i)))
	}
	if _, err := execute(context.Background(), dir, newToyGenerator(t, c, toyOptions(3)), 1, nil); err != nil {
		t.Fatal(err)
	}
	if len(srv.Calls()) != calls {
		t.Fatal("finishing the folder asked the server again")
	}
	reasked := 0
	for _, c := range srv.Calls() {
		if len(c.Request.Messages) > 2 {
			reasked++
		}
	}
	if reasked == 0 {
		t.Fatal("no conversation had a re-ask")
	}
	offline := testConfig(srv, cache)
	offline.Offline = true
	oc := newTestClient(t, offline)
	if _, err := execute(context.Background(), filepath.Join(t.TempDir(), "replay"), newToyGenerator(t, oc, toyOptions(3)), 1, nil); err != nil {
		t.Fatalf("--offline replay after the refill: %v", err)
	}
	if len(srv.Calls()) != calls {
		t.Fatal("the offline replay asked the server")
	}
}

// A second writer of an LLM run folder is refused with the holder's pid before any request.
func TestSecondLLMWriterIsRefused(t *testing.T) {
	srv := llmtest.New(toyHandler)
	defer srv.Close()
	c := newTestClient(t, testConfig(srv, t.TempDir()))
	dir := filepath.Join(t.TempDir(), "run")
	os.MkdirAll(dir, 0o755)
	held, err := folderlock.Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	_, err = execute(context.Background(), dir, newToyGenerator(t, c, toyOptions(3)), 0, nil)
	var he *folderlock.HeldError
	if !errors.As(err, &he) || he.PID != os.Getpid() {
		t.Fatalf("second writer: %v", err)
	}
	if len(srv.Calls()) != 0 {
		t.Fatal("a refused writer asked the server")
	}
}

func FuzzReadUsage(f *testing.F) {
	f.Add([]byte(`{"model":"m","key":"k","cached":false,"prompt_tokens":3,"completion_tokens":4,"total_tokens":7,"cost":0.1,"attempts":1,"latency_ms":3}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), UsageFile)
		os.WriteFile(path, data, 0o644)
		tot, err := ReadUsage(path)
		if err == nil && (tot.Cost < 0 || tot.Usage.TotalTokens < 0) {
			t.Fatal("accepted negative totals")
		}
	})
}

// A refused request (401) stops the batch from sending more, but the requests already in
// flight run to their answer and are cached: a rerun does not ask them again (a server bills
// what it has started to answer).
func TestInFlightAnswersAtARefusalAreKept(t *testing.T) {
	var refused atomic.Bool
	var n atomic.Int32
	var mu sync.Mutex
	seen := map[string]int{}
	srv := llmtest.New(func(c llmtest.Call, s int) llmtest.Reply {
		key := c.Prompt() + fmt.Sprint(*c.Request.Seed)
		mu.Lock()
		seen[key]++
		mu.Unlock()
		if refused.Load() && n.Add(1) == 1 {
			return llmtest.Reply{Status: 401}
		}
		r := toyHandler(c, s)
		if refused.Load() {
			r.Delay = 100 * time.Millisecond // still in flight when the 401 arrives
		}
		return r
	})
	defer srv.Close()
	cfg := testConfig(srv, t.TempDir())
	cfg.Concurrency = 4
	c := newTestClient(t, cfg)
	dir := filepath.Join(t.TempDir(), "run")
	refused.Store(true)
	if _, err := execute(context.Background(), dir, newToyGenerator(t, c, toyOptions(4)), 0, nil); err == nil {
		t.Fatal("the refusal did not stop the run")
	}
	refused.Store(false)
	if _, err := execute(context.Background(), dir, newToyGenerator(t, c, toyOptions(4)), 0, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	twice := 0
	for _, k := range seen {
		if k > 1 {
			twice++
		}
	}
	if twice > 1 { // the refused request itself is asked again, nothing else
		t.Fatalf("%d requests reached the server twice", twice)
	}
}

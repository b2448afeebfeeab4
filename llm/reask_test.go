package llm

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"pcgwb/llm/llmtest"
)

// TestReaskInvalidReplacesCachedInvalidReplies: an invalid reply cached by an earlier run is
// replayed as it is by default, asked again with ReaskInvalid (the new, valid answer replacing
// the cached one), and a later plain run replays the good answer.
func TestReaskInvalidReplacesCachedInvalidReplies(t *testing.T) {
	var prose atomic.Bool
	prose.Store(true)
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		if prose.Load() {
			return llmtest.Reply{Content: "I would rather not."}
		}
		return toyHandler(c, seen)
	})
	defer srv.Close()
	cache := t.TempDir()
	opts := toyOptions(2)
	opts.MaxRepairs = 0
	run := func(reask, offline bool) (Stats, error) {
		cfg := testConfig(srv, cache)
		cfg.ReaskInvalid, cfg.Offline = reask, offline
		g := newToyGenerator(t, newTestClient(t, cfg), opts)
		err := g.Reset(context.Background())
		return g.Stats(), err
	}
	for _, tc := range []struct {
		name             string
		reask, offline   bool
		wantValid, calls int
		wantCached       int
		wantErr          error
	}{
		{"first run caches prose", false, false, 0, 2, 0, nil},
		{"replayed as it is", false, false, 0, 2, 2, nil},
		{"offline cannot ask again", true, true, 0, 2, 0, ErrOfflineMiss},
		{"asked again", true, false, 2, 4, 0, nil},
		{"the good answers replace the cached prose", false, false, 2, 4, 2, nil},
	} {
		if tc.name == "asked again" {
			prose.Store(false)
		}
		st, err := run(tc.reask, tc.offline)
		if tc.wantErr != nil {
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("%s: error %v, want %v", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if st.Valid != tc.wantValid || st.Cached != tc.wantCached || len(srv.Calls()) != tc.calls {
			t.Fatalf("%s: stats %+v, %d calls; want %d valid, %d cached, %d calls", tc.name, st, len(srv.Calls()), tc.wantValid, tc.wantCached, tc.calls)
		}
	}
}

// TestRefreshKeysAskAgainOnlyThoseReplies: Config.RefreshKeys (the GUI's "Ask again") sends
// exactly the named cached requests to the server again, replays the others, fails offline,
// and the new answers replace the cached ones.
func TestRefreshKeysAskAgainOnlyThoseReplies(t *testing.T) {
	srv := llmtest.New(toyHandler)
	defer srv.Close()
	cache := t.TempDir()
	opts := toyOptions(3)
	var keys []string
	run := func(refresh map[string]bool, offline bool) (Stats, error) {
		cfg := testConfig(srv, cache)
		cfg.RefreshKeys, cfg.Offline = refresh, offline
		g := newToyGenerator(t, newTestClient(t, cfg), opts)
		keys = keys[:0]
		var mu sync.Mutex // replies arrive from the items' goroutines
		g.OnReply = func(ev ReplyEvent) {
			mu.Lock()
			defer mu.Unlock()
			if ev.Cached {
				keys = append(keys, ev.Key)
			}
		}
		err := g.Reset(context.Background())
		return g.Stats(), err
	}
	if _, err := run(nil, false); err != nil {
		t.Fatal(err)
	}
	st, err := run(nil, false)
	if err != nil || st.Cached != 3 || len(keys) != 3 || len(srv.Calls()) != 3 {
		t.Fatalf("replay: %+v %v, %d cached keys, %d calls", st, err, len(keys), len(srv.Calls()))
	}
	again := map[string]bool{keys[0]: true}
	tests := []struct {
		name              string
		refresh           map[string]bool
		offline           bool
		wantCached, calls int
		wantErr           error
	}{
		{"offline cannot ask again", again, true, 0, 3, ErrOfflineMiss},
		{"one asked again", again, false, 2, 4, nil},
		{"the new answer is cached", nil, false, 3, 4, nil},
		{"an unknown key changes nothing", map[string]bool{"no such key": true}, false, 3, 4, nil},
	}
	for _, tc := range tests {
		st, err := run(tc.refresh, tc.offline)
		if tc.wantErr != nil {
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("%s: error %v, want %v", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || st.Cached != tc.wantCached || len(srv.Calls()) != tc.calls {
			t.Fatalf("%s: %+v %v, %d calls; want %d cached, %d calls", tc.name, st, err, len(srv.Calls()), tc.wantCached, tc.calls)
		}
	}
}

package llm

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"pcgwb/games/duel"
	"pcgwb/games/duel/llmplay"
	"pcgwb/games/duel/script"
	"pcgwb/llm/llmtest"
)

// firstLegalMove answers a duel turn with the first move of its legal list, after a chatty,
// unusable reply on the first attempt of each conversation.
func firstLegalMove(c llmtest.Call, seen int) llmtest.Reply {
	if seen == 0 {
		return llmtest.Reply{Content: "I would take the centre."}
	}
	_, after, ok := strings.Cut(c.LastUser(), "Your legal moves: ")
	if !ok {
		return llmtest.Reply{Content: "no moves?"}
	}
	after = strings.TrimLeft(after, "[")
	end := strings.IndexFunc(after, func(r rune) bool { return r < '0' || r > '9' })
	return llmtest.Reply{Content: after[:end]}
}

func TestDuelAskerRetriesAreNotServedFromTheCache(t *testing.T) {
	srv := llmtest.New(firstLegalMove)
	defer srv.Close()
	client := newTestClient(t, testConfig(srv, t.TempDir()))
	g, err := script.LoadBuiltin("tic-tac-toe", script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	sess, err := duel.NewSession(g, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	turn, err := sess.Turn()
	if err != nil {
		t.Fatal(err)
	}
	p := &llmplay.LLMPlayer{Model: "test-model", Ask: &DuelAsker{Client: client}}
	a, err := p.Act(context.Background(), g, turn, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if a != turn.Legal[0] {
		t.Errorf("played %d, want %d", a, turn.Legal[0])
	}
	calls := srv.Calls()
	if len(calls) != 2 {
		t.Fatalf("%d calls, want 2 (a bad reply, then the retry)", len(calls))
	}
	m := calls[0].Request.Messages
	if len(m) != 2 || m[0].Role != RoleSystem || !strings.Contains(m[0].Content, "rules") || m[1].Role != RoleUser {
		t.Errorf("want a fresh system + user conversation, got %+v", m)
	}
	// The same turn again with the same seat seed is answered from the cache, bad reply included.
	a2, err := p.Act(context.Background(), g, turn, rand.New(rand.NewPCG(1, 2)))
	if err != nil || a2 != a || len(srv.Calls()) != 2 {
		t.Fatalf("replay: move %d, err %v, %d calls", a2, err, len(srv.Calls()))
	}
	if tot := client.Totals(); tot.CacheHits != 2 {
		t.Errorf("%d cache hits, want 2", tot.CacheHits)
	}
}

func TestDuelAskerReportsOfflineMisses(t *testing.T) {
	srv := llmtest.New(firstLegalMove)
	defer srv.Close()
	cfg := testConfig(srv, t.TempDir())
	cfg.Offline = true
	var fatal error
	asker := &DuelAsker{Client: newTestClient(t, cfg), OnFatal: func(err error) { fatal = err }}
	_, err := asker.Ask(context.Background(), llmplay.Query{User: "move?", Sample: 3})
	if !errors.Is(err, ErrOfflineMiss) || !errors.Is(fatal, ErrOfflineMiss) {
		t.Fatalf("err %v, fatal %v", err, fatal)
	}
	if len(srv.Calls()) != 0 {
		t.Error("offline mode called the server")
	}
}

// TestDuelAskerDeadEndpointIsFatal: a request that cannot be made is the run's error, not
// the model's fault.
func TestDuelAskerDeadEndpointIsFatal(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
	}{{"unauthorised", 401}, {"dead", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(func(llmtest.Call, int) llmtest.Reply { return llmtest.Reply{Status: tc.status} })
			cfg := testConfig(srv, "")
			if tc.status == 0 {
				srv.Close() // nothing listens any more
			} else {
				defer srv.Close()
			}
			var fatal error
			asker := &DuelAsker{Client: newTestClient(t, cfg), OnFatal: func(err error) { fatal = err }}
			if _, err := asker.Ask(context.Background(), llmplay.Query{User: "move?"}); err == nil || fatal == nil {
				t.Fatalf("err %v, fatal %v", err, fatal)
			}
		})
	}
}

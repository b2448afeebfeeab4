package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"pcgwb/internal/folderlock"
	"pcgwb/llm/llmtest"
)

func birdsAnswer(c llmtest.Call) string {
	return fmt.Sprintf("Here you go (%d turns):\n```\ndrop_block('b11', 3)\n# %s\n```", len(c.Request.Messages), c.LastUser())
}

func TestBirdsSingleTurnLayoutAndQuotes(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply { return llmtest.Reply{Content: birdsAnswer(c)} })
	defer srv.Close()
	root := t.TempDir()
	c := newTestClient(t, testConfig(srv, filepath.Join(root, "cache")))
	out := filepath.Join(root, "out")
	opts := BirdsOptions{Team: "myteam", Turns: []string{"Build the letter <OBJECT> now. <OBJECT>!"}, Letters: []string{"A", "B"},
		Trials: 3, QuoteLetter: true, Out: out}
	rep, err := RunBirdsPrompts(context.Background(), c, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Written != 6 || rep.Failed != 0 || len(srv.Calls()) != 6 {
		t.Fatalf("report %+v, %d calls", rep, len(srv.Calls()))
	}
	for _, l := range []string{"A", "B"} {
		for n := 1; n <= 3; n++ {
			path := filepath.Join(out, "myteam", "raw", l, fmt.Sprintf("myteam_%s_%d.txt", l, n))
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf(`Build the letter "%s" now. "%s"!`, l, l)
			if !strings.Contains(string(b), want) || !strings.HasPrefix(string(b), "Here you go (1 turns)") {
				t.Fatalf("%s: %q", path, b)
			}
		}
	}
	// The ten trials of a letter are ten requests even with one fixed seed.
	seeds := map[int]bool{}
	for _, call := range srv.Calls() {
		seeds[*call.Request.Seed] = true
	}
	if len(seeds) != 1 {
		t.Fatalf("seeds %v, want the configured one for every trial", seeds)
	}
	// A second run skips the trials already saved.
	rep, err = RunBirdsPrompts(context.Background(), c, opts)
	if err != nil || rep.Skipped != 6 || len(srv.Calls()) != 6 {
		t.Fatalf("%v %+v", err, rep)
	}
	if lines := readLines(t, filepath.Join(out, "logs", "myteam.jsonl")); len(lines) != 6 {
		t.Fatalf("%d log lines", len(lines))
	}
	// The run records what it asked and of whom, so that it can be repeated.
	b, err := os.ReadFile(BirdsConfigPath(out, "myteam"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg BirdsConfig
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Team != "myteam" || cfg.Trials != 3 || !cfg.QuoteLetter || len(cfg.Letters) != 2 || cfg.Turns[0] != opts.Turns[0] ||
		cfg.Endpoint.Model == "" || cfg.Endpoint.BaseURL != srv.BaseURL() {
		t.Fatalf("recorded config %+v", cfg)
	}
	if files := checkNoKey(t, root); files < 6+2+6 {
		t.Fatalf("only %d files written", files)
	}
}

func TestBirdsMultiTurnBareLetterAndSeeds(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply { return llmtest.Reply{Content: birdsAnswer(c)} })
	defer srv.Close()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "0.txt"), []byte("Make a structure like <OBJECT>."), 0o644)
	os.WriteFile(filepath.Join(dir, "1.txt"), []byte("Now output only the code."), 0o644)
	turns, err := LoadBirdsTurns(dir)
	if err != nil || len(turns) != 2 {
		t.Fatal(err, turns)
	}
	c := newTestClient(t, testConfig(srv, ""))
	out := t.TempDir()
	rep, err := RunBirdsPrompts(context.Background(), c, BirdsOptions{Team: TeamName(dir + "/"), Turns: turns, System: "You build.",
		Letters: []string{"Q"}, Trials: 2, Out: out, SeedPerTrial: true})
	if err != nil || rep.Written != 2 {
		t.Fatalf("%v %+v", err, rep)
	}
	calls := srv.Calls()
	if len(calls) != 4 {
		t.Fatalf("%d calls", len(calls))
	}
	seeds := map[int]bool{}
	for _, call := range calls {
		m := call.Request.Messages
		seeds[*call.Request.Seed] = true
		if m[0].Role != RoleSystem || m[1].Content != "Make a structure like Q." {
			t.Fatalf("conversation %+v", m)
		}
		if len(m) == 4 && (m[2].Role != RoleAssistant || m[3].Content != "Now output only the code.") {
			t.Fatalf("second turn %+v", m)
		}
	}
	if len(seeds) != 2 {
		t.Fatalf("seeds %v: want one per trial", seeds)
	}
	team := filepath.Base(dir)
	b, err := os.ReadFile(BirdsAnswerPath(out, team, "Q", 2))
	if err != nil || !strings.HasPrefix(string(b), "Here you go (4 turns)") || !strings.Contains(string(b), "Now output only the code.") {
		t.Fatalf("the saved answer is not the last turn's: %v %q", err, b)
	}
}

// TestBirdsStreamsEveryTurn: with OnDelta the replies stream, and each trial's last turn
// streamed is exactly the answer saved, live and again when replayed from the cache.
func TestBirdsStreamsEveryTurn(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply { return llmtest.Reply{Content: birdsAnswer(c)} })
	defer srv.Close()
	c := newTestClient(t, testConfig(srv, t.TempDir()))
	for _, round := range []string{"live", "cached"} {
		out := t.TempDir()
		var mu sync.Mutex
		streamed := map[string]string{} // letter/trial/turn → text of its last attempt
		attempts := map[string]int{}
		opts := BirdsOptions{Team: "s", Turns: []string{"Make <OBJECT>.", "Only code."}, Letters: []string{"A", "B"}, Trials: 2, Out: out,
			OnDelta: func(d BirdsDelta) {
				mu.Lock()
				defer mu.Unlock()
				k := fmt.Sprintf("%s/%d/%d", d.Letter, d.Trial, d.Turn)
				if a, ok := attempts[k]; !ok || a != d.Attempt {
					streamed[k], attempts[k] = "", d.Attempt
				}
				streamed[k] += d.Text
			}}
		if rep, err := RunBirdsPrompts(context.Background(), c, opts); err != nil || rep.Written != 4 {
			t.Fatalf("%s: %v %+v", round, err, rep)
		}
		if len(streamed) != 8 {
			t.Fatalf("%s: %d turns streamed, want 8", round, len(streamed))
		}
		for _, l := range []string{"A", "B"} {
			for n := 1; n <= 2; n++ {
				b, err := os.ReadFile(BirdsAnswerPath(out, "s", l, n))
				if err != nil || streamed[fmt.Sprintf("%s/%d/1", l, n)] != string(b) {
					t.Fatalf("%s %s trial %d: streamed %q, saved %q (%v)", round, l, n, streamed[fmt.Sprintf("%s/%d/1", l, n)], b, err)
				}
			}
		}
	}
	if len(srv.Calls()) != 8 {
		t.Fatalf("%d calls: the replay was not served from the cache", len(srv.Calls()))
	}
}

func TestBirdsFailuresAndLimits(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply {
		if strings.Contains(c.LastUser(), "B") {
			return llmtest.Reply{Status: http.StatusBadRequest}
		}
		return llmtest.Reply{Content: birdsAnswer(c)}
	})
	defer srv.Close()
	c := newTestClient(t, testConfig(srv, t.TempDir()))
	out := t.TempDir()
	rep, err := RunBirdsPrompts(context.Background(), c, BirdsOptions{Team: "t", Turns: []string{"letter <OBJECT>"},
		Letters: []string{"A", "B"}, Trials: 2, Out: out})
	if err != nil || rep.Written != 2 || rep.Failed != 2 {
		t.Fatalf("%v %+v", err, rep)
	}
	if _, err := os.Stat(BirdsAnswerPath(out, "t", "B", 1)); err == nil {
		t.Fatal("a failed trial wrote an answer")
	}
	rep, err = RunBirdsPrompts(context.Background(), c, BirdsOptions{Team: "u", Turns: []string{"letter <OBJECT>"},
		Letters: []string{"A"}, Trials: 1, Out: out, TokenLimit: 5})
	if err != nil || rep.Failed != 1 || !strings.Contains(rep.Trials[0].Error, "token limit") {
		t.Fatalf("%v %+v", err, rep)
	}
	// Offline misses stop the run rather than passing for failed trials.
	cfg := testConfig(srv, t.TempDir())
	cfg.Offline = true
	_, err = RunBirdsPrompts(context.Background(), newTestClient(t, cfg), BirdsOptions{Team: "v", Turns: []string{"<OBJECT>"}, Letters: []string{"A"}, Out: out})
	if !errors.Is(err, ErrOfflineMiss) {
		t.Fatalf("offline: %v", err)
	}
	for _, bad := range []BirdsOptions{
		{Team: "logs", Turns: []string{"<OBJECT>"}, Out: out},
		{Team: ".x", Turns: []string{"<OBJECT>"}, Out: out},
		{Team: "a/b", Turns: []string{"<OBJECT>"}, Out: out},
		{Team: "t", Turns: []string{"no placeholder"}, Out: out},
		{Team: "t", Out: out},
	} {
		if _, err := RunBirdsPrompts(context.Background(), c, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestParseLetters(t *testing.T) {
	cases := map[string]string{"A-Z": strings.Join(AllLetters(), ""), "a-c": "ABC", "A,C,E-G": "ACEFG", "ZYX": "XYZ", "B, b": "B"}
	for in, want := range cases {
		got, err := ParseLetters(in)
		if err != nil || strings.Join(got, "") != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "A-", "Z-A", "1", "A-Z,?"} {
		if _, err := ParseLetters(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A prompt run is the competition folder's one writer: while another process holds the folder,
// nothing is asked or written.
func TestBirdsRefusesLockedFolder(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply { return llmtest.Reply{Content: birdsAnswer(c)} })
	defer srv.Close()
	root := t.TempDir()
	c := newTestClient(t, testConfig(srv, filepath.Join(root, "cache")))
	out := filepath.Join(root, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := folderlock.Acquire(out)
	if err != nil {
		t.Fatal(err)
	}
	opts := BirdsOptions{Team: "t", Turns: []string{"Build <OBJECT>."}, Letters: []string{"A"}, Trials: 1, Out: out}
	if _, err := RunBirdsPrompts(context.Background(), c, opts); !errors.Is(err, folderlock.ErrHeld) {
		t.Fatalf("got %v, want the folder refused", err)
	}
	if _, err := os.Stat(BirdsAnswerPath(out, "t", "A", 1)); err == nil {
		t.Fatal("an answer was written into a locked folder")
	}
	lock.Release()
	if rep, err := RunBirdsPrompts(context.Background(), c, opts); err != nil || rep.Written != 1 {
		t.Fatalf("after release: %+v %v", rep, err)
	}
}

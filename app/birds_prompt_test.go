package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pcgwb/assets"
	"pcgwb/games/birds"
	"pcgwb/llm"
	"pcgwb/llm/llmtest"
)

// towerAnswer is a model's answer: prose around a code block that builds a tall post.
const towerAnswer = "Here is the letter:\n```\ndrop_block('b13', 10)\ndrop_block('b13', 10)\n```\nIt should stand."

func newBirdsPromptPanel(t *testing.T, srv *llmtest.Server) (*birdsPanel, string) {
	t.Helper()
	p := newTestBirdsPanel(t)
	lp := p.wb.llm()
	if lp == nil {
		t.Fatal("no LLM tab")
	}
	lp.baseURL.SetText(srv.BaseURL())
	lp.model.SetText("birds-test-model")
	lp.apiKey.SetText(llmTestKey)
	root := t.TempDir()
	p.wb.outputDirOverride = root
	t.Cleanup(func() { p.folder.Cancel(); settle(t, p.wait) })
	return p, root
}

// runPrompt calls RunPrompt as the UI goroutine (the test) would.
func runPrompt(p *birdsPanel, req birdsPromptRequest) error { return p.runPrompt(req) }

func TestBirdsPromptRunsRanksAndCaches(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply {
		if strings.Contains(c.LastUser(), "Only the code") {
			return llmtest.Reply{Content: towerAnswer}
		}
		return llmtest.Reply{Content: "Let me think about the shape first."}
	})
	defer srv.Close()
	p, root := newBirdsPromptPanel(t, srv)
	req := birdsPromptRequest{turns: []string{"Build the letter <OBJECT> from blocks.", "Only the code, please."},
		team: "gui", letters: []string{"I", "L"}, trials: 2}
	busy := false
	if err := p.runPrompt(req); err != nil {
		t.Error(err)
	}
	busy = p.promptButton.Disabled() && p.evaluateButton.Disabled() && !p.cancelButton.Disabled()
	if !busy {
		t.Fatal("the buttons do not show the run")
	}
	await(t, p.wait)
	eventually(t, "the ranking", func() bool { return len(p.ranking) == 1 && !p.promptButton.Disabled() })

	out := filepath.Join(root, "birds-gui")
	for _, l := range []string{"I", "L"} {
		for n := 1; n <= 2; n++ {
			b, err := os.ReadFile(llm.BirdsAnswerPath(out, "gui", l, n))
			if err != nil || string(b) != towerAnswer {
				t.Fatalf("%s trial %d: %q %v", l, n, b, err)
			}
		}
	}
	calls := srv.Calls()
	if len(calls) != 8 { // 2 letters × 2 trials × 2 turns
		t.Fatalf("%d calls, want 8", len(calls))
	}
	for _, c := range calls {
		if prompt := c.Prompt(); strings.Contains(prompt, llm.ObjectPlaceholder) || !strings.Contains(prompt, "Build the letter") {
			t.Fatalf("prompt sent: %q", prompt)
		}
	}
	if p.ranking[0][1] != "gui" || p.team.Selected != "gui" {
		t.Fatalf("ranking %v, team %q", p.ranking, p.team.Selected)
	}
	if !strings.Contains(p.progressLabel.Text, "4 answers written") || !strings.Contains(p.progressLabel.Text, "competition score") {
		t.Fatalf("progress line %q", p.progressLabel.Text)
	}
	if !strings.Contains(p.program.Text, "drop_block") {
		t.Fatalf("no answer shown in the level view: %q", p.program.Text)
	}
	for _, f := range []string{llm.BirdsConfigPath(out, "gui"), filepath.Join(out, "result", "prompt_scores_ranks.csv")} {
		if _, err := os.Stat(f); err != nil {
			t.Fatal(err)
		}
	}

	// The same prompt into another folder is answered from the cache: no new request.
	req.out = filepath.Join(root, "again")
	if err := runPrompt(p, req); err != nil {
		t.Fatal(err)
	}
	await(t, p.wait)
	eventually(t, "the second ranking", func() bool { return len(p.ranking) == 1 && !p.promptButton.Disabled() })
	if len(srv.Calls()) != 8 || !strings.Contains(p.progressLabel.Text, "(8 cached)") {
		t.Fatalf("%d calls after the replay; %q", len(srv.Calls()), p.progressLabel.Text)
	}
	if files := checkNoKeyIn(t, root); files < 2*(4+2)+1 {
		t.Fatalf("only %d files written", files)
	}
}

func TestBirdsPromptRefusesBadRequests(t *testing.T) {
	srv := llmtest.New(llmtest.Text(towerAnswer))
	defer srv.Close()
	p, _ := newBirdsPromptPanel(t, srv)
	good := birdsPromptRequest{turns: []string{"Build <OBJECT>."}, team: "ok", letters: []string{"A"}, trials: 1}
	cases := []struct {
		name string
		edit func(*birdsPromptRequest)
		want string
	}{
		{"no placeholder", func(r *birdsPromptRequest) { r.turns = []string{"Build a letter."} }, llm.ObjectPlaceholder},
		{"reserved team", func(r *birdsPromptRequest) { r.team = "result" }, "reserved"},
		{"path in team", func(r *birdsPromptRequest) { r.team = "a/../../x" }, "plain folder name"},
		{"rules", func(r *birdsPromptRequest) { r.edition = 2022 }, "rules"},
	}
	for _, c := range cases {
		r := good
		c.edit(&r)
		if err := runPrompt(p, r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	p.wb.llm().model.SetText("")
	if err := runPrompt(p, good); err == nil || !strings.Contains(err.Error(), "model") {
		t.Errorf("no model: %v", err)
	}
	if len(srv.Calls()) != 0 || p.folder.busy() {
		t.Fatal("a refused request reached the model")
	}
}

func TestBirdsPromptForm(t *testing.T) {
	srv := llmtest.New(llmtest.Text(towerAnswer))
	defer srv.Close()
	p, _ := newBirdsPromptPanel(t, srv)
	f := p.newPromptForm()
	if f.prompt.Text != assets.BirdsPrompt() || !strings.Contains(f.prompt.Text, llm.ObjectPlaceholder) {
		t.Fatal("the form does not start from the built-in prompt")
	}
	if !strings.Contains(f.endpoint.Text, "birds-test-model") {
		t.Fatalf("endpoint %q", f.endpoint.Text)
	}
	// The Rules chooser lists the editions table, starting on the default edition.
	var names []string
	for _, r := range birds.Editions() {
		names = append(names, r.Name)
	}
	if strings.Join(f.edition.Options, ",") != strings.Join(names, ",") || f.edition.Selected != birds.DefaultEdition.Rules().Name {
		t.Fatalf("rules %v (%q), want %v", f.edition.Options, f.edition.Selected, names)
	}
	f.letters.SetText("A, C-D")
	f.trials.SetText("3")
	f.edition.SetSelected("2023")
	f.followUps.SetText("Now only code.\n---\n\n ----- \nCheck the bottom row.\n")
	f.team.SetText("workbenchx")
	r, err := f.request()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.letters, "") != "ACD" || r.trials != 3 || r.edition != birds.Edition2023 || r.team != "workbenchx" ||
		len(r.turns) != 3 || r.turns[1] != "Now only code." || r.turns[2] != "Check the bottom row." {
		t.Fatalf("request %+v", r)
	}
	// The form remembers what was typed.
	if g := p.newPromptForm(); g.letters.Text != "A, C-D" || g.edition.Selected != "2023" || g.team.Text != "workbenchx" {
		t.Fatalf("not remembered: %q %q %q", g.letters.Text, g.edition.Selected, g.team.Text)
	}
	f.trials.SetText("0")
	if _, err := f.request(); err == nil {
		t.Fatal("0 trials accepted")
	}
}

// TestReplyFollowerShowsOneTrialAtATime: the level view follows one trial's stream, starts a
// retry over, shows the whole final reply when the trial ends, then follows the next trial from
// the start of its reply.
func TestReplyFollowerShowsOneTrialAtATime(t *testing.T) {
	var shown []string
	f := &replyFollower{show: func(s string) { shown = append(shown, s) }}
	last := func() string { return shown[len(shown)-1] }
	f.delta(llm.BirdsDelta{Letter: "A", Trial: 1, Attempt: 1, Text: "partial "})
	f.delta(llm.BirdsDelta{Letter: "B", Trial: 1, Attempt: 1, Text: "bee "})
	if len(shown) != 1 || last() != "partial " {
		t.Fatalf("shown %q", shown)
	}
	f.delta(llm.BirdsDelta{Letter: "A", Trial: 1, Attempt: 2, Text: "drop_block('b11', 3)"}) // a retry starts over
	f.delta(llm.BirdsDelta{Letter: "B", Trial: 1, Attempt: 1, Text: "buzz"})
	f.ended(llm.TrialResult{Letter: "A", Trial: 1})
	if last() != "drop_block('b11', 3)" {
		t.Fatalf("the end shows %q, want the retried reply", last())
	}
	f.lastShown = time.Time{} // the refresh interval has passed
	f.delta(llm.BirdsDelta{Letter: "B", Trial: 1, Attempt: 1, Text: "!"})
	if last() != "bee buzz!" {
		t.Fatalf("the next trial shows %q, want its whole reply", last())
	}
	f.ended(llm.TrialResult{Letter: "C", Trial: 2}) // not followed: nothing shown
	if last() != "bee buzz!" || f.followed != "B/1" {
		t.Fatalf("shown %q, following %q", shown, f.followed)
	}
}

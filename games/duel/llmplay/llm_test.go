package llmplay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"pcgwb/games/duel/validate"
	"strings"
	"sync"
	"testing"
)

// scripted is a fake model: it answers from a list, then repeats the last answer, and records
// the conversations it was given.
type scripted struct {
	mu      sync.Mutex
	replies []string
	systems []string
	users   []string
	samples []int
}

func (s *scripted) Ask(_ context.Context, q Query) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.systems = append(s.systems, q.System)
	s.users = append(s.users, q.User)
	s.samples = append(s.samples, q.Sample)
	r := s.replies[min(len(s.users)-1, len(s.replies)-1)]
	if r == "ERROR" {
		return "", errors.New("server down")
	}
	return r, nil
}

func TestParseMoveIsDigitsOnly(t *testing.T) {
	for reply, want := range map[string]int{"3": 3, "017": 17, "12": 12} {
		if got, ok := ParseMove(reply); !ok || got != want {
			t.Errorf("%q: %d %v", reply, got, ok)
		}
	}
	for _, bad := range []string{"", "3\n", " 3", "-1", "3.", "Move: 3", "three", "١", "+4", "9999999999"} {
		if _, ok := ParseMove(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestLLMPlayerProtocol(t *testing.T) {
	g := loadBuiltin(t, "divisor-duel")
	sess, _ := duel.NewSession(g, 0, 0)
	tu, _ := sess.Turn()
	model := &scripted{replies: []string{"Move: 15", "7", "15\n", "15"}}
	p := &LLMPlayer{Model: "fake", Ask: model, Actions: "Action d subtracts d."}
	a, err := p.Act(context.Background(), g, tu, duel.SeatRNG(1, 2, 0))
	if err != nil || a != 15 {
		t.Fatalf("move %d, %v", a, err)
	}
	if len(model.users) != 4 {
		t.Fatalf("%d attempts, want 4 (two unparseable, one illegal, one good)", len(model.users))
	}
	if s := model.samples; s[1] != s[0]+1 || s[3] != s[0]+3 {
		t.Errorf("samples %v: the identical retries must be told apart", s)
	}
	for i := 1; i < 4; i++ {
		if model.users[i] != model.users[0] || model.systems[i] != model.systems[0] {
			t.Fatal("a retry changed the prompt; gg-bench resends it unchanged")
		}
	}
	sys, user := model.systems[0], model.users[0]
	for _, want := range []string{"two-player game", "proper divisor", "Action d subtracts d."} {
		if !strings.Contains(sys, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, sys)
		}
	}
	for _, want := range []string{"N = 60", "[2, 3, 4, 5, 6, 10, 12, 15, 20, 30]", "nothing else"} {
		if !strings.Contains(user, want) {
			t.Errorf("turn prompt lacks %q:\n%s", want, user)
		}
	}
}

func TestLLMPlayerFaultsAfterFiveAttempts(t *testing.T) {
	g := loadBuiltin(t, "nim")
	sess, _ := duel.NewSession(g, 0, 0)
	tu, _ := sess.Turn()
	model := &scripted{replies: []string{"I take a stone", "ERROR", "99"}}
	_, err := (&LLMPlayer{Ask: model}).Act(context.Background(), g, tu, nil)
	f := core.FaultOf(err)
	if f == nil || f.Kind != core.FaultAgent || len(model.users) != DefaultRetries {
		t.Fatalf("got %v after %d attempts", err, len(model.users))
	}
	// without an action text the turn prompt names every legal move
	if !strings.Contains(model.users[0], "0 (take 1 stone from heap 0)") {
		t.Errorf("turn prompt:\n%s", model.users[0])
	}
	// in a game the fault is the model's, not the game's
	res, _ := duel.Play(context.Background(), g, [2]core.Agent{&LLMPlayer{Ask: &scripted{replies: []string{"x"}}}, agents.Random{}}, 0, 0, [2]*rand.Rand{duel.SeatRNG(0, 0, 0), duel.SeatRNG(0, 0, 1)})
	if res.Fault == nil || res.FaultBy != 0 {
		t.Errorf("result %+v, want a fault by player 0", res)
	}
}

func TestLLMPlayerOptions(t *testing.T) {
	g := loadBuiltin(t, "take-away")
	sess, _ := duel.NewSession(g, 0, 0)
	tu, _ := sess.Turn()
	forced := playLabels(t, g, "take 3", "take 3", "take 3", "take 3", "take 3", "take 3", "take 2")
	ft, _ := forced.Turn() // one stone left: one legal move
	model := &scripted{replies: []string{" 2\n", "5", "1"}}
	p := &LLMPlayer{Ask: model, TrimReply: true, MergeSystem: true, Feedback: true, ShowLabels: true, Actions: "a takes a+1"}
	if a, err := p.Act(context.Background(), g, ft, nil); err != nil || a != 0 || len(model.users) != 0 {
		t.Fatalf("forced move %d, %v, %d questions", a, err, len(model.users))
	}
	if a, err := p.Act(context.Background(), g, tu, nil); err != nil || a != 2 {
		t.Fatalf("trimmed reply gave %d, %v", a, err)
	}
	if model.systems[0] != "" || !strings.Contains(model.users[0], "two-player game") || !strings.Contains(model.users[0], "2 (take 3)") {
		t.Errorf("merged prompt:\n%s", model.users[0])
	}
	model.replies, model.users, model.systems = []string{"5", "1"}, nil, nil
	if a, err := p.Act(context.Background(), g, tu, nil); err != nil || a != 1 {
		t.Fatalf("got %d, %v", a, err)
	}
	if !strings.Contains(model.users[1], "5 is not a legal move") {
		t.Errorf("no feedback on the retry:\n%s", model.users[1])
	}
}

// firstNumber is a fake model that always answers the first legal move of the prompt.
func firstNumber(_ context.Context, q Query) (string, error) {
	i := strings.Index(q.User, "[")
	j := strings.IndexAny(q.User[i:], ",]")
	return q.User[i+1 : i+j], nil
}

func TestEvaluateAlternatesSeatsAndScores(t *testing.T) {
	g := loadBuiltin(t, "take-away")
	llm := &LLMPlayer{Model: "first-number", Ask: AskFunc(firstNumber), Actions: "a takes a+1 stones"}
	r, err := Evaluate(context.Background(), g, llm, &agents.MCTS{Iterations: 50}, EvalOptions{Games: 6})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Games) != 6 || !r.Games[0].LLMFirst || r.Games[1].LLMFirst {
		t.Fatalf("seats %+v", r.Games)
	}
	if r.LLMWins+r.AgentWins+r.Draws+r.LLMFaults+r.AgentFaults+r.EnvFaults+r.Truncated != 6 {
		t.Fatalf("counts do not add up: %+v", r)
	}
	if r.AgentWins < 4 {
		t.Errorf("taking one stone every time won %d of 6 against MCTS", r.LLMWins)
	}
}

func TestScoresAsGGBenchAndStrict(t *testing.T) {
	r := &EvalResult{LLMWins: 3, AgentWins: 4, Draws: 1, LLMFaults: 2, EnvFaults: 2}
	if rate, ok := r.WinRate(); !ok || math.Abs(rate-3.0/10) > 1e-12 {
		t.Errorf("gg-bench rate %v (faults left out, env faults as draws)", rate)
	}
	if rate, ok := r.StrictWinRate(); !ok || math.Abs(rate-3.0/10) > 1e-12 {
		t.Errorf("strict rate %v (model faults as losses, env faults left out)", rate)
	}
	allFaults := &EvalResult{LLMFaults: 30}
	if _, ok := allFaults.WinRate(); ok {
		t.Error("a game of only model faults has a gg-bench score")
	}
	if rate, ok := allFaults.StrictWinRate(); !ok || rate != 0 {
		t.Error("a game of only model faults scores 0 when strict")
	}
	s, err := Score([]*EvalResult{{LLMWins: 1, AgentWins: 1}, {LLMWins: 2}, {AgentWins: 2}, allFaults}, false)
	if err != nil {
		t.Fatal(err)
	}
	// rates 0.5, 1, 0: mean 0.5, sample sd 0.5, CI 1.96*0.5/sqrt(3)
	if s.N != 3 || math.Abs(s.Mean-0.5) > 1e-12 || math.Abs(s.CI95-1.96*0.5/math.Sqrt(3)) > 1e-12 {
		t.Errorf("score %+v", s)
	}
	if got := s.String(); got != "50.00 ± 56.58 over 3 games" {
		t.Errorf("%q", got)
	}
}

func TestExtractCode(t *testing.T) {
	reply := "Here it is:\n```python\nA = 1\n```\nand\n```\nB = 2\n```\n"
	code, ok := ExtractCode(reply)
	if !ok || code != "A = 1\n\nB = 2\n" {
		t.Fatalf("%q %v", code, ok)
	}
	if _, ok := ExtractCode("no code"); ok {
		t.Error("found code in plain text")
	}
}

func TestGeneratorRepairsAndDescribes(t *testing.T) {
	broken := gameSource("", map[string]string{"legal_actions": "return [1, 0]"})
	fixed := gameSource("", nil)
	model := &scripted{replies: []string{
		"# Race to Five\n## Objective\nReach five first.",
		"```python\n" + broken + "```",
		"Fixed:\n```python\n" + fixed + "```",
		"Action 0 adds 1, action 1 adds 2.",
	}}
	gen := &Generator{Ask: model, Validate: validate.Options{Playouts: 20, SkipSkill: true}}
	out, err := gen.Generate(context.Background(), "race")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Accepted || len(out.Attempts) != 2 || out.ActionText != "Action 0 adds 1, action 1 adds 2." {
		t.Fatalf("%+v", out)
	}
	if out.Attempts[0].Report.Rejected != validate.FilterExecution {
		t.Errorf("first attempt rejected by %q", out.Attempts[0].Report.Rejected)
	}
	repair := model.users[2]
	for _, want := range []string{"Race to Five", "return [1, 0]", "not sorted", `"execution" check`} {
		if !strings.Contains(repair, want) {
			t.Errorf("repair prompt lacks %q", want)
		}
	}
	if !strings.Contains(model.users[0], "Objective") || !strings.Contains(model.users[1], "legal_actions(state)") {
		t.Error("the rulebook or implementation prompt lacks its parts")
	}
}

func TestGeneratorGivesUp(t *testing.T) {
	model := &scripted{replies: []string{"rules", "no code at all"}}
	out, err := (&Generator{Ask: model, MaxRepairs: 2}).Generate(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	if out.Accepted || len(out.Attempts) != 3 || out.Attempts[2].Report.Reason != "the reply has no fenced code block" {
		t.Fatalf("%+v", out)
	}
}

func TestDedupFindsTheSameGameUnderAnotherName(t *testing.T) {
	src, _ := script.BuiltinProgram("tic-tac-toe", script.Limits{})
	renamed := strings.NewReplacer("LINES_THROUGH", "THROUGH", "MARK", "SYMBOLS", `" ".join`, `"|".join`, "# Tic-tac-toe", "# Three in a row").Replace(string(src.Source()))
	var fps []*Fingerprint
	var sources []string
	for _, s := range []struct{ name, src string }{
		{"tic-tac-toe", string(src.Source())},
		{"renamed", renamed},
		{"nim", ""}, {"misere-nim", ""}, {"connect-four", ""},
	} {
		var g *script.ScriptGame
		var err error
		if s.src != "" {
			g, err = script.Load(s.name, []byte(s.src), script.Limits{})
		} else {
			g, err = script.LoadBuiltin(s.name, script.Limits{})
			s.src = string(g.Program().Source())
		}
		if err != nil {
			t.Fatal(err)
		}
		fp, err := FingerprintOf(context.Background(), g, 20)
		g.Close()
		if err != nil {
			t.Fatal(err)
		}
		fps = append(fps, fp)
		sources = append(sources, s.src)
	}
	if sim := Similarity(fps[0], fps[1]); sim != 1 {
		t.Errorf("renamed tic-tac-toe: similarity %.2f", sim)
	}
	if sim := Similarity(fps[2], fps[3]); sim > 0.5 {
		t.Errorf("nim and misere nim: similarity %.2f", sim)
	}
	if sim := SourceSimilarity(sources[0], sources[1]); sim < 0.9 {
		t.Errorf("renamed tic-tac-toe: source similarity %.2f", sim)
	}
	if sim := SourceSimilarity(sources[0], sources[4]); sim > 0.6 {
		t.Errorf("tic-tac-toe and connect four: source similarity %.2f", sim)
	}
	if kept := Dedup(fps, nil, 0); fmt.Sprint(kept) != "[0 2 3 4]" {
		t.Errorf("kept %v, want [0 2 3 4]", kept)
	}
}

package birds

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// letterClassifier is a deterministic test double: it favours the letter encoded in the image's
// black pixel count so different images get different softmax vectors.
type letterClassifier struct{ calls atomic.Int64 }

func (c *letterClassifier) Name() string { return "test" }

func (c *letterClassifier) Classify(_ context.Context, img image.Image) (*Classification, error) {
	c.calls.Add(1)
	var cl Classification
	k := MaskFromImage(img).Black() % 26
	for i := range cl.Probabilities {
		cl.Probabilities[i] = 0.5 / 25
	}
	cl.Probabilities[k] = 0.5
	return &cl, nil
}

func writeAnswer(t *testing.T, dir, team, letter string, n int, text string) {
	t.Helper()
	p := filepath.Join(dir, team, StageRaw, letter, fmt.Sprintf("%s_%s_%d.txt", team, letter, n))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func competitionFolder(t *testing.T) string {
	dir := t.TempDir()
	i := "Here:\n```python\ndrop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n```"
	l := "```\ndrop_block('b13', 3)\ndrop_block('b13', 3)\ndrop_block('b31', 5)\n```"
	for n := 1; n <= 3; n++ {
		writeAnswer(t, dir, "alpha", "I", n, i)
		writeAnswer(t, dir, "alpha", "L", n, l)
	}
	writeAnswer(t, dir, "alpha", "L", 4, "no code here")
	writeAnswer(t, dir, "alpha", "L", 5, "```\ndrop_block('b31', 19)\n```")
	writeAnswer(t, dir, "beta", "I", 1, i)
	writeAnswer(t, dir, "beta", "I", 2, l)
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestEvaluateFolder(t *testing.T) {
	dir := competitionFolder(t)
	var events []Event
	cl := &letterClassifier{}
	rep, err := Evaluate(context.Background(), dir, Options{Classifier: cl, Workers: 2, Progress: func(e Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	byStage := map[string]*StageReport{}
	for _, s := range rep.Stages {
		byStage[s.Stage] = s
	}
	if s := byStage["extract"]; s.Items != 10 || s.Written != 9 || len(s.Failures) != 1 || s.Failures[0].Err != "Code not found." {
		t.Fatalf("extract %+v", s)
	}
	if s := byStage["convert"]; s.Written != 8 || len(s.Failures) != 1 || s.Failures[0].Err != MsgWidth {
		t.Fatalf("convert %+v", s)
	}
	if s := byStage["stability"]; s.Written != 8 {
		t.Fatalf("stability %+v", s)
	}
	if cl.calls.Load() != 8 {
		t.Fatalf("classifier called %d times", cl.calls.Load())
	}
	for _, p := range []string{
		"alpha/intermediate/I/alpha_I_1.txt", "alpha/levels/L/alpha_L_3.xml", "alpha/images/I/alpha_I_2.png",
		"alpha/stability/I.json", "alpha/similarity/L.json", "alpha/diversity/L.json", "beta/diversity/I.json",
		"result/trial_scores.csv", "result/character_scores.csv", "result/prompt_scores_ranks.csv", "result/constants.json",
	} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("missing %s", p)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "alpha/intermediate/L/alpha_L_4.txt")); err == nil {
		t.Error("an answer without code must not produce a program")
	}
	if rep.Scores == nil || len(rep.Scores.Prompts) != 2 || len(rep.Scores.Trials) != 2*26*10 {
		t.Fatalf("scores %+v", rep.Scores)
	}
	stab, _ := os.ReadFile(filepath.Join(dir, "alpha/stability/I.json"))
	if !strings.Contains(string(stab), `"tag": "alpha/levels/I/alpha_I_1.xml"`) || !strings.Contains(string(stab), `"score": 1.0`) {
		t.Errorf("stability file:\n%s", stab)
	}
	if len(events) == 0 || events[len(events)-1].Stage != "score" {
		t.Errorf("progress events: %d", len(events))
	}
	// Re-scoring the written folder gives the same result.
	again, err := ScoreStage(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Competition.String() != rep.Scores.Competition.String() {
		t.Errorf("competition %s vs %s", again.Competition, rep.Scores.Competition)
	}
}

func TestEvaluateWithoutClassifierReportsMissingSimilarity(t *testing.T) {
	dir := competitionFolder(t)
	rep, err := Evaluate(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	last := rep.Stages[len(rep.Stages)-1]
	if rep.Scores != nil || last.Stage != "score" || !strings.Contains(last.Skipped, "similarity missing") {
		t.Fatalf("%+v", last)
	}
	if _, err := os.Stat(filepath.Join(dir, "result")); err == nil {
		t.Error("no result may be written without similarity")
	}
	if _, err := ScoreStage(context.Background(), dir, Options{}); !errors.Is(err, ErrSimilarityMissing) {
		t.Errorf("score without similarity: %v", err)
	}
	summary, err := StabilitySummary(dir)
	if err != nil || summary["alpha"]["I"] != 1 {
		t.Errorf("stability summary %v %v", summary, err)
	}
}

func TestEvaluateCancelled(t *testing.T) {
	dir := competitionFolder(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Evaluate(ctx, dir, Options{Classifier: &letterClassifier{}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

func TestParseClassification(t *testing.T) {
	uniform := "[" + strings.TrimSuffix(strings.Repeat("0.03846153846153846,", 26), ",") + "]"
	good := []string{
		uniform,
		`{"probabilities": ` + uniform + `, "embedding": [1, 2, 3]}`,
		`{"softmax": ` + uniform + `}`,
	}
	obj := "{"
	for i := 0; i < 26; i++ {
		obj += fmt.Sprintf("%q: 0.03846153846153846", Letters[i:i+1])
		if i < 25 {
			obj += ","
		}
	}
	good = append(good, obj+"}")
	for _, g := range good {
		if _, err := ParseClassification([]byte(g)); err != nil {
			t.Errorf("%.40s: %v", g, err)
		}
	}
	bad := []string{"", "[1,2]", "not json", `{"probabilities": [1]}`, "[" + strings.TrimSuffix(strings.Repeat("2,", 26), ",") + "]"}
	for _, b := range bad {
		if _, err := ParseClassification([]byte(b)); err == nil {
			t.Errorf("%q accepted", b)
		}
	}
}

func TestExternalClassifiers(t *testing.T) {
	reply := `{"probabilities": [` + strings.TrimSuffix(strings.Repeat("0,", 8), ",") + `,1,` + strings.TrimSuffix(strings.Repeat("0,", 17), ",") + `]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Type") != "image/png" {
			http.Error(w, "want a PNG", http.StatusBadRequest)
			return
		}
		if got, err := png.Decode(r.Body); err != nil || got.Bounds().Dx() != ImageSize {
			http.Error(w, fmt.Sprintf("not the image: %v", err), http.StatusBadRequest)
			return
		}
		fmt.Fprint(w, reply)
	}))
	defer srv.Close()
	img := (&Mask{Pix: make([]uint8, ImageSize*ImageSize)}).Image()
	cl, err := (&HTTPClassifier{URL: srv.URL}).Classify(context.Background(), img)
	if err != nil || cl.Similarity('I') != 1 {
		t.Fatalf("http: %v %v", cl, err)
	}
	if _, err := os.Stat("/bin/sh"); err == nil {
		cmd := &CommandClassifier{Command: []string{"/bin/sh", "-c", "cat >/dev/null; echo '" + reply + "'"}}
		cl, err := cmd.Classify(context.Background(), img)
		if err != nil || cl.Similarity('I') != 1 {
			t.Fatalf("command: %v %v", cl, err)
		}
		failing := &CommandClassifier{Command: []string{"/bin/sh", "-c", "echo broken >&2; exit 3"}}
		if _, err := failing.Classify(context.Background(), img); err == nil || !strings.Contains(err.Error(), "broken") {
			t.Fatalf("failing command: %v", err)
		}
	}
	if _, err := (Unavailable{}).Classify(context.Background(), nil); !errors.Is(err, ErrClassifierUnavailable) {
		t.Fatal(err)
	}
}

func TestDiversity(t *testing.T) {
	a := []float64{1, 0, 0}
	b := []float64{0, 1, 0}
	rate, d := DiversityOf([][]float64{a, b, a})
	// pairs: (a,b)=1, (a,a)=0, (b,a)=1 → 2/45
	if len(d) != 3 || rate != 2.0/45 {
		t.Fatalf("rate %v distances %v", rate, d)
	}
	if r, _ := DiversityOf([][]float64{a}); r != 0 {
		t.Fatal(r)
	}
	sim := &SimilarityFile{Count: 2, Similarities: []SimilarityDetail{
		{ID: "t_A_1.png", Raws: []SoftmaxEntry{{Label: "B", SoftmaxProb: 0}, {Label: "A", SoftmaxProb: 1}}},
		{ID: "t_A_2.png", Raws: []SoftmaxEntry{{Label: "A", SoftmaxProb: 0}, {Label: "B", SoftmaxProb: 1}}},
	}}
	div, err := DiversityFromSimilarity(sim, Edition2024)
	if err != nil || div.DiversityRate != 1.0/45 || div.Trials[0].Trial != "t_A_1" || div.Trials[0].Vector[0] != 1 {
		t.Fatalf("%+v %v", div, err)
	}
	if _, err := DiversityFromSimilarity(sim, Edition2025); err == nil {
		t.Fatal("2025 diversity needs embeddings")
	}
}

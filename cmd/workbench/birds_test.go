package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/games/birds"
)

func writeBirdsFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestBirdsLevelProgram(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "i.txt")
	writeBirdsFile(t, prog, "drop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n")
	code, out, errs := runCLI(t, "birds", "level", prog, "--classifier", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "stability  1.0000 (0 of 3 blocks") || !strings.Contains(out, "similarity missing") {
		t.Fatalf("output:\n%s", out)
	}
	// By default the embedded proxy classifier answers, and says it is a proxy.
	code, out, errs = runCLI(t, "birds", "level", prog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "similarity I ") || !strings.Contains(out, "proxy CNN, not the competition's ViT") {
		t.Fatalf("output:\n%s", out)
	}
	// Nothing is written unless asked: the folder holds only the input.
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("birds level wrote beside its input: %v", entries)
	}
	img := filepath.Join(t.TempDir(), "i.png")
	if code, out, errs := runCLI(t, "birds", "level", prog, "--classifier", "none", "--image", img); code != 0 || !strings.Contains(out, img) {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	if info, err := os.Stat(img); err != nil || info.Size() == 0 {
		t.Fatalf("image not written: %v", err)
	}
}

// --trials runs the evaluator's trials and reports each one's verdict.
func TestBirdsLevelTrials(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "t.txt")
	// A post with an overhanging beam: it topples, so all three trials run.
	writeBirdsFile(t, prog, "drop_block('b13', 5)\ndrop_block('b31', 6)\ndrop_block('b31', 7)\n")
	code, out, errs := runCLI(t, "birds", "level", prog, "--classifier", "none", "--trials", "3", "--seed", "7", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v struct {
		Stability float64 `json:"stability"`
		Trials    []struct {
			Stability float64 `json:"stability"`
		} `json:"trials"`
		Kept int `json:"keptTrial"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Trials) < 1 || v.Kept < 1 || v.Kept > len(v.Trials) || v.Stability != v.Trials[v.Kept-1].Stability {
		t.Fatalf("%+v", v)
	}
	for _, tr := range v.Trials {
		if tr.Stability > v.Stability {
			t.Fatalf("kept %v is not the best of %+v", v.Stability, v.Trials)
		}
	}
	if code, _, _ := runCLI(t, "birds", "level", prog, "--trials", "4"); code != 2 {
		t.Fatalf("--trials 4: exit %d", code)
	}
}

func TestBirdsLevelXMLAndJSON(t *testing.T) {
	dir := t.TempDir()
	level := filepath.Join(dir, "l.xml")
	// The spec's example level in the bytes the converter writes (games/birds'
	// TestSpecExampleLevel pins them).
	xml, err := birds.ConvertToXML("drop_block('b13', 7)\ndrop_block('b31', 7)\n")
	if err != nil {
		t.Fatal(err)
	}
	writeBirdsFile(t, level, xml)
	png := filepath.Join(dir, "out.png")
	code, out, errs := runCLI(t, "birds", "level", level, "--json", "--out", png, "--classifier", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v struct {
		Blocks    int      `json:"blocks"`
		Stability float64  `json:"stability"`
		Source    string   `json:"source"`
		Sim       []string `json:"similarity"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if v.Blocks != 2 || v.Stability != 1 || v.Source != "level XML" || v.Sim != nil {
		t.Fatalf("%+v", v)
	}
	if _, err := os.Stat(png); err != nil {
		t.Fatal(err)
	}
}

func TestBirdsLevelErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	writeBirdsFile(t, bad, "drop_block('b31', 19)\n")
	code, _, errs := runCLI(t, "birds", "level", bad)
	if code != 2 || !strings.Contains(errs, "Width boundary is intruded.") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code, _, _ := runCLI(t, "birds", "level"); code != 2 {
		t.Fatalf("missing FILE: exit %d", code)
	}
	if code, _, _ := runCLI(t, "birds", "frobnicate", dir); code != 2 {
		t.Fatalf("unknown subcommand: exit %d", code)
	}
	if code, _, _ := runCLI(t, "birds", "evaluate", filepath.Join(dir, "nope")); code != 2 {
		t.Fatalf("missing folder: exit %d", code)
	}
	// A special file is refused before it is read (/dev/zero never ends).
	if _, err := os.Stat("/dev/zero"); err == nil {
		if code, _, errs := runCLI(t, "birds", "level", "/dev/zero"); code != 2 || !strings.Contains(errs, "regular file") {
			t.Fatalf("/dev/zero: exit %d: %s", code, errs)
		}
	}
	big := filepath.Join(dir, "big.txt")
	writeBirdsFile(t, big, strings.Repeat("x", birds.MaxResponseBytes+1))
	if code, _, _ := runCLI(t, "birds", "level", big); code != 2 {
		t.Fatalf("oversized file: exit %d", code)
	}
}

func birdsCompetition(t *testing.T) string {
	dir := t.TempDir()
	answers := map[string]string{
		"I": "```\ndrop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n```",
		"L": "```\ndrop_block('b13', 3)\ndrop_block('b31', 5)\n```",
	}
	for _, team := range []string{"one", "two"} {
		for letter, text := range answers {
			for n := 1; n <= 2; n++ {
				writeBirdsFile(t, filepath.Join(dir, team, "raw", letter, fmt.Sprintf("%s_%s_%d.txt", team, letter, n)), text)
			}
		}
	}
	writeBirdsFile(t, filepath.Join(dir, "two", "raw", "I", "two_I_3.txt"), "no code")
	return dir
}

func TestBirdsEvaluateWithoutClassifier(t *testing.T) {
	dir := birdsCompetition(t)
	code, out, errs := runCLI(t, "birds", "evaluate", dir, "--classifier", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"extract    8 of 9 written (1 × Code not found.)", "stability  8 of 8 written", "score      skipped: similarity missing", "stability  one: mean"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "extract 9/9") {
		t.Errorf("no progress on stderr:\n%s", errs)
	}
	if code, _, _ := runCLI(t, "birds", "evaluate", dir, "--classifier", "frobnicate"); code != 2 {
		t.Fatalf("unknown --classifier: exit %d", code)
	}
	if code, _, errs := runCLI(t, "birds", "score", dir); code != 1 || !strings.Contains(errs, "similarity missing") {
		t.Fatalf("score without similarity: exit %d: %s", code, errs)
	}
}

func TestBirdsStagesWithExternalClassifier(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	dir := birdsCompetition(t)
	script := filepath.Join(t.TempDir(), "classify.sh")
	probs := strings.TrimSuffix(strings.Repeat("0.0384615384615385,", 26), ",")
	writeBirdsFile(t, script, "#!/bin/sh\ncat >/dev/null\necho '["+probs+"]'\n")
	for _, sub := range []string{"extract", "convert", "stability", "render"} {
		if code, _, errs := runCLI(t, "birds", sub, dir, "--quiet"); code != 0 {
			t.Fatalf("%s: exit %d: %s", sub, code, errs)
		}
	}
	if code, _, errs := runCLI(t, "birds", "classify", dir, "--quiet", "--classifier", "none"); code != 1 || !strings.Contains(errs, "classifier") {
		t.Fatalf("classify without a classifier: exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, "birds", "classify", dir, "--quiet", "--classifier-cmd", script); code != 0 {
		t.Fatalf("classify: exit %d: %s", code, errs)
	}
	code, out, errs := runCLI(t, "birds", "score", dir, "--json")
	if code != 0 {
		t.Fatalf("score: exit %d: %s", code, errs)
	}
	var v struct {
		Competition string `json:"competitionScore"`
		Ranking     []struct {
			Team string `json:"team"`
			Rank int    `json:"rank"`
		} `json:"ranking"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Ranking) != 2 || v.Competition == "" {
		t.Fatalf("%v: %s", err, out)
	}
	for _, f := range []string{"result/trial_scores.csv", "one/similarity/I.json", "two/diversity/L.json", "one/images/L/one_L_2.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
}

func TestBirdsEvaluateWithProxyClassifier(t *testing.T) {
	dir := birdsCompetition(t)
	code, out, errs := runCLI(t, "birds", "evaluate", dir, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"classify   8 of 8 written by proxy CNN, not the competition's ViT", "competition score"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestBirdsOrganiserCommands(t *testing.T) {
	dir := birdsCompetition(t)
	if code, _, errs := runCLI(t, "birds", "evaluate", dir, "--quiet", "--trials", "1"); code != 0 {
		t.Fatalf("evaluate: exit %d: %s", code, errs)
	}
	code, out, errs := runCLI(t, "birds", "report", dir)
	if code != 0 || !strings.Contains(out, "letter  stability") || !strings.Contains(out, "contact sheet") {
		t.Fatalf("report: exit %d: %s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "result", "contact-sheets", "one.png")); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, "birds", "compare", dir, dir, "--team-a", "one", "--team-b", "two", "--json", "--resamples", "200")
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errs)
	}
	var c struct {
		Overall struct {
			Score struct{ Diff, Low, High float64 } `json:"score"`
		} `json:"overall"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	if c.Overall.Score.Low > c.Overall.Score.Diff || c.Overall.Score.High < c.Overall.Score.Diff {
		t.Fatalf("%+v", c)
	}
	// Every table states its unit and n: trials per letter, letters (paired) overall.
	for _, want := range []string{`"letterUnit": "trial"`, `"overallUnit": "letter"`, `"unit": "letter"`, `"n": 26`, `"pHolm":`, `"a12":`} {
		if !strings.Contains(out, want) {
			t.Errorf("compare --json: missing %s", want)
		}
	}
	code, out, errs = runCLI(t, "birds", "compare", dir, dir, "--team-a", "one", "--team-b", "two")
	for _, want := range []string{"per letter: n = 10 trials of each prompt", "all: n = 26 letters (paired", "Wilcoxon", "Mann–Whitney", "p Holm", "\n  all   "} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("compare: exit %d, missing %q in:\n%s%s", code, want, out, errs)
		}
	}
	if code, _, _ := runCLI(t, "birds", "compare", dir, dir); code != 2 {
		t.Fatalf("ambiguous teams (bad input): exit %d", code)
	}
	if code, _, _ := runCLI(t, "birds", "score", dir, dir); code != 2 {
		t.Fatalf("two folders without --edition 2025: exit %d", code)
	}
	// Under 2025 rules: one folder per model, each evaluated under them; a folder given twice
	// or evaluated under 2024 rules is refused.
	if code, _, errs := runCLI(t, "birds", "score", "--edition", "2025", dir, dir, dir); code != 1 || !strings.Contains(errs, "same folder") {
		t.Fatalf("score 2025, one folder thrice: exit %d: %s", code, errs)
	}
	var models []string
	for i := 0; i < 3; i++ {
		m := birdsCompetition(t)
		if code, _, errs := runCLI(t, "birds", "evaluate", m, "--quiet", "--trials", "1", "--edition", "2025"); code != 0 {
			t.Fatalf("evaluate 2025: exit %d: %s", code, errs)
		}
		models = append(models, m)
	}
	code, out, errs = runCLI(t, append([]string{"birds", "score", "--edition", "2025"}, models...)...)
	if code != 0 || !strings.Contains(out, "total over 3 models") {
		t.Fatalf("score 2025: exit %d: %s%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "birds", "score", "--edition", "2025", models[0], dir); code != 1 || !strings.Contains(errs, "another edition") {
		t.Fatalf("score 2025 with a 2024 folder: exit %d: %s", code, errs)
	}
}

func TestBirdsQualify(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	writeBirdsFile(t, good, "Build the letter <OBJECT> with drop_block calls.")
	bad := filepath.Join(dir, "bad.txt")
	writeBirdsFile(t, bad, "Build a letter © "+strings.Repeat("word ", 901))
	if code, out, errs := runCLI(t, "birds", "qualify", good); code != 0 || !strings.Contains(out, "8 words") || !strings.Contains(out, "qualified") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	code, out, _ := runCLI(t, "birds", "qualify", good, bad)
	if code != 1 || !strings.Contains(out, "NOT qualified: more than 900 words, disallowed characters, no <OBJECT>") || !strings.Contains(out, "U+00A9") {
		t.Fatalf("exit %d: %s", code, out)
	}
	if code, _, _ := runCLI(t, "birds", "qualify", filepath.Join(dir, "missing.txt")); code != 2 {
		t.Fatalf("missing file: exit %d", code)
	}
}

// Several levels at once: one verdict each (legacy stability included), a JSON array.
func TestBirdsLevelMany(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	writeBirdsFile(t, a, "drop_block('b31', 10)\n")
	writeBirdsFile(t, b, "drop_block('b13', 4)\ndrop_block('b13', 8)\n")
	code, out, errs := runCLI(t, "birds", "level", a, b, "--classifier", "none", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v []struct {
		File   string  `json:"file"`
		Blocks int     `json:"blocks"`
		Legacy float64 `json:"legacyStability"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v) != 2 || v[0].File != a || v[1].Blocks != 2 || v[1].Legacy != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	if code, _, _ := runCLI(t, "birds", "level", a, b, "--image", filepath.Join(dir, "x.png")); code != 2 {
		t.Fatalf("--image with two files: exit %d", code)
	}
}

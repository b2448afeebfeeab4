package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pcgwb/app"
	"pcgwb/problems"
)

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestProblemsListsOneNamePerLine(t *testing.T) {
	code, out, _ := runCLI(t, "problems")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := map[string]bool{"binary-v0": false, "zelda-v0": false, "sokoban-v0": false, "isaac-v0": false, "building-v0": false, "zelda-large-v0": false}
	for _, l := range lines {
		// A problem whose data is missing is followed by a TAB and a marker.
		l, marker, _ := strings.Cut(l, "\t")
		if strings.ContainsAny(l, " \t") || marker != "" && !strings.HasPrefix(marker, "[") {
			t.Errorf("line %q is not a bare name", l)
		}
		if _, ok := want[l]; ok {
			want[l] = true
		}
	}
	for n, seen := range want {
		if !seen {
			t.Errorf("%s not listed", n)
		}
	}
}

func TestSampleIsSeededAndValid(t *testing.T) {
	code, out1, errs := runCLI(t, "sample", "zelda-v0", "-n", "4", "--seed", "7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	_, out2, _ := runCLI(t, "sample", "--seed", "7", "zelda-v0", "-n", "4")
	if out1 != out2 {
		t.Fatal("the same seed gave different samples")
	}
	_, out3, _ := runCLI(t, "sample", "zelda-v0", "-n", "4", "--seed", "8")
	if out1 == out3 {
		t.Fatal("different seeds gave the same samples")
	}
	var f struct {
		Problem string `json:"problem"`
		Items   []struct {
			Content [][]int        `json:"content"`
			Control map[string]int `json:"control"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out1), &f); err != nil {
		t.Fatal(err)
	}
	if f.Problem != "zelda-v0" || len(f.Items) != 4 || len(f.Items[0].Content) != 7 || len(f.Items[0].Content[0]) != 11 {
		t.Fatalf("unexpected sample: %+v", f)
	}
	// sample's output is eval's input.
	path := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(path, []byte(out1), 0o644)
	if code, _, errs := runCLI(t, "eval", "zelda-v0", path); code != 0 {
		t.Fatalf("eval of sample output: exit %d: %s", code, errs)
	}
}

func TestEvalMatchesGolden(t *testing.T) {
	for _, name := range []string{"binary", "zelda", "sokoban", "isaac", "building"} {
		t.Run(name, func(t *testing.T) {
			golden := filepath.Join("..", "..", "problems", name, "testdata", name+"-v0.json")
			code, out, errs := runCLI(t, "eval", name+"-v0", golden, "--matrix", "--timing")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var got, want map[string]any
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(golden)
			json.Unmarshal(b, &want)
			set := want["set_evaluation"].(map[string]any)["per_item_controls"].(map[string]any)
			for _, k := range []string{"quality_pct", "diversity_pct", "controlability_pct"} {
				if math.Abs(got[k].(float64)-set[k].(float64)) > 1e-9 {
					t.Errorf("%s = %v, want %v", k, got[k], set[k])
				}
			}
			wantItems := want["items"].([]any)
			items := got["items"].([]any)
			if len(items) != len(wantItems) {
				t.Fatalf("%d items, want %d", len(items), len(wantItems))
			}
			for i, it := range items {
				m := it.(map[string]any)
				w := wantItems[i].(map[string]any)
				if m["id"] != w["id"] || math.Abs(m["quality"].(float64)-w["quality"].(float64)) > 1e-9 ||
					math.Abs(m["controlability"].(float64)-w["controlability"].(float64)) > 1e-9 {
					t.Errorf("item %d: got %v/%v/%v, want %v/%v/%v", i, m["id"], m["quality"], m["controlability"], w["id"], w["quality"], w["controlability"])
				}
				if _, ok := m["info"].(map[string]any); !ok {
					t.Errorf("item %d: no info object", i)
				}
			}
			if len(got["diversity_matrix"].([]any)) != len(items) {
				t.Error("diversity_matrix missing or wrong size")
			}
			timing := got["timing"].(map[string]any)
			for _, k := range []string{"info_ms_mean", "info_ms_median", "eval_ms_total"} {
				if _, ok := timing[k].(float64); !ok {
					t.Errorf("timing.%s missing", k)
				}
			}
			details := got["details"].(map[string]any)
			for _, k := range []string{"quality", "diversity", "controlability"} {
				if len(details[k].([]any)) != len(items) {
					t.Errorf("details.%s has the wrong length", k)
				}
			}
		})
	}
}

func TestEvalRejectsBadInputBeforeEvaluating(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, file, wantErr string
	}{
		{"first bad item wins", `{"items":[{"content":[[1,1]]},{"id":"bad","content":[[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,9,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1]]}]}`, "item 0"},
		{"value", `{"items":[{"id":"bad","content":[[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,9,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1]]}]}`, "item 0 (bad): content[2][2]: value 9 is outside [0, 6)"},
		{"shape", `{"items":[{"content":[[1,1,1]]}]}`, "content: expected 7 elements, got 1"},
		{"string", `{"items":[{"content":"hello"}]}`, "item 0: content: expected a list"},
		{"bad json", "{\"items\": [\n{\"content\": [1,}]}", "line 2"},
		{"no items", `{"foo": 1}`, `missing "items"`},
		{"bad control", `{"items":[{"content":[[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,2,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1]],"control":{"player_key":12}}]}`, "control: missing key \"key_door\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".json")
			os.WriteFile(path, []byte(c.file), 0o644)
			code, out, errs := runCLI(t, "eval", "zelda-v0", path)
			if code != 2 {
				t.Fatalf("exit %d, want 2 (stderr %q)", code, errs)
			}
			if out != "" {
				t.Errorf("printed results for invalid input: %q", out)
			}
			if !strings.Contains(errs, c.wantErr) {
				t.Errorf("error %q does not mention %q", errs, c.wantErr)
			}
		})
	}
}

func TestUnknownProblemSuggestsClosest(t *testing.T) {
	code, _, errs := runCLI(t, "sample", "zelda-larg-v0")
	if code != 2 || !strings.Contains(errs, `"zelda-large-v0"`) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestRenderWritesOnePNGPerItem(t *testing.T) {
	dir := t.TempDir()
	_, out, _ := runCLI(t, "sample", "sokoban-v0", "-n", "3")
	in := filepath.Join(dir, "in.json")
	os.WriteFile(in, []byte(out), 0o644)
	code, printed, errs := runCLI(t, "render", "sokoban-v0", in, "--out", filepath.Join(dir, "png"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	paths := strings.Fields(printed)
	if len(paths) != 3 {
		t.Fatalf("printed %d paths", len(paths))
	}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() != 112 || img.Bounds().Dy() != 112 {
			t.Fatalf("%s: %v %v", p, err, img.Bounds())
		}
	}
	if code, _, _ := runCLI(t, "render", "sokoban-v0", in); code != 2 {
		t.Errorf("render without --out: exit %d, want 2", code)
	}
}

func TestUnknownCommand(t *testing.T) {
	if code, _, errs := runCLI(t, "frobnicate"); code != 2 || !strings.Contains(errs, "unknown command") {
		t.Fatalf("exit %d, %q", code, errs)
	}
}

func TestCommandHelpListsFlags(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--help"}, []string{"usage: workbench run [flags]", "-generator string", "llm", "-resume string"}},
		{[]string{"sample", "-h"}, []string{"usage: workbench sample [flags] PROBLEM", "-seed"}},
		{[]string{"birds", "prompt", "-h"}, []string{"usage: workbench birds prompt [flags] PROMPT.txt", "-trials int"}},
		{[]string{"llm", "generate", "--help"}, []string{"usage: workbench llm generate [flags]", "-offline"}},
	}
	for _, c := range cases {
		code, out, errs := runCLI(t, c.args...)
		if code != 0 || errs != "" {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: help lacks %q:\n%s", c.args, w, out)
			}
		}
	}
}

// The CLI's sample command and the GUI's Sample tab draw the same items from the same seed
// (both call problems.SampleN).
func TestSampleMatchesTheSampleTab(t *testing.T) {
	tests := []struct {
		problem string
		n       int
		seed    uint64
	}{
		{"zelda-v0", 4, 7},
		{"binary-v0", 3, 123456789},
		{"building-v0", 2, 0}, // its control has a sampler of its own
	}
	for _, tt := range tests {
		t.Run(tt.problem, func(t *testing.T) {
			code, out, errs := runCLI(t, "sample", tt.problem, "-n", strconv.Itoa(tt.n), "--seed", strconv.FormatUint(tt.seed, 10))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var f problems.ItemFile
			if err := json.Unmarshal([]byte(out), &f); err != nil {
				t.Fatal(err)
			}
			p, err := problems.Make(tt.problem)
			if err != nil {
				t.Fatal(err)
			}
			set, err := app.SampleAndEvaluate(context.Background(), tt.problem, p, tt.n, tt.seed)
			if err != nil {
				t.Fatal(err)
			}
			gui, err := json.Marshal(problems.ItemFile{Problem: tt.problem, Items: problems.ItemsOf(set.Levels)})
			if err != nil {
				t.Fatal(err)
			}
			cli, err := json.Marshal(f)
			if err != nil {
				t.Fatal(err)
			}
			if string(gui) != string(cli) {
				t.Fatalf("the Sample tab drew other items than the CLI:\ngui %s\ncli %s", gui, cli)
			}
		})
	}
}

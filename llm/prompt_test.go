package llm

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/llm/llmtest"
	"pcgwb/problems"
	_ "pcgwb/problems/all"
)

// available lists the registered problems this machine can make (some need data files).
func available(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, n := range problems.List() {
		if problems.Unavailable(n) == nil {
			out = append(out, n)
		}
	}
	if len(out) < 5 {
		t.Fatalf("only %d problems available", len(out))
	}
	return out
}

// TestEveryProblemHasAWorkingPrompt renders each problem's prompt with examples and a control,
// and checks that a level written the way the prompt shows levels parses back to itself.
func TestEveryProblemHasAWorkingPrompt(t *testing.T) {
	for _, name := range available(t) {
		t.Run(name, func(t *testing.T) {
			p, err := problems.Make(name)
			if err != nil {
				t.Fatal(err)
			}
			pr, err := Templates{}.Load(name, "")
			if err != nil {
				t.Fatal(err)
			}
			rng := newRand(3)
			d := NewPromptData(name, p, pr.Legend)
			var ex []Example
			for i := 0; i < 3; i++ {
				c := p.ContentSpace().Sample(rng)
				txt := d.FormatContent(c)
				got, err := ParseContent("Here it is:\n```\n"+txt+"\n```\n", p.ContentSpace(), pr.Legend)
				if err != nil {
					t.Fatalf("the shown format does not parse: %v\n%s", err, txt)
				}
				if mustJSON(t, got) != mustJSON(t, c) {
					t.Fatalf("round trip changed the level:\n%s", txt)
				}
				ex = append(ex, Example{Text: txt, Quality: 0.5, Content: c})
			}
			msgs, err := pr.Messages(d.WithExamples(ex).WithControl(problems.SampleControl(p, rng)))
			if err != nil {
				t.Fatal(err)
			}
			user := msgs[len(msgs)-1].Content
			for _, want := range []string{ex[2].Text, d.Format, "```"} {
				if !strings.Contains(user, want) {
					t.Fatalf("the prompt lacks %q:\n%s", want, user)
				}
			}
			if strings.Contains(user, "<no value>") {
				t.Fatalf("the prompt has an unset variable:\n%s", user)
			}
			if _, err := pr.Repair(d, "x", &ParseError{"bad"}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestEveryProblemFamilyGenerates runs the whole generator on the first variant of every
// problem family against a server answering with random levels in the prompt's format.
func TestEveryProblemFamilyGenerates(t *testing.T) {
	families := map[problems.Family]bool{}
	for _, name := range available(t) {
		fam := problems.FamilyOf(name)
		if families[fam] {
			continue
		}
		families[fam] = true
		t.Run(name, func(t *testing.T) {
			p, err := problems.Make(name)
			if err != nil {
				t.Fatal(err)
			}
			pr, err := Templates{}.Load(name, "")
			if err != nil {
				t.Fatal(err)
			}
			d := NewPromptData(name, p, pr.Legend)
			srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply {
				content := p.ContentSpace().Sample(newRand(uint64(*c.Request.Seed)))
				return llmtest.Reply{Content: "```\n" + d.FormatContent(content) + "\n```"}
			})
			defer srv.Close()
			c := newTestClient(t, testConfig(srv, ""))
			opts := GeneratorOptions{Options: searchOptions(name, 3), PromptSettings: PromptSettings{Examples: 1, Control: true}}
			opts.Fitness = "quality_control"
			g, err := NewGenerator(context.Background(), p, c, opts)
			if err != nil {
				t.Fatal(err)
			}
			final, err := execute(context.Background(), filepath.Join(t.TempDir(), "run"), g, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(final.Population) != 3 || g.Stats().Invalid != 0 {
				t.Fatalf("%d levels, stats %+v", len(final.Population), g.Stats())
			}
		})
	}
	for _, f := range []problems.Family{"binary", "zelda", "sokoban", "isaac", "building"} {
		if !families[f] {
			t.Errorf("family %s is not registered", f)
		}
	}
}

func TestTemplateResolutionAndOverrides(t *testing.T) {
	if got := strings.Join(Candidates("zelda-large-v0"), " "); got != "zelda-large-v0 zelda-large zelda generic" {
		t.Fatalf("candidates %s", got)
	}
	if got := strings.Join(Candidates("binary-v0"), " "); got != "binary-v0 binary generic" {
		t.Fatalf("candidates %s", got)
	}
	pr, err := Templates{}.Load("zelda-large-v0", "")
	if err != nil || pr.Name != "zelda" || len(pr.Legend) != 6 {
		t.Fatalf("%v %+v", err, pr)
	}
	pr, err = Templates{}.Load("nosuch-v0", "")
	if err != nil || pr.Name != GenericTemplate || pr.Legend != nil {
		t.Fatalf("%v %+v", err, pr)
	}

	dir := t.TempDir()
	custom := "{{/* tiles\n0 X wall\n1 o floor\n2 P player\n3 K key\n4 D door\n5 B bat\n*/}}\nMy own prompt for {{.Problem}}. {{template \"answer\" .}}"
	if err := os.WriteFile(filepath.Join(dir, "zelda-v0.tmpl"), []byte(custom), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "common.tmpl"), []byte(`{{define "answer"}}ANSWER NOW{{end}}{{define "system"}}{{""}}{{end}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := Templates{Dir: dir}
	pr, err = ts.Load("zelda-v0", "")
	if err != nil || pr.Origin != filepath.Join(dir, "zelda-v0.tmpl") || pr.Legend[5].Char != "B" {
		t.Fatalf("%v %+v", err, pr)
	}
	p, _ := problems.Make("zelda-v0")
	msgs, err := pr.Messages(NewPromptData("zelda-v0", p, pr.Legend))
	if err != nil || len(msgs) != 1 || msgs[0].Content != "My own prompt for zelda-v0. ANSWER NOW" {
		t.Fatalf("%v %+v", err, msgs)
	}
	// The user's common.tmpl applies to the embedded problem templates too.
	pr, err = ts.Load("binary-v0", "")
	if err != nil || pr.Origin != "embedded:binary.tmpl" {
		t.Fatalf("%v %+v", err, pr)
	}
	p, _ = problems.Make("binary-v0")
	msgs, _ = pr.Messages(NewPromptData("binary-v0", p, pr.Legend))
	if !strings.HasSuffix(msgs[0].Content, "ANSWER NOW") {
		t.Fatalf("%q", msgs[0].Content)
	}
	if names := strings.Join(ts.Names(), " "); !strings.Contains(names, "zelda-v0") || !strings.Contains(names, "sokoban") {
		t.Fatalf("names %s", names)
	}
	// An explicitly named template must exist; a broken one is reported with its file.
	if _, err := ts.Load("zelda-v0", "nosuch"); err == nil {
		t.Fatal("missing named template accepted")
	}
	os.WriteFile(filepath.Join(dir, "broken.tmpl"), []byte("{{.Nope"), 0o644)
	if _, err := ts.Load("zelda-v0", "broken"); err == nil || !strings.Contains(err.Error(), "broken.tmpl") {
		t.Fatalf("broken template: %v", err)
	}
	// A variable that does not exist fails at render time instead of printing "<no value>".
	pr, err = ts.Parse("editor", "{{.ControlValues.nosuch}}")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pr.Messages(NewPromptData("zelda-v0", p, nil).WithControl(map[string]any{"path": 3})); err == nil {
		t.Fatal("a missing control key rendered")
	}
}

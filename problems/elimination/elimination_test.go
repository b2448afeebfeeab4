package elimination

import (
	"encoding/json"
	"strings"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/data"
	"pcgwb/problems/problemtest"
)

func refData(t testing.TB) { problemtest.RefDataFiles(t, data.EliminationWords) }

func TestGolden(t *testing.T) {
	refData(t)
	p, err := problems.Make("elimination-v0")
	if err != nil {
		t.Fatal(err)
	}
	problemtest.CheckGolden(t, p, problemtest.LoadGolden(t, "testdata/elimination-v0.json"))
}

func TestConformance(t *testing.T) {
	refData(t)
	for _, name := range []string{"elimination-v0", "elimination-easy-v0", "elimination-hard-v0"} {
		t.Run(name, func(t *testing.T) {
			problemtest.Conformance(t, name, problemtest.Options{AsymmetricDiversity: true})
		})
	}
}

// Without any data directory the problem is listed but refuses to run, with one line saying
// how to enable it.
func TestMissingDataRefusesWithHint(t *testing.T) {
	t.Setenv(data.EnvVar, t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	_, err := problems.Make("elimination-v0")
	if err == nil {
		t.Fatal("elimination-v0 was made without its word list")
	}
	msg := err.Error()
	for _, want := range []string{"elimination/dictionary.txt", data.EnvVar, "workbench data import"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	if problems.Unavailable("elimination-v0") == nil {
		t.Error("Unavailable(elimination-v0) = nil without data")
	}
	if _, ok := data.IsMissing(err); !ok {
		t.Errorf("error %v does not wrap a *data.MissingError", err)
	}
}

// The reference's reading quirks: the last dictionary line loses its last letter, words need
// 3 characters and no '-' or '.', ranks are line index over all count lines, and count words
// outside the dictionary get no rank.
func TestLexiconReadingRules(t *testing.T) {
	dict := "CAT\r\nDOG\nAB\nSEA-COW\nE.G.\nBAT\nZZZ"
	counts := "THE\t100\nDOG\t50\nCAT\t40\nCOW\t30\n"
	lex, err := parseLexicon([]byte(dict), []byte(counts))
	if err != nil {
		t.Fatal(err)
	}
	look := func(w string) (wordInfo, bool) {
		k, _ := pack(w)
		v, ok := lex.words[k]
		return v, ok
	}
	for w, want := range map[string]wordInfo{"cat": {0.5, true}, "dog": {0.25, true}, "bat": {2.0, false}} {
		if got, ok := look(w); !ok || got != want {
			t.Errorf("%s = %+v (%v), want %+v", w, got, ok, want)
		}
	}
	for _, w := range []string{"zzz", "zz", "ab", "the", "cow", "seacow"} {
		if _, ok := look(w); ok {
			t.Errorf("%s should not be in the lexicon", w)
		}
	}
}

// Subsets are enumerated most significant bit first, so records keep the reference's order,
// duplicates included, and seq is the longest run of kept letters.
func TestFindWordsOrderAndDuplicates(t *testing.T) {
	lex, err := parseLexicon([]byte("JOB\nJOBS\n"), []byte("JOB\t9\n"))
	if err != nil {
		t.Fatal(err)
	}
	ls := []int{'j' - 'a', 'o' - 'a', 'b' - 'a', 'j' - 'a', 'o' - 'a', 'b' - 'a'}
	byLen := make([][]Record, 4)
	total := lex.findWords(ls, byLen)
	var got []string
	for _, l := range byLen {
		for _, r := range l {
			got = append(got, r.Word+":"+string(rune('0'+r.Seq)))
		}
	}
	// i ascending: 000111 (letters 3-5, seq 3), 100011 (seq 2), 110001 (seq 2), 111000 (seq 3).
	want := "job:3 job:2 job:2 job:3"
	if strings.Join(got, " ") != want || total != 4 {
		t.Errorf("got %d records %q, want %q", total, strings.Join(got, " "), want)
	}
}

func TestInfoJSONKeys(t *testing.T) {
	refData(t)
	p, err := problems.Make("elimination-easy-v0")
	if err != nil {
		t.Fatal(err)
	}
	info, err := p.Info([]any{0, 1, 2, 3, 4, 5})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(info)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	for _, k := range []string{"total", "word", "words_3", "words_4", "words_5", "words_6"} {
		if _, ok := m[k]; !ok {
			t.Errorf("missing key %s in %s", k, b)
		}
	}
	if len(m) != 6 {
		t.Errorf("keys: %s", b)
	}
}

func TestRenderSize(t *testing.T) {
	refData(t)
	p, err := problems.Make("elimination-v0")
	if err != nil {
		t.Fatal(err)
	}
	img, err := p.Render([]any{0, 1, 2, 3, 4, 5, 6, 25})
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 128 || b.Dy() != 16 {
		t.Errorf("render is %v, want 128×16", b)
	}
}

func BenchmarkInfo(b *testing.B) {
	refData(b)
	p, err := problems.Make("elimination-v0")
	if err != nil {
		b.Fatal(err)
	}
	g := problemtest.LoadGolden(b, "testdata/elimination-v0.json")
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}

func BenchmarkLoadWordList(b *testing.B) {
	refData(b)
	for i := 0; i < b.N; i++ {
		if _, err := loadLexicon(); err != nil {
			b.Fatal(err)
		}
	}
}

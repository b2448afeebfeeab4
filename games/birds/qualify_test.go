package birds

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"pcgwb/internal/testshared"
)

// The spec's worked examples of words-count 2.0.2.
func TestWordCountExamples(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 0}, {" \n\t ", 0},
		{"drop_block('b31', 3)", 4},
		{"1.5 kg", 2},
		{"e.g. 3x1", 4},
		{"— —", 0},
		{"---", 1},
		{"x = 5", 3},
		{"a_b-c", 3},
		{"你好 world", 3},
	} {
		if got := WordCount(c.text); got != c.want {
			t.Errorf("WordCount(%q) = %d, want %d", c.text, got, c.want)
		}
	}
	// "one\ntwo  three": the first run (\n) becomes a space; "two  three" keeps its two spaces,
	// which split into "two", "", "three": 3 words.
	if got := WordCount("one\ntwo  three"); got != 3 {
		t.Errorf("got %d, want 3", got)
	}
	// A newline that is not the first whitespace run is not a separator: "a b\nc" is "a", "b\nc",
	// and "b\nc" has two letter runs.
	if got := WordCount("a b\nc"); got != 3 {
		t.Errorf("got %d, want 3", got)
	}
}

// Every row of the organisers' qualification table: word count, length, characters, <OBJECT>
// and the verdict.
func TestQualify2023Published(t *testing.T) {
	root := testshared.Dir(t, "science-birds")
	f, err := os.Open(filepath.Join(root, "reference-outputs", "qualification_2023.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 10 {
		t.Fatalf("only %d rows", len(rows))
	}
	for _, row := range rows[1:] {
		data, err := os.ReadFile(filepath.Join(root, "prompts", "2023-submissions", row[0]))
		if err != nil {
			t.Fatal(err)
		}
		q := Qualify(string(data))
		words, _ := strconv.Atoi(row[1])
		chars, _ := strconv.Atoi(row[2])
		if q.Words != words || q.Chars != chars || strconv.FormatBool(len(q.Disallowed) > 0) != row[3] ||
			strconv.FormatBool(q.HasObject) != row[5] || strconv.FormatBool(q.Qualified) != row[6] {
			t.Errorf("%s: got %+v, published %v", row[0], q, row[1:])
		}
	}
}

func TestDisallowedChars(t *testing.T) {
	for _, c := range []struct {
		text string
		want string
	}{
		{"Build <OBJECT> — “now” ‘ok’ `x` ~", ""},
		{"\u00a0only spaces at the ends\u00a0", ""},
		{"tab\tand é", "é"},
		{"emoji 🐦 and ©", "🐦©"},
	} {
		if got := string(DisallowedChars(c.text)); got != c.want {
			t.Errorf("DisallowedChars(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func FuzzWordCount(f *testing.F) {
	f.Add("drop_block('b31', 3)")
	f.Add("— — 你好 \u00a0 x")
	f.Fuzz(func(t *testing.T, s string) {
		n := WordCount(s)
		if n < 0 || n > len(s) {
			t.Fatalf("WordCount(%q) = %d", s, n)
		}
		q := Qualify(s)
		if q.Qualified != (q.Words <= MaxPromptWords && len(q.Disallowed) == 0 && q.HasObject) {
			t.Fatal("verdict inconsistent")
		}
	})
}

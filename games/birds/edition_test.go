package birds

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/internal/testshared"
)

func TestParseEditionAndTable(t *testing.T) {
	for _, r := range Editions() {
		ed, err := ParseEdition(" " + r.Name + "\n")
		if err != nil || ed != r.Edition {
			t.Fatalf("ParseEdition(%q) = %d, %v", r.Name, ed, err)
		}
		if got := ed.Rules(); got != r {
			t.Fatalf("Rules of %d: %+v", ed, got)
		}
		if r.Function == "" || r.TrialScoreColumn == "" || r.Summary == "" || r.Competition == "" {
			t.Fatalf("incomplete row %+v", r)
		}
	}
	for _, bad := range []string{"", "2022", "twenty", "2024x", strings.Repeat("9", 100)} {
		if _, err := ParseEdition(bad); err == nil || !strings.Contains(err.Error(), EditionNames()) || len(err.Error()) > 120 {
			t.Errorf("ParseEdition(%.30q): %v", bad, err)
		}
	}
	for in, want := range map[string]string{"a": "a", "a b": "a or b", "a b c": "a, b or c"} {
		if got := orList(strings.Fields(in)); got != want {
			t.Errorf("orList(%s) = %q", in, got)
		}
	}
	// The zero Edition is the default; an edition not in the table is scored by the default's
	// rules under its own number (as before the table); Lookup tells them apart.
	if r := Edition(0).Rules(); r.Edition != DefaultEdition {
		t.Errorf("zero edition: %+v", r)
	}
	if _, ok := Edition(2022).Lookup(); ok {
		t.Error("2022 found")
	}
	if r := Edition(2022).Rules(); r.Edition != 2022 || r.Name != "2022" || r.Diversity != DefaultEdition.Rules().Diversity {
		t.Errorf("2022: %+v", r)
	}
	// Editions is a copy: changing it changes no rule.
	e := Editions()
	e[0].QuoteLetter = !e[0].QuoteLetter
	if Editions()[0].QuoteLetter == e[0].QuoteLetter {
		t.Error("Editions exposes the table")
	}
}

// The result files' headers are the published ones of each year: read from the organisers'
// result folders, compared with what the edition's row writes.
func TestEditionResultHeadersArePublished(t *testing.T) {
	for _, ed := range []Edition{Edition2023, Edition2024} {
		dir := testshared.Dir(t, "science-birds", "competition-results", ed.Rules().Name)
		sc := Score(nil, ScoreOptions{Edition: ed})
		for name, write := range map[string]func(*bytes.Buffer) error{
			"trial_scores.csv":     func(b *bytes.Buffer) error { return sc.WriteTrialCSV(b) },
			"character_scores.csv": func(b *bytes.Buffer) error { return sc.WriteCharacterCSV(b) },
		} {
			f, err := os.Open(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			want, _ := bufio.NewReader(f).ReadString('\n')
			f.Close()
			var b bytes.Buffer
			if err := write(&b); err != nil {
				t.Fatal(err)
			}
			if got, _, _ := strings.Cut(b.String(), "\r\n"); got != strings.TrimRight(want, "\r\n") {
				t.Errorf("%d %s: header %s, published %s", ed, name, got, want)
			}
		}
	}
}

package playtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/games/play"
	"pcgwb/games/playtest/playtesttest"
	"pcgwb/problems"
	"pcgwb/problems/levelio"
)

// Every row and column of the square is a permutation, and every ordered pair of levels is
// adjacent equally often (once for even n, twice over the 2n rows for odd n).
func TestLatinSquareBalanced(t *testing.T) {
	for n := 1; n <= 9; n++ {
		rows := LatinSquare(n)
		want := n
		if n%2 == 1 {
			want = 2 * n
		}
		if len(rows) != want {
			t.Fatalf("n=%d: %d rows, want %d", n, len(rows), want)
		}
		pairs := map[[2]int]int{}
		for c := 0; c < n; c++ {
			seen := map[int]int{}
			for _, r := range rows {
				seen[r[c]]++
			}
			for v := 0; v < n; v++ {
				if seen[v] != len(rows)/n {
					t.Fatalf("n=%d: level %d is %d times at position %d", n, v, seen[v], c+1)
				}
			}
		}
		for _, r := range rows {
			got := map[int]bool{}
			for j, v := range r {
				got[v] = true
				if j > 0 {
					pairs[[2]int{r[j-1], v}]++
				}
			}
			if len(got) != n {
				t.Fatalf("n=%d: row %v is not a permutation", n, r)
			}
		}
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				if a != b && pairs[[2]int{a, b}] != len(rows)/n {
					t.Fatalf("n=%d: %d follows %d %d times, want %d", n, b, a, pairs[[2]int{a, b}], len(rows)/n)
				}
			}
		}
	}
}

func TestParticipantCodes(t *testing.T) {
	for in, want := range map[string]int{"P01": 1, "p7": 7, "12": 12, "P999": 999} {
		if n, err := ParseParticipant(in); err != nil || n != want {
			t.Errorf("%q: %d, %v", in, n, err)
		}
	}
	for _, bad := range []string{"ana", "P0", "P1000", "", "../P01", "P-1", "P+1"} {
		if _, err := ParseParticipant(bad); err == nil {
			t.Errorf("%q accepted as a participant", bad)
		}
	}
	if CheckParticipant("P7") == nil || CheckParticipant("P07") != nil || ParticipantCode(123) != "P123" {
		t.Fatal("codes are not canonical")
	}
}

// writeRun writes a run folder whose final population is the given contents (best first).
func writeRun(t *testing.T, dir, gen string, contents ...any) string {
	t.Helper()
	var pop []problems.Scored
	for _, c := range contents {
		pop = append(pop, problems.Scored{Content: c, Quality: 1, Cell: problems.NoCell})
	}
	return playtesttest.WriteRun(t, dir, gen, "zelda-v0", pop)
}

// room is an open 7×11 zelda room with the player, key and door at the given cells.
func room(player, key, door [2]int) []any {
	rows := make([]any, 7)
	for y := range rows {
		row := make([]any, 11)
		for x := range row {
			row[x] = 1
		}
		rows[y] = row
	}
	rows[player[1]].([]any)[player[0]] = 2
	rows[key[1]].([]any)[key[0]] = 3
	rows[door[1]].([]any)[door[0]] = 4
	return rows
}

// The same level twice is left out (and the next one taken); near-duplicates by the problem's
// diversity only from the similarity asked.
func TestDuplicatesLeftOut(t *testing.T) {
	a := room([2]int{0, 0}, [2]int{10, 0}, [2]int{10, 6})
	b := room([2]int{0, 6}, [2]int{5, 3}, [2]int{10, 0})
	// a with the door one cell away: a different content, the same route shape.
	near := room([2]int{0, 0}, [2]int{10, 0}, [2]int{9, 6})
	run := writeRun(t, t.TempDir(), "es", a, a, near, b)
	s, err := New(Options{Sources: []Source{{Dir: run, N: 3, Pick: PickBest}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Levels) != 3 || len(s.Dropped) != 1 || s.Dropped[0].Index != 1 || !strings.Contains(s.Dropped[0].Reason, "the same level as") {
		t.Fatalf("%d levels, dropped %+v", len(s.Levels), s.Dropped)
	}
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	ia, _ := p.Info(a)
	in, _ := p.Info(near)
	sim := 1 - p.Diversity(ia, in)
	s, err = New(Options{Sources: []Source{{Dir: run, N: 3, Pick: PickBest}}, NearDuplicate: sim})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Dropped) != 2 || s.Dropped[1].Index != 2 || !strings.Contains(s.Dropped[1].Reason, "near-duplicate") {
		t.Fatalf("at similarity %.3f: dropped %+v", sim, s.Dropped)
	}
	if _, err := New(Options{Sources: []Source{{Dir: run, N: 1}}, NearDuplicate: 1.5}); err == nil {
		t.Fatal("a similarity above 1 accepted")
	}
}

// The kiosk folder is blind: no generator, source, index, id or metric; the key, with the
// experimenter, is what report and merge read, and they refuse to run without it.
func TestKeyStaysWithExperimenter(t *testing.T) {
	dir, key := newSession(t, 5)
	blind, err := os.ReadFile(filepath.Join(dir, KioskDir, SessionFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{`"generator"`, `"source"`, `"ga"`, `"llm"`, "#", filepath.Dir(key.Levels[0].Source), `"quality"`, `"dropped"`} {
		if strings.Contains(string(blind), leak) {
			t.Errorf("the kiosk's session.json holds %s", leak)
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, KeyFile)); err != nil || !strings.Contains(string(data), `"generator": "ga"`) {
		t.Fatalf("key.json: %v", err)
	}
	laptop := kioskCopy(t, dir)
	if _, _, err := LoadAll(laptop); err == nil || !strings.Contains(err.Error(), KeyFile) {
		t.Fatalf("a report from a kiosk copy alone: %v", err)
	}
	if _, err := Merge(laptop, dir); err == nil {
		t.Fatal("merged into a kiosk copy without the key")
	}
	if _, _, err := LoadAll(dir, laptop); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(dir, Options{}); err == nil || !strings.Contains(err.Error(), "already holds") {
		t.Fatalf("a second session in the same folder: %v", err)
	}
}

// A hand-made file named like a generator stays a hand-made source in its own row.
func TestHandMadeNeverTakesAGeneratorName(t *testing.T) {
	runs := playtesttest.RunFolders(t, t.TempDir())
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	text, err := levelio.EncodeText("zelda-v0", p, []problems.Item{{Content: room([2]int{0, 0}, [2]int{10, 0}, [2]int{10, 6})}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "ga.txt")
	if err := os.WriteFile(file, text, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Sources: []Source{{Dir: runs["ga"], N: 1, Pick: PickBest}, {Dir: file, Problem: "zelda-v0", N: 1, Pick: PickBest}}})
	if err != nil {
		t.Fatal(err)
	}
	rep := Compute(s, nil)
	var gens []string
	for _, g := range rep.Generators {
		gens = append(gens, g.Generator)
	}
	if strings.Join(gens, "|") != "ga|hand-made: ga" {
		t.Fatalf("rows %q", gens)
	}
}

// The consent screen comes first (Esc leaves, nothing recorded), then the intake questions
// once; their answers go with the participant and into plays.csv.
func TestConsentAndIntake(t *testing.T) {
	runs := playtesttest.RunFolders(t, t.TempDir())
	dir := filepath.Join(t.TempDir(), "study")
	q := &Questionnaire{Consent: "You will play short levels.\nYou may stop at any time.",
		Intake:    []Question{{ID: "age", Text: "Your age?", Options: []string{"<18", "18-30", "31-50", ">50"}}},
		Questions: []Question{{ID: "fun", Text: "Fun?", Options: []string{"1", "2", "3"}}}}
	if _, err := Create(dir, Options{Sources: []Source{{Dir: runs["llm"], N: 2, Pick: PickBest}}, Questions: q}); err != nil {
		t.Fatal(err)
	}
	key, _ := LoadKey(dir)
	k := kiosk(t, dir, 1)
	if k.state != stateConsent {
		t.Fatalf("state %d, want the consent screen", k.state)
	}
	k.Press(play.KeyQuit)
	if !k.Quit() {
		t.Fatal("declining did not close the kiosk")
	}
	if who, err := LoadParticipant(sessionDir(dir), "P01"); who != nil || err != nil {
		t.Fatalf("a declining participant was recorded: %+v %v", who, err)
	}
	k = kiosk(t, dir, 1)
	k.Press(play.KeyEnter) // agree
	if k.state != stateIntake {
		t.Fatalf("state %d, want the intake", k.state)
	}
	k.Press(play.KeyRight) // "31-50"
	k.Press(play.KeyEnter)
	who, err := LoadParticipant(sessionDir(dir), "P01")
	if err != nil || who == nil || !who.Consented || who.Answers["age"] != "31-50" {
		t.Fatalf("participant record %+v, %v", who, err)
	}
	playLevels(t, k, key, 2, map[string]plan{"llm": {true, []string{"3"}}})
	if k = kiosk(t, dir, 1); k.state != stateDone {
		t.Fatalf("state %d after every level", k.state)
	}
	if k = kiosk(t, dir, 2); k.state != stateConsent {
		t.Fatal("the next participant is not asked for consent")
	}
	rep, _, err := ReportFolders("", dir)
	if err != nil {
		t.Fatal(err)
	}
	csv, err := os.ReadFile(filepath.Join(dir, ReportDir, "plays.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	if len(lines) != 3 || !strings.HasSuffix(lines[0], ",fun,intake_age") || !strings.HasPrefix(lines[1], "P01,Level ") || !strings.HasSuffix(lines[1], ",3,31-50") {
		t.Fatalf("plays.csv:\n%s", csv)
	}
	if rep.Plays != 2 {
		t.Fatalf("%d plays", rep.Plays)
	}
}

// A report folder that is a symbolic link is refused before any thumbnail is written through it.
func TestReportRefusesALinkedFolder(t *testing.T) {
	dir, key := newSession(t, 6)
	outside := t.TempDir()
	link := filepath.Join(dir, ReportDir)
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReportFolders("", dir); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("report through a link: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("wrote %d entries through the link", len(entries))
	}
	real := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(real, "thumbs")); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(real, Compute(key, nil)); err == nil {
		t.Fatal("thumbs written through a link")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("wrote %d entries through the thumbs link", len(entries))
	}
}

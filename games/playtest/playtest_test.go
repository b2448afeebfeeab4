package playtest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"pcgwb/games/play"
	"pcgwb/games/playtest/playtesttest"
	"pcgwb/problems"
	_ "pcgwb/problems/all"
	"pcgwb/problems/experiment"
	"pcgwb/problems/levelio"
)

func TestParseSources(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Source
		err  string
	}{
		{"runs/ga", []Source{{Dir: "runs/ga", N: DefaultPerSource, Pick: PickBest}}, ""},
		{"a:3,b:2:random", []Source{{Dir: "a", N: 3, Pick: PickBest}, {Dir: "b", N: 2, Pick: PickRandom}}, ""},
		{"a:#0+4+2", []Source{{Dir: "a", N: 3, Indices: []int{0, 4, 2}}}, ""},
		{"a:2:#0+4", []Source{{Dir: "a", N: 2, Indices: []int{0, 4}}}, ""},
		{"a:#0+4:2", []Source{{Dir: "a", N: 2, Indices: []int{0, 4}}}, ""},
		{"a:#0:2", nil, "hand-picked"},
		{"a:3:#0+4", nil, "hand-picked"},
		{"a:#0+4+2:1", nil, "hand-picked"},
		{"zelda-v0=levels.txt:2", []Source{{Dir: "levels.txt", Problem: "zelda-v0", N: 2, Pick: PickBest}}, ""},
		{"=levels.txt", nil, "needs a problem"},
		{"a:0", nil, "count"},
		{"a:#x", nil, "not an index"},
		{":3", nil, "empty folder"},
		{",", nil, "no run folder"},
	} {
		got, err := ParseSources(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

// newSession writes a session of every level of the two test runs into a new experimenter's
// folder (key.json and kiosk/) and returns it with its key.
func newSession(t *testing.T, seed uint64) (string, *Session) {
	t.Helper()
	runs := playtesttest.RunFolders(t, t.TempDir())
	dir := filepath.Join(t.TempDir(), "study")
	if _, err := Create(dir, Options{Sources: []Source{{Dir: runs["ga"], N: 4, Pick: PickBest}, {Dir: runs["llm"], N: 3, Pick: PickBest}}, Seed: seed, HandMade: true}); err != nil {
		t.Fatal(err)
	}
	key, err := LoadKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, key
}

// kioskCopy copies the kiosk folder of the experimenter's folder dir to a new folder, as the
// guide says to copy it to a kiosk laptop.
func kioskCopy(t *testing.T, dir string) string {
	t.Helper()
	laptop := t.TempDir()
	data, err := os.ReadFile(filepath.Join(dir, KioskDir, SessionFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(laptop, SessionFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return laptop
}

func TestNewSession(t *testing.T) {
	_, s := newSession(t, 7)
	// zelda-s000 has 17 players: it cannot be played and is left out with the reason.
	if len(s.Levels) != 6 || len(s.Dropped) != 1 || !strings.Contains(s.Dropped[0].Reason, "17 players") {
		t.Fatalf("%d levels, want 6; dropped %+v", len(s.Levels), s.Dropped)
	}
	gens := map[string]int{}
	for i, l := range s.Levels {
		if l.Name != fmt.Sprintf("Level %d", i+1) {
			t.Errorf("level %d is named %q", i, l.Name)
		}
		gens[l.Generator]++
		if l.Playable != (l.Quality >= 1) || l.Playable && l.SolverMoves == 0 {
			t.Errorf("%s: playable %v, quality %v, solver moves %d", l.Name, l.Playable, l.Quality, l.SolverMoves)
		}
	}
	if gens["ga"] != 3 || gens["llm"] != 3 {
		t.Fatalf("levels per generator %v", gens)
	}
	_, again := newSession(t, 7)
	_, other := newSession(t, 8)
	order := func(s *Session) string {
		var ids []string
		for _, l := range s.Levels {
			ids = append(ids, l.Item.ID)
		}
		return strings.Join(ids, " ")
	}
	if order(again) != order(s) || order(other) == order(s) {
		t.Fatalf("the shuffle does not follow the seed:\n%s\n%s\n%s", order(s), order(again), order(other))
	}
	if a, b := s.Order(1), s.Order(2); reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, s.Order(1)) {
		t.Fatalf("participants' orders %v %v", a, b)
	}
}

// plan is what a scripted player does on the levels of one generator.
type plan struct {
	win     bool // play the recorded solution (levels without one are given up)
	answers []string
}

// playLevels lets a scripted player play n levels in the kiosk through its keys, as the window
// would press them. It returns the levels played.
func playLevels(t *testing.T, k *Kiosk, key *Session, n int, plans map[string]plan) []string {
	t.Helper()
	var names []string
	for i := 0; i < n; i++ {
		if k.state != statePause {
			t.Fatalf("the kiosk is in state %d before a level", k.state)
		}
		k.Press(play.KeyEnter)
		l := key.Levels[k.level]
		names = append(names, l.Name)
		pl := plans[l.Generator]
		keys := []play.Key{play.KeyRight, play.KeyQuit}
		if pl.win && l.SolverMoves > 0 {
			keys = solution(t, l)
		}
		for _, key := range keys {
			if k.state != statePlaying {
				break
			}
			k.Press(key)
			k.Tick()
		}
		for j := 0; j < 1000 && k.state == statePlaying; j++ {
			k.Tick()
		}
		k.Press(play.KeyEnter) // outcome screen → questionnaire
		for qi, q := range k.s.Questions {
			want := 0
			for want < len(q.Options) && q.Options[want] != pl.answers[qi] {
				want++
			}
			for k.choice > want {
				k.Press(play.KeyLeft)
			}
			for k.choice < want {
				k.Press(play.KeyRight)
			}
			k.Press(play.KeyEnter)
		}
	}
	return names
}

func solution(t *testing.T, l Level) []play.Key {
	t.Helper()
	p, err := problems.Make(l.Problem)
	if err != nil {
		t.Fatal(err)
	}
	g, err := play.New(l.Problem, p, l.Item.Content)
	if err != nil {
		t.Fatal(err)
	}
	return g.Solution()
}

// clock is a test clock that moves one second each time it is read.
type clock struct{ t time.Time }

func (c *clock) now() time.Time {
	c.t = c.t.Add(time.Second)
	return c.t
}

// kiosk opens a kiosk on the session folder dir (the experimenter's or a copy) for participant
// n, as Open does without the lock, with a test clock.
func kiosk(t *testing.T, dir string, n int) *Kiosk {
	t.Helper()
	sdir := sessionDir(dir)
	s, err := Load(sdir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := LoadRecords(sdir, s)
	if err != nil {
		t.Fatal(err)
	}
	who, err := LoadParticipant(sdir, ParticipantCode(n))
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
	k, err := NewKiosk(s, n, KioskStore{Done: recs, Intake: who, Now: c.now,
		Save:            func(r Record) error { return SaveRecord(sdir, r) },
		SaveParticipant: func(r ParticipantRecord) error { return SaveParticipant(sdir, r) }})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestFullPlaytest runs a complete playtest: two players on two laptops (copies of one session
// folder), a break and a resume, a merge, and the report's numbers checked against values
// computed by hand from the players' plans.
func TestFullPlaytest(t *testing.T) {
	dir, s := newSession(t, 3)
	laptop2 := kioskCopy(t, dir)
	// ana wins every level she can and likes the GA's; ben wins only the GA's and likes the LLM's.
	ana := map[string]plan{"ga": {true, []string{"4", "3", "no"}}, "llm": {true, []string{"2", "3", "yes"}}}
	ben := map[string]plan{"ga": {true, []string{"2", "4", "no"}}, "llm": {false, []string{"5", "2", "unsure"}}}

	k := kiosk(t, dir, 1)
	playLevels(t, k, s, 3, ana)
	k.Press(play.KeyQuit) // a break
	if !k.Quit() || k.Played() != 3 {
		t.Fatalf("break: quit %v, played %d", k.Quit(), k.Played())
	}
	k = kiosk(t, dir, 1) // resume
	if k.Left() != 3 {
		t.Fatalf("resume: %d levels left, want 3", k.Left())
	}
	playLevels(t, k, s, 3, ana)
	if k.state != stateDone {
		t.Fatal("the kiosk did not end after the last level")
	}
	playLevels(t, kiosk(t, laptop2, 2), s, 6, ben)

	if n, err := Merge(dir, laptop2); err != nil || n != 6 {
		t.Fatalf("merge copied %d records: %v", n, err)
	}
	if n, err := Merge(dir, laptop2); err != nil || n != 0 {
		t.Fatalf("a second merge copied %d records: %v", n, err)
	}
	s2, recs, err := LoadAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, both, err := LoadAll(dir, laptop2)
	if err != nil || len(both) != 12 || len(recs) != 12 {
		t.Fatalf("records: merged %d, read from both folders %d (%v), want 12", len(recs), len(both), err)
	}
	rep := Compute(s2, recs)
	// By hand: ga has 3 levels, llm 3 (zelda-s000 was left out); every level has a recorded
	// solution. ga: ana 3 wins of 3, ben 3 of 3 → 6/6. llm: ana 3 of 3, ben 0 of 3 → 3/6.
	// fun ga: (4·3 + 2·3)/6 = 3; llm: (2·3 + 5·3)/6 = 3.5. handmade "yes": ga 0, llm 3/6.
	// Playable levels (quality 1): 6 levels, 12 plays, won 6 (ana) + 3 (ben) = 9 → 0.75; no
	// level of quality below 1 was served.
	want := map[string][3]float64{"ga": {1, 3, 0}, "llm": {0.5, 3.5, 0.5}}
	for _, g := range rep.Generators {
		w := want[g.Generator]
		if !near(g.Completion.Value, w[0]) || !near(g.Ratings["fun"].Value, w[1]) || !near(g.Ratings["handmade"].Value, w[2]) {
			t.Errorf("%s: completion %s fun %s handmade %s, want %v", g.Generator, g.Completion.Text(), g.Ratings["fun"].Text(), g.Ratings["handmade"].Text(), w)
		}
		if g.Completion.N != 2 || g.Plays != 2*g.Levels || !(g.Completion.Lo <= g.Completion.Value && g.Completion.Value <= g.Completion.Hi) {
			t.Errorf("%s: completion interval %s", g.Generator, g.Completion.Text())
		}
	}
	r := rep.Relations
	if !near(r.PlayableCompletion.Value, 0.75) || r.PlayableCompletion.N != 2 || !math.IsNaN(r.UnplayableCompletion.Value) || r.UnplayableCompletion.N != 0 {
		t.Errorf("playable %s, unplayable %s", r.PlayableCompletion.Text(), r.UnplayableCompletion.Text())
	}
	orders := map[string]map[int]string{}
	for _, rec := range recs {
		if rec.Result == play.ResultWon {
			// Each solution key was pressed, then one tick passed, until the win: the trace is
			// the solution or its beginning, and every step of it a move (sword swings are not).
			l := s.Levels[s.level(rec.Level)]
			if rec.Moves == 0 || rec.Moves > l.SolverMoves || len(rec.Trace) < rec.Moves || len(rec.Trace) > l.SolverMoves {
				t.Errorf("%s %s: %d moves, %d trace events, want at most %d", rec.Participant, rec.Level, rec.Moves, len(rec.Trace), l.SolverMoves)
			}
		}
		if rec.Start.IsZero() || !rec.End.After(rec.Start) {
			t.Errorf("%s %s: start %v end %v", rec.Participant, rec.Level, rec.Start, rec.End)
		}
		if orders[rec.Participant] == nil {
			orders[rec.Participant] = map[int]string{}
		}
		orders[rec.Participant][rec.Position] = rec.Level
	}
	// Positions follow each participant's row of the Latin square.
	for code, byPos := range orders {
		n, _ := ParseParticipant(code)
		for i, li := range s.Order(n) {
			if byPos[i+1] != s.Levels[li].Name {
				t.Errorf("%s: position %d holds %s, the square says %s", code, i+1, byPos[i+1], s.Levels[li].Name)
			}
		}
	}
	if len(rep.Positions) != 6 || rep.Positions[0].Plays != 2 {
		t.Errorf("positions %+v", rep.Positions)
	}
	if len(rep.Differences) != len(rep.Questions)+2 {
		t.Errorf("%d differences for 2 generators, want %d", len(rep.Differences), len(rep.Questions)+2)
	}
	for _, d := range rep.Differences {
		if d.Measure == "completion" && (!near(d.Diff.Value, 0.5) || d.Diff.N != 2 || math.IsNaN(d.P) || d.PHolm < d.P) {
			t.Errorf("ga − llm completion %+v", d)
		}
	}
	out := filepath.Join(dir, ReportDir)
	files, err := Write(out, rep)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 6+9 {
		t.Errorf("wrote %d files: %v", len(files), files)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(md), "| ga | 3 | 6 | 1.00 [") || !strings.Contains(string(md), "thumbs/Level%201.png") {
		t.Errorf("report.md:\n%s", md)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// TestComputeHandNumbers checks medians and rank correlations on records made by hand.
func TestComputeHandNumbers(t *testing.T) {
	s := &Session{Questions: DefaultQuestions()}
	// Four levels of one generator; solver lengths 10, 20, 30, 40.
	for i, m := range []int{10, 20, 30, 40} {
		s.Levels = append(s.Levels, Level{Name: fmt.Sprintf("Level %d", i+1), Generator: "g", SolverMoves: m, Playable: true, Quality: 1})
	}
	rec := func(level string, res play.Result, sec float64, fun string) Record {
		return Record{Participant: "P01", Level: level, Outcome: play.Outcome{Result: res, Seconds: sec}, Answers: map[string]string{"fun": fun, "difficulty": "3"}}
	}
	recs := []Record{
		rec("Level 1", play.ResultWon, 5, "1"), rec("Level 1", play.ResultWon, 7, "2"),
		rec("Level 2", play.ResultWon, 9, "3"), rec("Level 2", play.ResultLost, 1, "3"),
		rec("Level 3", play.ResultWon, 8, "5"),
		rec("Level 4", play.ResultWon, 20, "4"), rec("Level 4", play.ResultTimeUp, 60, "4"),
	}
	rep := Compute(s, recs)
	g := rep.Generators[0]
	// Won times 5 7 9 8 20 → sorted 5 7 8 9 20, median 8; 5 of 7 won; fun mean 22/7.
	if g.MedianTime.Value != 8 || g.MedianTime.N != 5 || !near(g.Completion.Value, 5.0/7) || !near(g.Ratings["fun"].Value, 22.0/7) {
		t.Fatalf("median %s, completion %s, fun %s", g.MedianTime.Text(), g.Completion.Text(), g.Ratings["fun"].Text())
	}
	// Per level median times 6, 9, 8, 20 against 10 20 30 40: ranks 1 3 2 4 vs 1 2 3 4:
	// rho = 1 - 6·Σd²/(n(n²-1)) = 1 - 6·2/60 = 0.8.
	if got := rep.Relations.SolverVsTime; !near(got.Value, 0.8) || got.N != 4 || got.Lo > got.Hi {
		t.Fatalf("solver vs time %s, want 0.8", got.Text())
	}
	if rep.Levels[0].MedianTime != 6 || rep.Levels[1].Won != 1 {
		t.Fatalf("level rows %+v", rep.Levels[:2])
	}
	for _, tc := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3}, []float64{3, 2, 1}, -1},
		{[]float64{1, 2, 2, 3}, []float64{1, 2, 3, 4}, 0.9486832980505138}, // ties averaged
		{[]float64{1, 1}, []float64{1, 2}, math.NaN()},
	} {
		if got := Spearman(tc.x, tc.y); !(near(got, tc.want) || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("Spearman(%v, %v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
	if e := MeanCI([]float64{2, 2, 2}); e.Value != 2 || e.Lo != 2 || e.Hi != 2 || e.N != 3 {
		t.Errorf("constant data: %s", e.Text())
	}
}

// TestKillResume kills a playing kiosk with SIGKILL in the middle of its third level: the two
// levels finished are recorded whole, and a new kiosk resumes with the five others.
func TestKillResume(t *testing.T) {
	if os.Getenv("PLAYTEST_CHILD") != "" {
		return
	}
	dir, s := newSession(t, 5)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestKioskChild$")
	cmd.Env = append(os.Environ(), "PLAYTEST_CHILD="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && sc.Text() != "in level 3" {
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	_, recs, err := LoadAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records after the kill, want 2", len(recs))
	}
	k := kiosk(t, dir, 3)
	if k.Left() != len(s.Levels)-2 {
		t.Fatalf("%d levels left after the kill, want %d", k.Left(), len(s.Levels)-2)
	}
	playLevels(t, k, s, k.Left(), map[string]plan{"ga": {true, []string{"3", "3", "no"}}, "llm": {true, []string{"3", "3", "no"}}})
	if _, recs, _ = LoadAll(dir); len(recs) != len(s.Levels) {
		t.Fatalf("%d records after resuming, want %d", len(recs), len(s.Levels))
	}
}

// TestKioskChild is TestKillResume's child: it plays two levels, starts the third and waits to
// be killed.
func TestKioskChild(t *testing.T) {
	dir := os.Getenv("PLAYTEST_CHILD")
	if dir == "" {
		t.Skip("the child of TestKillResume")
	}
	k := kiosk(t, dir, 3)
	key, err := LoadKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	playLevels(t, k, key, 2, map[string]plan{"ga": {true, []string{"3", "3", "no"}}, "llm": {true, []string{"3", "3", "no"}}})
	k.Press(play.KeyEnter)
	k.Press(play.KeyRight)
	fmt.Println("in level 3")
	time.Sleep(time.Minute)
}

func FuzzParseSources(f *testing.F) {
	for _, s := range []string{"runs/ga:5,runs/llm:3:random", "a:#1+2", "a::best"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		srcs, err := ParseSources(s)
		if err != nil {
			return
		}
		for _, src := range srcs {
			if src.Dir == "" || src.N < 1 || src.Pick == "" && len(src.Indices) != src.N {
				t.Fatalf("accepted %+v from %q", src, s)
			}
		}
	})
}

func FuzzDecodeSession(f *testing.F) {
	f.Add([]byte(`{"format":1,"seed":3,"questions":[{"id":"fun","text":"?","options":["1","2"]}],"levels":[{"name":"Level 1","problem":"zelda-v0","item":{"content":[[2,1,1,1,1,1,1,1,1,1,3],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[4,1,1,1,1,1,1,1,1,5,5]]}}]}`))
	f.Add([]byte(`{"format":1,"levels":[{"name":"../x","problem":"zelda-v0"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeSession(data)
		if err != nil {
			return
		}
		for _, l := range s.Levels {
			if !safeName(l.Name) {
				t.Fatalf("accepted level name %q", l.Name)
			}
		}
	})
}

// TestHandMadeSource puts levels from a text file (as a designer would draw them) in a
// playtest beside a run's: they are evaluated, ranked by quality and named by the file.
func TestHandMadeSource(t *testing.T) {
	runs := playtesttest.RunFolders(t, t.TempDir())
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	final, err := New(Options{Sources: []Source{{Dir: runs["ga"], N: 4, Pick: PickBest}}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var items []problems.Item
	for _, l := range final.Levels {
		items = append(items, l.Item)
	}
	text, err := levelio.EncodeText("zelda-v0", p, items)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "designer.txt")
	if err := os.WriteFile(file, text, 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, err := ParseSources("zelda-v0=" + file + ":3," + runs["llm"] + ":1")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Sources: srcs, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range s.Levels {
		if l.Generator == HandMadePrefix+"designer" {
			n++
			if !l.Playable || l.SolverMoves == 0 {
				t.Errorf("%s: the best three of the file are playable, got quality %v", l.Name, l.Quality)
			}
		}
	}
	if n != 3 || len(s.Levels) != 4 {
		t.Fatalf("%d designer levels of %d", n, len(s.Levels))
	}
}

func FuzzDecodeRecord(f *testing.F) {
	f.Add([]byte(`{"participant":"P01","level":"Level 1","position":1,"problem":"zelda-v0","result":"won","moves":1,"seconds":0.1,"ticks":6,"trace":[{"t":0,"press":"left"}],"answers":{"fun":"2"}}`))
	f.Add([]byte(`{"participant":"../x","level":"Level 1","result":"quit","trace":[]}`))
	s := &Session{Questions: DefaultQuestions(), Levels: []Level{{Name: "Level 1"}}}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := decodeRecord(s, data)
		if err != nil {
			return
		}
		if CheckParticipant(r.Participant) != nil || s.level(r.Level) < 0 || r.Position < 0 || r.Position > len(s.Levels) {
			t.Fatalf("accepted %+v", r)
		}
		for id, a := range r.Answers {
			for _, q := range s.Questions {
				if q.ID == id && !contains(q.Options, a) {
					t.Fatalf("accepted answer %q to %s", a, id)
				}
			}
		}
	})
}

// A level the play window cannot open (a room without a player) is passed over when picking
// the best or a random draw, and left out with its reason when hand-picked.
func TestUnplayableLevelsPassedOver(t *testing.T) {
	runs := playtesttest.RunFolders(t, t.TempDir())
	final, err := experiment.ReadFinal(runs["llm"])
	if err != nil {
		t.Fatal(err)
	}
	empty := make([]any, 7)
	for y := range empty {
		row := make([]any, 11)
		for x := range row {
			row[x] = 1
		}
		empty[y] = row
	}
	final.Population = append([]problems.Scored{{Content: empty, Quality: 1, Cell: problems.NoCell}}, final.Population...)
	final.Size = len(final.Population)
	data, err := json.Marshal(final)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(runs["llm"], experiment.FinalFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Sources: []Source{{Dir: runs["llm"], N: 3, Pick: PickBest}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range s.Levels {
		if l.Index == 0 {
			t.Fatal("the room without a player was picked")
		}
	}
	if len(s.Levels) != 3 {
		t.Fatalf("%d levels, want 3", len(s.Levels))
	}
	if len(s.Dropped) != 1 || s.Dropped[0].Index != 0 || !strings.Contains(s.Dropped[0].Reason, "no player") {
		t.Fatalf("dropped %+v, want the room without a player with its reason", s.Dropped)
	}
	if _, err := New(Options{Sources: []Source{{Dir: runs["llm"], N: 1, Indices: []int{0}}}}); err == nil || !strings.Contains(err.Error(), "no player") {
		t.Fatalf("only the room without a player: %v, want the reason", err)
	}
	s, err = New(Options{Sources: []Source{{Dir: runs["llm"], N: 2, Indices: []int{0, 1}}}})
	if err != nil || len(s.Levels) != 1 || s.Levels[0].Index != 1 || len(s.Dropped) != 1 || !strings.Contains(s.Dropped[0].Reason, "cannot be played") {
		t.Fatalf("hand-picking the room without a player: %+v, %v", s, err)
	}
}

// A level left alone past the session's time limit ends as "time up" and is recorded so.
func TestKioskTimeUp(t *testing.T) {
	dir, s := newSession(t, 1)
	s.TimeLimit = 0.5
	if err := s.Blind().Save(filepath.Join(dir, KioskDir)); err != nil {
		t.Fatal(err)
	}
	k := kiosk(t, dir, 4)
	k.Press(play.KeyEnter)
	// The kiosk's level is drawn with large text: a taller frame than the play window's.
	if plain := play.NewSession("x", k.game.Game(), false).Frame(); k.Frame().Rect.Dy() <= plain.Rect.Dy() {
		t.Fatalf("the kiosk's frame is %v, the play window's %v: no large text", k.Frame().Rect.Size(), plain.Rect.Size())
	}
	for i := 0; i < 29; i++ {
		k.Tick()
	}
	if k.state != statePlaying {
		t.Fatal("the level ended before its time limit")
	}
	k.Tick()
	if k.state != stateOver || k.outcome.Result != play.ResultTimeUp || k.outcome.Seconds != 0.5 {
		t.Fatalf("state %d, outcome %s", k.state, k.outcome.Text())
	}
	k.Press(play.KeyEnter)
	for range k.s.Questions {
		k.Press(play.KeyEnter)
	}
	recs, err := LoadRecords(sessionDir(dir), s)
	if err != nil || len(recs) != 1 || recs[0].Result != play.ResultTimeUp || recs[0].Answers["fun"] != "3" {
		t.Fatalf("records %+v, %v", recs, err)
	}
}

// Two laptops that used the same participant code keep both plays after a merge.
func TestMergeSamePlayerTwoLaptops(t *testing.T) {
	dir, s := newSession(t, 2)
	other := kioskCopy(t, dir)
	l := s.Levels[0].Name
	a := Record{Participant: "P05", Level: l, Position: 1, Outcome: play.Outcome{Result: play.ResultWon, Seconds: 3, Trace: []play.TraceEvent{}}, Answers: map[string]string{"fun": "5"}}
	b := a
	b.Outcome.Result, b.Answers = play.ResultLost, map[string]string{"fun": "1"}
	if err := SaveRecord(sessionDir(dir), a); err != nil {
		t.Fatal(err)
	}
	if err := SaveRecord(other, b); err != nil {
		t.Fatal(err)
	}
	if n, err := Merge(dir, other); err != nil || n != 1 {
		t.Fatalf("merge: %d, %v", n, err)
	}
	_, recs, err := LoadAll(dir)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	if _, err := os.Stat(filepath.Join(dir, KioskDir, RecordsDir, "P05", l+".2.json")); err != nil {
		t.Fatal(err)
	}
	// A folder of another session does not merge.
	foreign, _ := newSession(t, 99)
	if _, err := Merge(dir, foreign); err == nil || !strings.Contains(err.Error(), "another playlist") {
		t.Fatalf("merging another session: %v", err)
	}
}

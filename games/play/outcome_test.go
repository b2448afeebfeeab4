package play

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pcgwb/problems"
)

// liveSession plays keys as a person would: pressed at uneven ticks, with the game's own
// clock running (games that step in time step on their own) and, for games that move with
// held keys, the key held for a few ticks.
func liveSession(problem string, g Game, keys []Key) *Session {
	s := NewSession(problem, g, false)
	for i, k := range keys {
		if s.Status() != Running {
			break
		}
		s.Press(k)
		s.Hold([]Key{k})
		for j := 0; j < 3+i%5; j++ {
			s.Tick()
		}
		s.Hold(nil)
		s.Tick()
	}
	return s
}

// TestOutcomeRoundTrip records a live session's outcome for every game, writes and reads it
// back as JSON, and replays its trace on a fresh game: the same states, the same outcome.
func TestOutcomeRoundTrip(t *testing.T) {
	for _, tc := range games {
		t.Run(tc.id, func(t *testing.T) {
			needData(t, tc.problem)
			_, _, g := level(t, tc.problem, tc.id)
			keys := g.Solution()
			if tc.lose != "" {
				keys = append(parse(t, tc.lose), keys...)
			}
			keys = append(keys, KeyRestart, KeyRight)
			s := liveSession(tc.problem, g, keys)
			s.Press(KeyQuit)
			o := s.Outcome(tc.problem, tc.id)
			if o.Moves == 0 || len(o.Trace) == 0 || o.Ticks == 0 {
				t.Fatalf("nothing recorded: %+v", o)
			}
			path := filepath.Join(t.TempDir(), "outcome.json")
			if err := WriteOutcome(path, o); err != nil {
				t.Fatal(err)
			}
			back, err := ReadOutcome(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, o) {
				t.Fatalf("read back %+v\nwant %+v", back, o)
			}
			_, _, g2 := level(t, tc.problem, tc.id)
			r := NewSession(tc.problem, g2, false)
			r.SetTrace(back.Trace)
			for r.clock < back.Ticks {
				r.Tick()
			}
			r.Press(KeyQuit)
			if g2.Text() != g.Text() || g2.Status() != g.Status() {
				t.Fatalf("the replayed trace ends elsewhere:\n%s\nwant\n%s", g2.Text(), g.Text())
			}
			if ro := r.Outcome(tc.problem, tc.id); ro.Result != o.Result || ro.Moves != o.Moves || ro.Seconds != o.Seconds {
				t.Fatalf("replayed outcome %s, recorded %s", ro.Text(), o.Text())
			}
		})
	}
}

func TestOutcomeResults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string
		limit  float64
		want   Result
	}{
		{"won", "", 0, ResultWon},
		{"quit while running", "R", 0, ResultQuit},
		{"time up", "R", 0.5, ResultTimeUp},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, g := level(t, "sokoban-v0", "sokoban-s024")
			keys := g.Solution()
			if tc.script != "" {
				keys = parse(t, tc.script)
			}
			s := NewSession("sokoban-v0", g, false)
			s.SetTimeLimit(tc.limit)
			s.SetScript(keys)
			for i := 0; i < 60*TPS && !(s.FeedDone() && (s.Status() != Running || tc.limit == 0 || s.TimeUp())); i++ {
				s.Tick()
			}
			o := s.Outcome("sokoban-v0", "x")
			if o.Result != tc.want {
				t.Fatalf("result %q, want %q (%s)", o.Result, tc.want, o.Text())
			}
			if tc.want == ResultTimeUp && o.Seconds != tc.limit {
				t.Fatalf("time up after %v s, want %v", o.Seconds, tc.limit)
			}
		})
	}
}

func TestDecodeOutcomeRefuses(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{`, "not a play outcome"},
		{`{"result":"maybe"}`, "result"},
		{`{"result":"won","moves":-1}`, "negative"},
		{`{"result":"won","ticks":5,"trace":[{"t":3,"press":"left"},{"t":1,"press":"left"}]}`, "out of order"},
		{`{"result":"won","ticks":5,"trace":[{"t":3}]}`, "empty"},
		{`{"result":"won","ticks":5,"trace":[{"t":3,"press":"jump"}]}`, "unknown key"},
	} {
		if _, err := DecodeOutcome([]byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.data, err, tc.want)
		}
	}
}

func TestLevelHandOff(t *testing.T) {
	p, c, _ := level(t, "zelda-v0", "zelda-s020")
	item := problems.Item{ID: "zelda-s020", Content: c}
	data, err := EncodeLevel("zelda-v0", item)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeLevel("zelda-v0", p, data)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(item)
	b, _ := json.Marshal(back)
	if string(a) != string(b) {
		t.Fatalf("hand-off changed the level:\n%s\n%s", a, b)
	}
	for _, tc := range []struct{ name, data, want string }{
		{"other problem", strings.Replace(string(data), "zelda-v0", "sokoban-v0", 1), "not zelda-v0"},
		{"two items", `{"problem":"zelda-v0","items":[` + string(a) + `,` + string(a) + `]}`, "one item"},
		{"bare content", `[[1]]`, "not a level hand-off"},
	} {
		if _, err := DecodeLevel("zelda-v0", p, []byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func FuzzDecodeOutcome(f *testing.F) {
	f.Add([]byte(`{"problem":"zelda-v0","result":"won","moves":2,"seconds":0.5,"ticks":30,"trace":[{"t":1,"press":"left"},{"t":2,"hold":["left","space"]}]}`))
	f.Add([]byte(`{"result":"time up","trace":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := DecodeOutcome(data)
		if err != nil {
			return
		}
		again, err := json.Marshal(o)
		if err != nil {
			t.Fatalf("an accepted outcome does not encode: %v", err)
		}
		o2, err := DecodeOutcome(again)
		if err != nil || !reflect.DeepEqual(o, o2) {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, o, o2)
		}
	})
}

func FuzzDecodeLevel(f *testing.F) {
	f.Add([]byte(`{"problem":"zelda-v0","items":[{"content":[[2,1,1,1,1,1,1,1,1,1,3],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1],[4,1,1,1,1,1,1,1,1,5,5]]}]}`))
	p, err := problems.Make("zelda-v0")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		item, err := DecodeLevel("zelda-v0", p, data)
		if err != nil {
			return
		}
		again, err := EncodeLevel("zelda-v0", item)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeLevel("zelda-v0", p, again); err != nil {
			t.Fatalf("an accepted level does not read back: %v", err)
		}
	})
}

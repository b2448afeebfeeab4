package play

import (
	"errors"
	"image"
	"strings"
	"testing"

	"pcgwb/problems"
)

// grid is a content of rows of tiles.
func grid(rows ...[]int) []any {
	out := make([]any, len(rows))
	for y, r := range rows {
		row := make([]any, len(r))
		for x, v := range r {
			row[x] = v
		}
		out[y] = row
	}
	return out
}

func make_(t *testing.T, name string) problems.Problem {
	t.Helper()
	p, err := problems.Make(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestUnplayableSaysWhatIsWrong: levels that cannot be played are refused with the reason, the
// reason Watch gives instead of "the solver found no way through"; playable ones pass.
func TestUnplayableSaysWhatIsWrong(t *testing.T) {
	needData(t, "elimination-v0")
	open := func(n int) []int {
		r := make([]int, n)
		for i := range r {
			r[i] = 1
		}
		return r
	}
	zeldaRoom := func(tiles map[[2]int]int) []any {
		rows := make([][]int, 7)
		for y := range rows {
			rows[y] = open(11)
		}
		for at, v := range tiles {
			rows[at[1]][at[0]] = v
		}
		return grid(rows...)
	}
	letters := make([]any, 8)
	for i := range letters {
		letters[i] = int('q' - 'a')
	}
	for _, tc := range []struct {
		name    string
		problem string
		content problems.Content
		want    string // "" for a playable level
	}{
		{"no hidden word", "elimination-v0", letters, "hide no word"},
		{"starts stuck", "sokoban-v0", grid([]int{3, 1, 1, 1, 1}, open(5), []int{1, 1, 2, 1, 1}, open(5), []int{1, 1, 1, 1, 4}), "can never reach"},
		{"crates without targets", "sokoban-v0", grid(open(5), []int{1, 2, 3, 3, 4}, open(5), open(5), open(5)), "2 crates for 1 targets"},
		{"no crate", "sokoban-v0", grid(open(5), []int{1, 2, 1, 1, 1}, open(5), open(5), open(5)), "no crate"},
		{"sokoban playable", "sokoban-v0", grid(open(5), []int{1, 2, 3, 4, 1}, open(5), open(5), open(5)), ""},
		{"zelda without a key", "zelda-v0", zeldaRoom(map[[2]int]int{{1, 1}: 2, {9, 5}: 4}), "no key"},
		{"zelda with two players", "zelda-v0", zeldaRoom(map[[2]int]int{{1, 1}: 2, {2, 1}: 2, {5, 5}: 3, {9, 5}: 4}), "2 players"},
		{"zelda playable", "zelda-v0", zeldaRoom(map[[2]int]int{{1, 1}: 2, {5, 5}: 3, {9, 5}: 4}), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := make_(t, tc.problem)
			c, err := p.ContentSpace().Normalize(tc.content, "content")
			if err != nil {
				t.Fatal(err)
			}
			err = Unplayable(tc.problem, p, c)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("a playable level refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrUnplayable) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want ErrUnplayable saying %q", err, tc.want)
			}
			if ok, why := HasSolution(tc.problem, p, c); ok || !strings.Contains(why, tc.want) {
				t.Fatalf("Watch: %v %q, want the level's fault %q", ok, why, tc.want)
			}
		})
	}
	if err := Unplayable("nosuch-v0", nil, nil); !errors.Is(err, ErrNoPlayView) {
		t.Fatalf("no play view: %v", err)
	}
}

// TestMarioTimeScalesWithLength: a person gets HumanTimeFactor times the agent's time, which
// grows with the level's width (150 s for 150 slices); the agent's replay keeps its own.
func TestMarioTimeScalesWithLength(t *testing.T) {
	needData(t, "smb-v0")
	for _, name := range []string{"smb-v0", "smb-small-v0"} {
		p := make_(t, name)
		c := p.ContentSpace().Sample(problems.NewRand(1))
		g, err := New(name, p, c)
		if err != nil {
			t.Fatal(err)
		}
		width := len(c.([]any))
		// The game has played its first frame (a few ms) when it opens.
		if got := g.(*smbGame).g.World().TimeLeft(); got <= 1000*width-100 || got > 1000*width {
			t.Errorf("%s: a person gets %d ms for %d slices, want %d less a frame", name, got, width, 1000*width)
		}
		s := NewSession("replay", g, true)
		if got, want := s.Game().(*smbGame).g.World().TimeLeft(), 1000*p.(interface{ Timer() int }).Timer(); got <= want-100 || got > want {
			t.Errorf("%s: the replay has %d ms, want the agent's %d less a frame", name, got, want)
		}
	}
}

// TestMovesAreMoves: key presses that change nothing (into a wall, after the win) are not
// moves; a game's own count is the outcome's.
func TestMovesAreMoves(t *testing.T) {
	open := []int{1, 1, 1, 1, 1}
	p := make_(t, "sokoban-v0")
	c, err := p.ContentSpace().Normalize(grid(open, []int{1, 2, 3, 4, 1}, open, open, open), "content")
	if err != nil {
		t.Fatal(err)
	}
	g, err := New("sokoban-v0", p, c)
	if err != nil {
		t.Fatal(err)
	}
	// Left, two bumps into the wall, up, a bump, down, right, the winning push, two after the win.
	s := play(t, g, parse(t, "L L L U U D R R R R"))
	if s.Status() != Won {
		t.Fatalf("%s\n%s", s.Status(), g.Text())
	}
	if o := s.Outcome("sokoban-v0", "x"); o.Moves != 5 {
		t.Fatalf("%d moves recorded for 5 moves (10 key presses)", o.Moves)
	}

	f := &flipGame{}
	s = NewSession("flip", f, false)
	for _, k := range []Key{KeyRight, KeyLeft, KeyLeft, KeyWait, KeyRight} {
		s.Press(k)
	}
	if s.Moves() != 2 {
		t.Fatalf("%d moves for two presses that changed the state", s.Moves())
	}
	s.Press(KeyRestart)
	if s.Moves() != 0 {
		t.Fatalf("%d moves after a restart", s.Moves())
	}
}

// flipGame counts Right presses; nothing else changes it.
type flipGame struct{ n int }

func (f *flipGame) Reset() { f.n = 0 }
func (f *flipGame) Input(k Key) {
	if k == KeyRight {
		f.n++
	}
}
func (f *flipGame) Update()            {}
func (f *flipGame) Status() Status     { return Running }
func (f *flipGame) Board() image.Image { return image.NewRGBA(image.Rect(0, 0, 1, 1)) }
func (f *flipGame) HUD() string        { return "" }
func (f *flipGame) Controls() string   { return "" }
func (f *flipGame) Text() string       { return strings.Repeat("x", f.n) }
func (f *flipGame) Solution() []Key    { return nil }

// A kiosk's large text doubles the banner and the HUD lines: the frame grows by their height
// and the board keeps its size.
func TestLargeText(t *testing.T) {
	open := []int{1, 1, 1, 1, 1}
	p := make_(t, "sokoban-v0")
	c, err := p.ContentSpace().Normalize(grid(open, []int{1, 2, 3, 4, 1}, open, open, open), "content")
	if err != nil {
		t.Fatal(err)
	}
	g, err := New("sokoban-v0", p, c)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession("large", g, false)
	small := s.Frame().Bounds()
	s.SetLargeText(true)
	large := s.Frame().Bounds()
	if large.Dx() != small.Dx() || large.Dy() != small.Dy()+bannerHeight+hudLines*lineHeight {
		t.Fatalf("frame %v with large text, %v without", large.Size(), small.Size())
	}
}

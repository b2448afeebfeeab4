package app

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"pcgwb/games/play"
	"pcgwb/problems"
	"pcgwb/problems/levelio"
)

// fakeLaunch replaces the play window for the test: it records the items launched and
// answers with outcome.
func fakeLaunch(t *testing.T, outcome *play.Outcome) *[]problems.Item {
	t.Helper()
	var got []problems.Item
	old := launchPlay
	launchPlay = func(_ context.Context, _ string, item problems.Item, _ bool, _ ...string) (*play.Outcome, error) {
		got = append(got, item)
		return outcome, nil
	}
	t.Cleanup(func() { launchPlay = old })
	return &got
}

// The Editor's Play button and its P key playtest the edited level through PlayLevel, and the
// status line ends on the outcome.
func TestEditorPlay(t *testing.T) {
	wb := newTestWorkbench(t, Options{Problem: "zelda-v0"})
	_, p, err := wb.currentProblem()
	if err != nil {
		t.Fatal(err)
	}
	launched := fakeLaunch(t, &play.Outcome{Result: play.ResultWon, Seconds: 4, Moves: 9})
	wb.showTab("editor")
	ed := wb.editor
	room := zeldaRoom(t, p, false)
	if !ed.Load("zelda-v0", p, room) {
		t.Fatal("the editor does not load a zelda room")
	}
	await(t, ed.wait)
	if ed.play.playButton.Disabled() {
		t.Fatal("Play is disabled on a playable level")
	}
	for i, press := range []func(){
		func() { ed.play.playButton.OnTapped() },
		func() { wb.handleKey(&fyne.KeyEvent{Name: fyne.KeyP}) },
	} {
		press()
		await(t, jobsOf(wb))
		if len(*launched) != i+1 {
			t.Fatalf("press %d: %d launches", i, len(*launched))
		}
		cells, err := levelio.Cells((*launched)[i].Content)
		if err != nil || !reflect.DeepEqual(cells, ed.Cells()) {
			t.Fatalf("press %d launched %v (%v), want the edited level %v", i, cells, err, ed.Cells())
		}
		if s := wb.statusBar.Text; s != "Played: won in 4.0 s, 9 moves." {
			t.Fatalf("press %d: status %q", i, s)
		}
		if ed.play.lastPlay == nil || ed.play.lastPlay.Moves != 9 {
			t.Fatalf("press %d: last play %+v", i, ed.play.lastPlay)
		}
	}
}

// The Editor's Open reads an item file, VGLC-style text and a Tiled map into the edited grid,
// and refuses (keeping the level) a file of another size or garbage.
func TestEditorOpenLevels(t *testing.T) {
	wb := newTestWorkbench(t, Options{Problem: "zelda-v0"})
	_, p, err := wb.currentProblem()
	if err != nil {
		t.Fatal(err)
	}
	wb.showTab("editor")
	ed := wb.editor
	want := zeldaRoom(t, p, true)
	item := problems.Item{Content: want}
	wantCells, err := levelio.Cells(want)
	if err != nil {
		t.Fatal(err)
	}
	text, err := levelio.EncodeText("zelda-v0", p, []problems.Item{item, {Content: zeldaRoom(t, p, false)}})
	if err != nil {
		t.Fatal(err)
	}
	tmx, err := levelio.EncodeTMX("zelda-v0", p, item, "tiles.png")
	if err != nil {
		t.Fatal(err)
	}
	js, err := itemsJSON("zelda-v0", []member{newMember(0, problems.Scored{Content: want})})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	short := strings.Join(lines[:3], "\n") + "\n"
	dir := t.TempDir()
	for _, tc := range []struct {
		file, data, status string
	}{
		{"room.txt", string(text), "Opened room.txt (level 1 of 2)."},
		{"room.tmx", string(tmx), "Opened room.tmx."},
		{"room.json", string(js), "Opened room.json."},
		{"short.txt", short, ""},
		{"junk.tmx", "<map><oops", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			ed.Load("zelda-v0", p, zeldaRoom(t, p, false))
			await(t, ed.wait)
			before := ed.Cells()
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			err := ed.openLevels(path)
			await(t, ed.wait)
			if tc.status == "" {
				if err == nil {
					t.Fatal("opened a bad file")
				}
				if !reflect.DeepEqual(ed.Cells(), before) {
					t.Fatal("a refused file changed the level")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ed.Cells(), wantCells) {
				t.Fatalf("opened %v, want %v", ed.Cells(), wantCells)
			}
			if wb.statusBar.Text != tc.status {
				t.Fatalf("status %q, want %q", wb.statusBar.Text, tc.status)
			}
			ed.Undo()
			if !reflect.DeepEqual(ed.Cells(), before) {
				t.Fatal("Undo does not take the opened level back")
			}
		})
	}
}

// Play is enabled only for problems with a play view; P on another one launches nothing and
// says why. The table is zelda-v0 and the first tile problem registered without a play view.
func TestEditorPlayNeedsAPlayView(t *testing.T) {
	wb := newTestWorkbench(t, Options{Problem: "zelda-v0"})
	launched := fakeLaunch(t, &play.Outcome{Result: play.ResultQuit})
	wb.showTab("editor")
	ed := wb.editor
	unplayable := ""
	for _, name := range problems.List() {
		if p, err := problems.Make(name); err == nil && !CanPlay(name) {
			if _, ok := tileGridOf(p); ok {
				unplayable = name
				break
			}
		}
	}
	if unplayable == "" {
		t.Fatal("every tile problem has a play view: this test needs another way to check Play's disabling")
	}
	for _, tc := range []struct {
		name     string
		playable bool
	}{{"zelda-v0", true}, {unplayable, false}} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := problems.Make(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			c := p.ContentSpace().Sample(newRand(1))
			if tc.playable {
				c = zeldaRoom(t, p, false) // a random room cannot be played (Play says why instead)
			}
			if !ed.Load(tc.name, p, c) {
				t.Fatalf("the editor does not load %s", tc.name)
			}
			await(t, ed.wait)
			if ed.play.playButton.Disabled() == tc.playable || ed.play.openButton.Disabled() {
				t.Fatalf("Play disabled %v, Open disabled %v", ed.play.playButton.Disabled(), ed.play.openButton.Disabled())
			}
			before := len(*launched)
			wb.handleKey(&fyne.KeyEvent{Name: fyne.KeyP})
			await(t, jobsOf(wb))
			if n := len(*launched) - before; tc.playable != (n == 1) {
				t.Fatalf("%d launches", n)
			}
			if !tc.playable && !strings.Contains(wb.statusBar.Text, "has no play view") {
				t.Fatalf("status %q", wb.statusBar.Text)
			}
		})
	}
}

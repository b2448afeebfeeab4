package app

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/playtest"
)

// playtestChoice is what the "New playtest…" dialog asks: how many levels of each compared run
// and how they are picked, the optional "looks hand-made?" question and the shuffle's seed.
type playtestChoice struct {
	perSource int
	pick      playtest.Pick
	handMade  bool
	seed      uint64
}

// playtestSources are the compared runs as playtest sources (runs without a folder left out).
func (cp *comparePanel) playtestSources(c playtestChoice) []playtest.Source {
	var out []playtest.Source
	for _, r := range cp.runs {
		if r.Dir != "" {
			out = append(out, playtest.Source{Dir: r.Dir, N: c.perSource, Pick: c.pick})
		}
	}
	return out
}

// updatePlaytestButton enables "New playtest…" when runs are compared.
func (cp *comparePanel) updatePlaytestButton() {
	if len(cp.playtestSources(playtestChoice{})) > 0 {
		cp.playtestButton.Enable()
	} else {
		cp.playtestButton.Disable()
	}
}

// createPlaytest builds a blind playtest session from the compared runs into the folder dir
// (playtest.Create), off the UI goroutine. The status line then says where it was written and
// the command that plays it; done (may be nil) gets the result on the UI goroutine.
func (cp *comparePanel) createPlaytest(dir string, c playtestChoice, done func(*playtest.Session, error)) {
	srcs := cp.playtestSources(c)
	if len(srcs) == 0 {
		cp.status.SetText("Add run folders to compare before making a playtest of them.")
		return
	}
	cp.status.SetText(fmt.Sprintf("writing a playtest of %d runs into %s…", len(srcs), dir))
	cp.loading.Add(1)
	cp.wb.ui.goJob(func() {
		defer cp.loading.Done()
		s, err := playtest.Create(dir, playtest.Options{Sources: srcs, Seed: c.seed, HandMade: c.handMade})
		cp.wb.ui.onUI(func() {
			if err != nil {
				cp.status.SetText("New playtest failed: " + err.Error())
			} else {
				cp.status.SetText(playtestWritten(dir, s, len(srcs)))
			}
			if done != nil {
				done(s, err)
			}
		})
	})
}

// playtestWritten says where a session was written and how to play it.
func playtestWritten(dir string, s *playtest.Session, sources int) string {
	left := ""
	if len(s.Dropped) > 0 {
		left = fmt.Sprintf(" (%d left out: duplicates or unplayable, listed in %s)", len(s.Dropped), playtest.KeyFile)
	}
	return fmt.Sprintf("Playtest of %d levels from %d runs written to %s%s; copy %s to kiosk laptops, keep %s; play it with: %s",
		len(s.Levels), sources, dir, left, filepath.Join(dir, playtest.KioskDir), playtest.KeyFile, playtestCommand(dir))
}

// playtestCommand is the command that plays the session folder dir.
func playtestCommand(dir string) string { return "workbench playtest play " + shellWord(dir) }

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+:@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// parsePlaytestChoice reads the dialog's fields.
func parsePlaytestChoice(n, pick, seed string, handMade bool) (playtestChoice, error) {
	c := playtestChoice{pick: playtest.Pick(pick), handMade: handMade}
	v, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || v < 1 || v > 1000 {
		return c, fmt.Errorf("levels per run: %q is not a count from 1 to 1000", n)
	}
	c.perSource = v
	if c.pick != playtest.PickBest && c.pick != playtest.PickRandom {
		return c, fmt.Errorf("pick %q: choose best or random", pick)
	}
	if c.seed, err = strconv.ParseUint(strings.TrimSpace(seed), 10, 64); err != nil {
		return c, fmt.Errorf("seed: %q is not a whole number", seed)
	}
	return c, nil
}

// showNewPlaytest asks how to build the playtest, then where to write it, and writes it.
func (cp *comparePanel) showNewPlaytest() {
	wb := cp.wb
	n := widget.NewEntry()
	n.SetText(strconv.Itoa(playtest.DefaultPerSource))
	pick := widget.NewRadioGroup([]string{string(playtest.PickBest), string(playtest.PickRandom)}, nil)
	pick.Horizontal = true
	pick.SetSelected(string(playtest.PickBest))
	seed := widget.NewEntry()
	seed.SetText("1")
	name := widget.NewEntry()
	name.SetText("playtest-" + time.Now().Format("20060102-150405"))
	handMade := widget.NewCheck("ask \"does this level look hand-made?\"", nil)
	items := []*widget.FormItem{
		widget.NewFormItem("Levels per run", n),
		widget.NewFormItem("Pick", pick),
		widget.NewFormItem("Shuffle seed", seed),
		widget.NewFormItem("Session folder", name),
		widget.NewFormItem("", handMade),
	}
	intro := fmt.Sprintf("A blind playtest of the %d compared runs: levels shuffled and named Level 1 … N, generators hidden.", len(cp.playtestSources(playtestChoice{})))
	dialog.ShowForm("New playtest", "Choose where…", "Cancel", append([]*widget.FormItem{widget.NewFormItem("", widget.NewLabel(intro))}, items...), func(ok bool) {
		if !ok {
			return
		}
		c, err := parsePlaytestChoice(n.Text, pick.Selected, seed.Text, handMade.Checked)
		if err == nil && (strings.TrimSpace(name.Text) == "" || strings.ContainsAny(name.Text, `/\`)) {
			err = fmt.Errorf("session folder: give a name, without slashes")
		}
		if err != nil {
			dialog.ShowError(err, wb.Window)
			return
		}
		wb.pickFolder("Where to create "+strings.TrimSpace(name.Text), "Create here", wb.prefs().outputDir(), func(parent string) {
			dir := filepath.Join(parent, strings.TrimSpace(name.Text))
			cp.createPlaytest(dir, c, func(s *playtest.Session, err error) {
				if err != nil {
					dialog.ShowError(err, wb.Window)
					return
				}
				cp.showPlaytestWritten(dir, s)
			})
		})
	}, wb.Window)
}

// showPlaytestWritten tells where the session is and how to play it, and offers to show its
// results in the People section.
func (cp *comparePanel) showPlaytestWritten(dir string, s *playtest.Session) {
	cmd := widget.NewEntry()
	cmd.SetText(playtestCommand(dir))
	msg := widget.NewLabel(fmt.Sprintf("%d levels written to\n%s\n\nPlay them (one laptop per player; copies merge) with:", len(s.Levels), dir))
	var d dialog.Dialog
	people := widget.NewButton("Show in People", func() {
		cp.people.addFolders(dir)
		cp.tabs.SelectIndex(1)
		d.Hide()
	})
	d = dialog.NewCustom("Playtest written", "Close", container.NewVBox(msg, cmd, people), cp.wb.Window)
	d.Show()
}

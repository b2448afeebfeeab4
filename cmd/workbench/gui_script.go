//go:build cgo

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"fyne.io/fyne/v2"

	"pcgwb/app"
	"pcgwb/games/play"
	"pcgwb/problems/data"
)

// guiScript holds the window's scripting flags: they drive the GUI through its own buttons
// (Get the data…, a level's Play) so that a demo or a real-window test walks a user's path
// with no mouse. --data-url is also for everyday use (a mirror, an archive on a USB stick).
type guiScript struct {
	getData    bool
	play       int // level number to play, 1 = the first; 0: none
	playScript string
	playing    bool // the --play level was opened (UI goroutine only)
	pressAll   bool
	pressing   bool // --press-everything started (UI goroutine only)
}

func (sc *guiScript) flags(fs *flag.FlagSet, o *app.Options) {
	fs.StringVar(&o.DataSource, "data-url", "", "where Get the data… downloads the reference's archive from: an http(s) URL or a local .tar.gz (default: its public archive at the pinned commit)")
	fs.BoolVar(&sc.getData, "get-data", false, "scripting: press Get the data… for the selected problem if its data files are missing (accepting the licence); prints \"data: N file(s) installed in DIR\"")
	fs.IntVar(&sc.play, "play", 0, "scripting: open level N (1 = the first) of the first sample drawn and press Play; prints \"play outcome: {…}\" (JSON) when the play window closes, then quits")
	fs.BoolVar(&sc.pressAll, "press-everything", false, "scripting: once the first sample is drawn, press every control of every tab, every menu item and shortcut, open and dismiss every dialog they lead to, print what was pressed (stderr) and a summary, then quit (the real-window smoke test)")
	fs.StringVar(&sc.playScript, "play-script", "", "scripting: keys the play windows play by themselves, as `workbench play --script` (e.g. \"rrrr,esc\")")
}

// check refuses combinations that cannot both be done, before a window opens.
func (sc *guiScript) check(g *guiFlags) error {
	switch {
	case sc.play < 0:
		return usagef("--play must be a level number from 1")
	case sc.play > 0 && sc.play > g.opts.Samples:
		return usagef("--play %d: the sample has %d levels (-n)", sc.play, g.opts.Samples)
	case sc.play > 0 && (g.screenshot != "" || g.opts.Run != nil):
		return usagef("--play cannot be combined with --screenshot or --run")
	case sc.pressAll && (sc.play > 0 || g.screenshot != "" || g.quitAfterRun):
		return usagef("--press-everything cannot be combined with --play, --screenshot or --quit-after-run")
	case sc.playScript != "":
		if _, err := play.ParseScript(sc.playScript); err != nil {
			return usageError{"--play-script: " + err.Error()}
		}
		g.opts.PlayArgs = []string{"--script", sc.playScript}
	}
	if sc.pressAll && sc.playScript == "" {
		// The play windows the walk opens close themselves at once.
		g.opts.PlayArgs = []string{"--script", "esc"}
	}
	return nil
}

// hookScript sets the callbacks --get-data and --play need. A failure is the session's result
// (exit status 1) and quits.
func (s *guiSession) hookScript() {
	sc := &s.g.script
	if sc.getData {
		s.g.opts.OnData = func(problem string, rep *data.Report, err error) {
			if err != nil {
				s.setResult(fmt.Errorf("getting the data of %s: %w", problem, err))
				s.a.Quit()
				return
			}
			fmt.Printf("data: %d file(s) installed in %s\n", len(rep.Copied), rep.Dest)
		}
	}
	if sc.pressAll {
		s.hookPressEverything()
	}
	if sc.play == 0 {
		return
	}
	prev := s.g.opts.OnSampled
	s.g.opts.OnSampled = func(set *app.SampleSet, err error) {
		if prev != nil {
			prev(set, err)
		}
		// A sample that failed (the data is still being fetched) waits for the next one.
		if set == nil || sc.playing {
			return
		}
		sc.playing = true
		if err := s.wb.PlaySampled(set, sc.play-1); err != nil {
			s.setResult(err)
			s.a.Quit()
		}
	}
	s.g.opts.OnPlayed = func(o *play.Outcome, err error) {
		switch {
		case err != nil:
			s.setResult(fmt.Errorf("the play window failed: %w", err))
		case o == nil:
			s.setResult(errors.New("the play window closed without an outcome"))
		default:
			b, err := json.Marshal(o)
			if err != nil {
				s.setResult(err)
				break
			}
			fmt.Printf("play outcome: %s\n", b)
		}
		s.a.Quit()
	}
}

// startScript presses Get the data… once the window is built (the data panel is shown at
// construction for a problem that lacks its files).
func (s *guiSession) startScript() {
	if s.g.script.getData && !s.wb.GetData() {
		fmt.Println("data: nothing to get (the selected problem has its data)")
	}
}

// hookPressEverything starts app.PressEverything once the first sample is on screen (the
// window is up and idle) and quits when it is done: exit status 0 when nothing failed.
func (s *guiSession) hookPressEverything() {
	sc := &s.g.script
	prev := s.g.opts.OnSampled
	s.g.opts.OnSampled = func(set *app.SampleSet, err error) {
		if prev != nil {
			prev(set, err)
		}
		if sc.pressing {
			return
		}
		sc.pressing = true
		go func() {
			rep, err := s.wb.PressEverything(context.Background(), app.PressOptions{
				Step: func(what string) { fmt.Fprintln(os.Stderr, "press:", what) },
			})
			if err != nil {
				s.setResult(fmt.Errorf("pressing everything: %w", err))
			} else {
				fmt.Printf("pressed %d controls in %d places, opened and dismissed %d dialogs, skipped %d\n",
					len(rep.Pressed), len(rep.Tabs), len(rep.Dialogs), len(rep.Skipped))
				for _, d := range rep.Dialogs {
					if d != "" {
						fmt.Printf("dialog: %s\n", d)
					}
				}
			}
			fyne.Do(s.a.Quit)
		}()
	}
}

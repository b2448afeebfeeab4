//go:build cgo

package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"pcgwb/canvas/playwindow"
	"pcgwb/games/play"
	"pcgwb/games/playtest"
)

func playtestPlayCommand() *Command {
	return &Command{
		Name:  "play",
		Args:  []string{"DIR"},
		Short: "DIR [--participant P07] [--window]: play the session's levels full screen, one after another, with the questionnaire; Esc between levels takes a break, the next start resumes",
		Long: "DIR is the experimenter's folder or a kiosk laptop's copy of its kiosk/ folder. Participants are codes\n" +
			"(P01, P02, …), never names; without --participant the first code with no record in DIR is used (on\n" +
			"several laptops give codes explicitly). The participant's order is their row of the balanced Latin\n" +
			"square over the levels. The kiosk fills the screen; --window opens a window instead.",
		Setup: func(fs *flag.FlagSet) Runner {
			who := fs.String("participant", "", "the participant's code, P01 … P999 (default: the first free one)")
			windowed := fs.Bool("window", false, "open a window instead of filling the screen")
			// The earlier spellings stay accepted (a CLI contract is extended, never renamed):
			// --player takes a participant code now, never a name; --fullscreen is the default.
			fs.StringVar(who, "player", "", "the same as --participant (a code such as P07; names are refused)")
			fs.Bool("fullscreen", true, "fill the screen (the default; kept for earlier scripts)")
			script := fs.String("script", "", "press these keys, one every 0.1 s (tests, screenshots)")
			shot := fs.String("screenshot", "", "save the window as PNG when the script is done, then close (tests, docs)")
			exitAfter := fs.Duration("exit-after", 0, "close the window after this long")
			return func(ctx context.Context, args []string, io IO) error {
				var n int
				var err error
				if *who != "" {
					if n, err = playtest.ParseParticipant(*who); err != nil {
						return usagef("--participant: %v", err)
					}
				} else if n, err = playtest.NextParticipant(args[0]); err != nil {
					return err
				}
				var keys []play.Key
				if *script != "" {
					var err error
					if keys, err = play.ParseScript(*script); err != nil {
						return usageError{err.Error()}
					}
				}
				return runPlaytest(ctx, io, args[0], n, keys, playwindow.Options{
					Title: "Playtest", Fullscreen: !*windowed, Screenshot: *shot, ExitAfter: *exitAfter, Done: ctx.Done()})
			}
		},
	}
}

func runPlaytest(ctx context.Context, io IO, dir string, n int, keys []play.Key, opt playwindow.Options) error {
	k, release, err := playtest.Open(dir, n)
	if err != nil {
		return err
	}
	defer release()
	player := k.Participant()
	if k.Left() == 0 {
		fmt.Fprintf(io.Stdout, "%s has played every level of %s\n", player, dir)
		return nil
	}
	k.SetScript(keys)
	start := time.Now()
	if err := playwindow.Run(k, opt); err != nil {
		return err
	}
	fmt.Fprintf(io.Stdout, "%s: %d levels recorded in %s, %d left\n", player, k.Played(), time.Since(start).Round(time.Second), k.Left())
	if err := k.Err(); err != nil {
		return err
	}
	return ctx.Err()
}

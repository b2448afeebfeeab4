package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"pcgwb/canvas/playwindow"
	"pcgwb/games/play"
	"pcgwb/games/playtest"
)

func playtestPlayCommand() *Command {
	return &Command{
		Name:  "play",
		Args:  []string{"DIR"},
		Short: "DIR [--player NAME] [--fullscreen]: play the session's levels one after another, with the questionnaire; Esc between levels takes a break, the next start resumes",
		Setup: func(fs *flag.FlagSet) Runner {
			player := fs.String("player", "", "the player's name (default: the user name)")
			full := fs.Bool("fullscreen", false, "fill the screen")
			script := fs.String("script", "", "press these keys, one every 0.1 s (tests, screenshots)")
			shot := fs.String("screenshot", "", "save the window as PNG when the script is done, then close (tests, docs)")
			exitAfter := fs.Duration("exit-after", 0, "close the window after this long")
			return func(ctx context.Context, args []string, io IO) error {
				name := *player
				if name == "" {
					name = os.Getenv("USER")
				}
				if err := playtest.CheckPlayer(name); err != nil {
					return usagef("--player: %v", err)
				}
				var keys []play.Key
				if *script != "" {
					var err error
					if keys, err = play.ParseScript(*script); err != nil {
						return usageError{err.Error()}
					}
				}
				return runPlaytest(ctx, io, args[0], name, keys, playwindow.Options{
					Title: "Playtest", Fullscreen: *full, Screenshot: *shot, ExitAfter: *exitAfter, Done: ctx.Done()})
			}
		},
	}
}

func runPlaytest(ctx context.Context, io IO, dir, player string, keys []play.Key, opt playwindow.Options) error {
	k, release, err := playtest.Open(dir, player)
	if err != nil {
		return err
	}
	defer release()
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

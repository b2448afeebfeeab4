package app

import (
	"context"
	"fmt"
	"os"

	"pcgwb/games/play"
	"pcgwb/problems"
)

// CanPlay reports whether the problem registered as name can be played (and watched) in the
// play window: the gallery shows Play and Watch buttons only for those.
func CanPlay(name string) bool { return play.Playable(name) }

// LaunchPlay opens the play window on one item and waits until it closes: with replay, the
// window plays the recorded solution (Watch), else the player plays (Play). It returns the
// session's outcome (nil when ctx closed the window). The window is this same executable run as
// a child (play.Launch); extra are more arguments for it (tests).
//
// It blocks for as long as the window is open: call it from a goroutine.
func LaunchPlay(ctx context.Context, problem string, item problems.Item, replay bool, extra ...string) (*play.Outcome, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the workbench executable to open the play window: %w", err)
	}
	return play.Launch(ctx, exe, problem, item, play.LaunchOptions{Replay: replay, Extra: extra})
}

// WatchRecorded opens the play window on a level and replays a recorded play of it (a play
// outcome's input trace, as the detail view and playtests record them), key for key; it
// returns the outcome of the replay. Blocking, like LaunchPlay.
func WatchRecorded(ctx context.Context, problem string, item problems.Item, rec *play.Outcome, extra ...string) (*play.Outcome, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the workbench executable to open the play window: %w", err)
	}
	return play.Launch(ctx, exe, problem, item, play.LaunchOptions{Recorded: rec, Extra: extra})
}

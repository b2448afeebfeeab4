package playtest

import (
	"context"
	"fmt"

	"pcgwb/games/play"
)

// KioskArgs are the workbench arguments that open the kiosk for participant number n on the
// session folder dir: `playtest play DIR --participant P07`, full screen.
func KioskArgs(dir string, n int) []string {
	return []string{"playtest", "play", dir, "--participant", ParticipantCode(n)}
}

// LaunchKiosk opens the kiosk (the workbench executable exe run as a child with KioskArgs and
// extra) and waits until it closes: Ebiten wants a process of its own, as for the play window.
// The error is the child's stderr when it fails; cancelling ctx closes the kiosk (no error).
func LaunchKiosk(ctx context.Context, exe, dir string, n int, extra ...string) error {
	if n < 1 || n > MaxParticipants {
		return fmt.Errorf("participant number %d: give 1 to %d", n, MaxParticipants)
	}
	return play.RunChild(ctx, exe, append(KioskArgs(dir, n), extra...), "the kiosk")
}

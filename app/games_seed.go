package app

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A game in the tab starts from a seed: the starting position and the agent's moves follow
// from it by the session's one seeding rule, as in `workbench duel play --seed`, and a match
// starts from the seed of the game shown, as `workbench duel match --seed` does. The Seed
// entry shows it, so that any game or match played here can be replayed from the command line,
// and a seed typed there starts the game over from it.

func (dp *duelPanel) buildSeed() {
	dp.seed = widget.NewEntry()
	dp.seed.SetPlaceHolder("seed of the game")
	dp.seed.Validator = func(s string) error { _, err := parseGameSeed(s); return err }
	dp.seed.OnSubmitted = func(string) { dp.playSeed() }
	dp.seedButton = widget.NewButtonWithIcon("Play seed", theme.MediaReplayIcon(), dp.playSeed)
}

// parseGameSeed reads a game seed: any whole number `workbench duel play --seed` takes.
func parseGameSeed(s string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("a seed is a whole number such as 42")
	}
	return n, nil
}

// playSeed starts the loaded game over from the seed typed in Seed.
func (dp *duelPanel) playSeed() {
	seed, err := parseGameSeed(dp.seed.Text)
	switch {
	case err != nil:
		dp.status.SetText("⚠ " + err.Error())
	case dp.view == nil:
		dp.status.SetText("Choose a game first, then play a seed of it.")
	default:
		dp.newGameSeeded(seed)
	}
}

// gameSeed is the seed of the game shown (0 when none is).
func (dp *duelPanel) gameSeed() int64 {
	if dp.view == nil {
		return 0
	}
	return dp.view.seed
}

// matchCommand is the command line that plays the same match as the tab: the game (a built-in
// name or the script's path), the two agents, the number of games and the first game's seed.
func matchCommand(source, a, b string, games int, seed int64) string {
	game := source
	if strings.ContainsAny(game, " '\"\\$`") {
		game = strconv.Quote(game)
	}
	return fmt.Sprintf("workbench duel match %s --agents %s,%s --games %d --seed %d", game, a, b, games, seed)
}

package script

import (
	"regexp"
	"testing"
)

// TestBuiltinRulebooksNumberPlayersAsPeopleDo: the rules of every built-in game call the first
// mover Player 1 and the second Player 2, as the GUI, the CLI and Info.PlayerName do (issue #30:
// one numbering everywhere; the rulebooks said "player 0" above a board that said "Player 1").
func TestBuiltinRulebooksNumberPlayersAsPeopleDo(t *testing.T) {
	numbered := regexp.MustCompile(`(?i)\bplayer\s+(\d+)\b`)
	for _, name := range Builtins() {
		g, err := LoadBuiltin(name, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range numbered.FindAllStringSubmatch(g.Info().Rules, -1) {
			if m[1] != "1" && m[1] != "2" || m[0][0] != 'P' {
				t.Errorf("%s: the rules say %q; rulebooks number the players Player 1 and Player 2", name, m[0])
			}
		}
		g.Close()
	}
}

package duel

import (
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"testing"
	"time"
)

// FuzzLoad feeds arbitrary text to the loader and, when it loads, plays a few moves under tight
// limits: whatever the script, the result must be a game or a *Fault, never a panic, a hang or
// a crash. The seed corpus is in testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(gameSource("", nil)))
	f.Add([]byte("NUM_ACTIONS = 1\nOBS_SIZE = 0\n"))
	lim := script.Limits{Steps: 20000, CallTime: 200 * time.Millisecond, Memory: 256 << 20, MaxElems: 1 << 16, MaxString: 1 << 16}
	f.Fuzz(func(t *testing.T, src []byte) {
		g, err := exercise(string(src), lim)
		if g != nil {
			g.Close()
		}
		if err != nil && core.FaultOf(err) == nil {
			t.Fatalf("error %v is not a fault", err)
		}
	})
}

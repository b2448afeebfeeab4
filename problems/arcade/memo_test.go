package arcade

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"pcgwb/problems"
)

// clone deep-copies a content through JSON (ints come back as float64, which ParseRules reads).
func clone(t *testing.T, c problems.Content) map[string]any {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The remembered games are the games: for random contents and for variants that change one
// thing the games never read (a start beyond the count, the behaviour and rules of an absent
// colour) or one thing they do read (the seed, a placed piece, a rule between present
// colours), an Arcade that has seen the others gives the info byte for byte as a fresh one.
func TestMemoizedGamesEqualFreshOnes(t *testing.T) {
	variants := []struct {
		name   string
		change func(m map[string]any, r *rand.Rand)
	}{
		{"same", func(map[string]any, *rand.Rand) {}},
		{"seed", func(m map[string]any, r *rand.Rand) { m["seed"] = float64(r.IntN(1000000)) }},
		{"win", func(m map[string]any, r *rand.Rand) { m["win"] = float64(r.IntN(WinRules)) }},
		{"a start", func(m map[string]any, r *rand.Rand) {
			s := m[colourNames[r.IntN(Colours)]+"Start"].(map[string]any)
			s["x"].([]any)[r.IntN(MaxPieces)] = float64(r.IntN(7))
		}},
		{"a count", func(m map[string]any, r *rand.Rand) {
			m[colourNames[r.IntN(Colours)]+"Start"].(map[string]any)["num"] = float64(r.IntN(MaxPieces + 1))
		}},
		{"a behaviour", func(m map[string]any, r *rand.Rand) { m[colourNames[r.IntN(Colours)]] = float64(r.IntN(Behaviours)) }},
		{"a rule", func(m map[string]any, r *rand.Rand) {
			m[ruleKeys[r.IntN(len(ruleKeys))].name].(map[string]any)["action"] = float64(r.IntN(Actions))
		}},
		{"a score", func(m map[string]any, r *rand.Rand) {
			m[ruleKeys[r.IntN(len(ruleKeys))].name].(map[string]any)["score"] = float64(r.IntN(len(points)))
		}},
	}
	p, err := problems.Make("arcade-v0")
	if err != nil {
		t.Fatal(err)
	}
	memo := p.(*Arcade)
	r := rand.New(rand.NewPCG(7, 19))
	played, n := 0, 0
	for i := 0; i < 12; i++ {
		base := memo.ContentSpace().Sample(r)
		for _, v := range variants {
			m := clone(t, base)
			v.change(m, r)
			c, err := memo.ContentSpace().Normalize(m, "content")
			if err != nil {
				t.Fatal(err)
			}
			got, err := memo.Info(c)
			if err != nil {
				t.Fatal(err)
			}
			fresh, _ := problems.Make("arcade-v0")
			want, err := fresh.Info(c)
			if err != nil {
				t.Fatal(err)
			}
			gb, _ := json.Marshal(got)
			wb, _ := json.Marshal(want)
			if string(gb) != string(wb) || memo.Diversity(got, want) != 0 || memo.Quality(got) != fresh.Quality(want) {
				t.Fatalf("content %d, variant %q: the remembered games differ from fresh ones", i, v.name)
			}
			n++
			if len(got.(*Info).DoNothing) > 0 {
				played++
			}
		}
	}
	if remembered := len(memo.games.m); played == 0 || remembered >= played {
		t.Fatalf("%d of %d contents played, %d games remembered: the memo was never hit", played, n, remembered)
	}
}

// The memo keeps at most memoSize games, forgetting the oldest first.
func TestGameMemoIsBounded(t *testing.T) {
	var g gameMemo
	for i := 0; i < 3*memoSize; i++ {
		g.put(gameKey{seed: int32(i)}, games{})
	}
	if len(g.m) != memoSize {
		t.Fatalf("%d games remembered, want %d", len(g.m), memoSize)
	}
	if _, ok := g.get(gameKey{seed: 3*memoSize - 1}); !ok {
		t.Error("the newest game was forgotten")
	}
	if _, ok := g.get(gameKey{seed: 2*memoSize - 1}); ok {
		t.Error("an old game is still remembered")
	}
}

package elimination

import (
	"strings"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
)

func TestPuzzleFindsTheInfosWords(t *testing.T) {
	refData(t)
	p, err := problems.Make("elimination-v0")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range problemtest.LoadGolden(t, "testdata/elimination-v0.json").Items[:10] {
		c, err := p.ContentSpace().Normalize(it.Content, "content")
		if err != nil {
			t.Fatal(err)
		}
		z, err := p.(*Problem).Puzzle(c)
		if err != nil {
			t.Fatal(err)
		}
		if z.Letters() != it.Info["word"] {
			t.Fatalf("%s: row %q, info %q", it.ID, z.Letters(), it.Info["word"])
		}
		for _, w := range z.Words() {
			if !spells(z.letters, w) {
				t.Fatalf("%s: %q is not spelt by the row", it.ID, w)
			}
			for _, c := range w + "\n" {
				if c == '\n' {
					if !z.Submit() {
						t.Fatalf("%s: %q not accepted: %s", it.ID, w, z.Message)
					}
					continue
				}
				z.Type(byte(c))
			}
		}
		if !z.Win() {
			t.Fatalf("%s: all words typed but no win", it.ID)
		}
	}
}

func TestSubmitMessages(t *testing.T) {
	z := &Puzzle{letters: []int{2, 0, 19, 18}, words: []string{"cat", "cats"}, found: map[string]bool{}}
	for _, tc := range []struct {
		typed, msg string
		ok         bool
	}{
		{"tac", "cannot spell", false},
		{"cas", "not in the dictionary", false},
		{"cat", "yes", true},
		{"cat", "found already", false},
	} {
		for i := range tc.typed {
			z.Type(tc.typed[i])
		}
		z.Type('!')
		if got := z.Submit(); got != tc.ok || !strings.Contains(z.Message, tc.msg) {
			t.Fatalf("%q: ok %v message %q", tc.typed, got, z.Message)
		}
	}
	z.Type('c')
	z.Backspace()
	if z.Typed != "" || z.Win() || z.Tries != 4 {
		t.Fatalf("typed %q win %v tries %d", z.Typed, z.Win(), z.Tries)
	}
}

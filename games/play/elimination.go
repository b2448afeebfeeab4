package play

import (
	"fmt"
	"image"

	"pcgwb/problems"
	"pcgwb/problems/elimination"
)

func init() {
	registerTyped("elimination", newElimination)
}

// eliminationGame is the word puzzle: type the words the letter row hides.
type eliminationGame struct {
	p       *elimination.Problem
	content problems.Content
	cur     *elimination.Puzzle
}

func newElimination(p *elimination.Problem, c problems.Content) (Game, error) {
	z, err := p.Puzzle(c)
	if err != nil {
		return nil, err
	}
	return &eliminationGame{p: p, content: c, cur: z}, nil
}

func (e *eliminationGame) Reset() {
	if z, err := e.p.Puzzle(e.content); err == nil {
		e.cur = z
	}
}

func (e *eliminationGame) TextEntry() bool { return true }

func (e *eliminationGame) Input(k Key) {
	if c, ok := k.Letter(); ok {
		e.cur.Type(c)
		return
	}
	switch k {
	case KeyBackspace:
		e.cur.Backspace()
	case KeyEnter:
		e.cur.Submit()
	}
}

func (e *eliminationGame) Update() {}

func (e *eliminationGame) Status() Status {
	if e.cur.Win() {
		return Won
	}
	return Running
}

func (e *eliminationGame) Banner() string { return "ALL WORDS FOUND" }

func (e *eliminationGame) Board() image.Image { return elimination.RenderPuzzle(e.cur) }

func (e *eliminationGame) HUD() string {
	s := fmt.Sprintf("words %d/%d  tries %d", e.cur.Found(), len(e.cur.Words()), e.cur.Tries)
	if e.cur.Message != "" {
		s += "  " + e.cur.Message
	}
	return s
}

func (e *eliminationGame) Unplayable() string {
	if len(e.cur.Words()) == 0 {
		return "its letters hide no word of the dictionary: there is nothing to find"
	}
	return ""
}

// Moves are the words tried.
func (e *eliminationGame) Moves() int { return e.cur.Tries }

func (e *eliminationGame) Controls() string { return "type a word, enter to check, backspace" }
func (e *eliminationGame) Text() string     { return e.cur.Text() }

// Solution: every word the metric found, typed and entered.
func (e *eliminationGame) Solution() []Key {
	var out []Key
	for _, w := range e.cur.Words() {
		for i := 0; i < len(w); i++ {
			out = append(out, Letter(w[i]))
		}
		out = append(out, KeyEnter)
	}
	return out
}

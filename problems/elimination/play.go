package elimination

import (
	"fmt"
	"image"
	"image/draw"
	"strings"

	"pcgwb/assets"
	"pcgwb/problems"
)

// Puzzle is a letter row being solved: the player types words made by removing letters
// (keeping the others in order) and wins on finding every word the metric found (Info's word
// lists, each word once). There is nothing to lose.
type Puzzle struct {
	letters []int
	// words are the distinct words of the info, shortest first, then in the order the
	// metric enumerated them.
	words []string
	found map[string]bool
	// Typed is the word being typed.
	Typed string
	// Message says what the last submitted word did.
	Message string
	// Tries counts the submitted words.
	Tries int
}

// Puzzle starts a puzzle from a content (a member of the content space).
func (p *Problem) Puzzle(c problems.Content) (*Puzzle, error) {
	ls, err := letters(c, p.letters)
	if err != nil {
		return nil, err
	}
	info, err := p.Info(c)
	if err != nil {
		return nil, err
	}
	z := &Puzzle{letters: ls, found: map[string]bool{}}
	seen := map[string]bool{}
	for _, list := range info.(*Info).Words {
		for _, r := range list {
			if !seen[r.Word] {
				seen[r.Word] = true
				z.words = append(z.words, r.Word)
			}
		}
	}
	return z, nil
}

// Letters is the letter row.
func (z *Puzzle) Letters() string {
	b := make([]byte, len(z.letters))
	for i, l := range z.letters {
		b[i] = byte('a' + l)
	}
	return string(b)
}

// Words are the words to find, and Found how many are found.
func (z *Puzzle) Words() []string { return z.words }
func (z *Puzzle) Found() int      { return len(z.found) }

// IsFound reports whether a word was found.
func (z *Puzzle) IsFound(w string) bool { return z.found[w] }

// Win reports that every word was found.
func (z *Puzzle) Win() bool { return len(z.found) == len(z.words) }

// Type adds a letter (a-z) to the typed word, up to the row's length.
func (z *Puzzle) Type(c byte) {
	if c >= 'a' && c <= 'z' && len(z.Typed) < len(z.letters) && !z.Win() {
		z.Typed += string(c)
	}
}

// Backspace removes the last typed letter.
func (z *Puzzle) Backspace() {
	if z.Typed != "" {
		z.Typed = z.Typed[:len(z.Typed)-1]
	}
}

// Submit checks the typed word, clears it, and reports whether it was a new word.
func (z *Puzzle) Submit() bool {
	w := z.Typed
	z.Typed = ""
	if w == "" || z.Win() {
		return false
	}
	z.Tries++
	switch {
	case z.found[w]:
		z.Message = fmt.Sprintf("%q: found already", w)
	case contains(z.words, w):
		z.found[w] = true
		z.Message = fmt.Sprintf("%q: yes!", w)
		return true
	case !spells(z.letters, w):
		z.Message = fmt.Sprintf("%q: the row cannot spell it", w)
	default:
		z.Message = fmt.Sprintf("%q: not in the dictionary", w)
	}
	return false
}

func contains(list []string, w string) bool {
	for _, x := range list {
		if x == w {
			return true
		}
	}
	return false
}

// spells reports whether w is the row with some letters removed.
func spells(ls []int, w string) bool {
	i := 0
	for _, l := range ls {
		if i < len(w) && w[i] == byte('a'+l) {
			i++
		}
	}
	return i == len(w)
}

// RenderPuzzle draws the letter row as Render does, the typed word below it, then a slot per
// word: its letters once found, dark tiles until then.
func RenderPuzzle(z *Puzzle) image.Image {
	ts := assets.TileSize
	n := len(z.letters)
	// Word slots go in columns of up to slotRows words, each column as wide as the longest word.
	const slotRows = 8
	longest := 0
	for _, w := range z.words {
		longest = max(longest, len(w))
	}
	cols := (len(z.words) + slotRows - 1) / slotRows
	width := max(n, cols*(longest+1)-1)
	rows := min(len(z.words), slotRows)
	img := image.NewRGBA(image.Rect(0, 0, width*ts, (3+rows)*ts))
	assets.Fill(img, 'k')
	for x, l := range z.letters {
		assets.DrawSprite(img, assets.LetterSprite(l), x*ts, 0)
	}
	for x := 0; x < len(z.Typed); x++ {
		assets.DrawSprite(img, assets.LetterSprite(int(z.Typed[x]-'a')), x*ts, ts+ts/2)
	}
	slot := image.NewUniform(assets.Palette['d'])
	for i, w := range z.words {
		x0, y0 := (i/slotRows)*(longest+1)*ts, (3+i%slotRows)*ts
		for j := 0; j < len(w); j++ {
			if z.found[w] {
				assets.DrawSprite(img, assets.LetterSprite(int(w[j]-'a')), x0+j*ts, y0)
				continue
			}
			draw.Draw(img, image.Rect(x0+j*ts+1, y0+1, x0+(j+1)*ts-1, y0+ts-1), slot, image.Point{}, draw.Src)
		}
	}
	return img
}

// Text describes the puzzle (for transcripts): the row, the typed word, the last message, and
// every word, blanked until found.
func (z *Puzzle) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "row: %s\ntyped: %q\n", z.Letters(), z.Typed)
	if z.Message != "" {
		fmt.Fprintf(&b, "message: %s\n", z.Message)
	}
	b.WriteString("words:")
	for _, w := range z.words {
		if z.found[w] {
			b.WriteString(" " + w)
		} else {
			b.WriteString(" " + strings.Repeat("_", len(w)))
		}
	}
	b.WriteString("\n")
	return b.String()
}

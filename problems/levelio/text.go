package levelio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"pcgwb/internal/safeio"
	"pcgwb/problems"
)

// EncodeText writes levels of the problem registered as name as plain text: one line per row,
// one character per tile (the problem's Legend), a blank line between two levels.
func EncodeText(name string, p problems.Problem, items []problems.Item) ([]byte, error) {
	l, g, err := LegendOf(name, p)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for i, it := range items {
		rows, err := Cells(it.Content)
		if err != nil {
			return nil, fmt.Errorf("level %d: %w", i, err)
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, row := range rows {
			for _, v := range row {
				if v < g.Min || v >= g.Max {
					return nil, fmt.Errorf("level %d: tile %d is outside [%d, %d)", i, v, g.Min, g.Max)
				}
				b.WriteByte(l.Chars[v-g.Min])
			}
			b.WriteByte('\n')
		}
	}
	return b.Bytes(), nil
}

// LegendJSON is the legend in the corpus's style: {"tiles": {"W": ["wall"], ...}}, plus the
// problem's name and the tiles' values.
func LegendJSON(name string, p problems.Problem) ([]byte, error) {
	l, g, err := LegendOf(name, p)
	if err != nil {
		return nil, err
	}
	tiles := map[string][]string{}
	values := map[string]int{}
	for i := 0; i < len(l.Chars); i++ {
		c := string(l.Chars[i])
		tiles[c] = []string{l.Names[i]}
		values[c] = g.Min + i
	}
	return json.MarshalIndent(map[string]any{"problem": name, "tiles": tiles, "values": values}, "", " ")
}

// DecodeText reads plain-text levels written by EncodeText (or by hand): rows of tile
// characters, levels separated by blank lines; "\r\n" line ends, a BOM and trailing spaces are
// accepted. Every level is checked against the problem's size and normalized through its content
// space; errors name the level, line and column.
func DecodeText(name string, p problems.Problem, data []byte) ([]problems.Item, error) {
	l, g, err := LegendOf(name, p)
	if err != nil {
		return nil, err
	}
	value := map[rune]int{}
	for i, c := range l.Chars {
		value[c] = g.Min + i
	}
	text := strings.ReplaceAll(string(safeio.StripBOM(data)), "\r\n", "\n")
	var items []problems.Item
	var level [][]int
	first := 0
	flush := func() error {
		if level == nil {
			return nil
		}
		n := len(items) + 1
		if len(level) != g.Rows {
			return fmt.Errorf("level %d (line %d): %d rows, want %d", n, first, len(level), g.Rows)
		}
		c, err := p.ContentSpace().Normalize(ContentOf(level), "content")
		if err != nil {
			return fmt.Errorf("level %d (line %d): %w", n, first, err)
		}
		items = append(items, problems.Item{ID: fmt.Sprintf("level-%d", n), Content: c})
		level = nil
		return nil
	}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, " \t")
		if line == "" {
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		}
		if level == nil {
			first = i + 1
		}
		row := make([]int, 0, g.Cols)
		for col, c := range line {
			v, ok := value[c]
			if !ok {
				return nil, fmt.Errorf("line %d, column %d: %s is not a tile of %s (tiles: %s)", i+1, col+1, safeio.ExcerptString(string(c)), name, l.Chars)
			}
			row = append(row, v)
		}
		if len(row) != g.Cols {
			return nil, fmt.Errorf("line %d: %d tiles, want %d", i+1, len(row), g.Cols)
		}
		if len(level) == g.Rows {
			return nil, fmt.Errorf("line %d: level %d has more than %d rows (separate levels by a blank line)", i+1, len(items)+1, g.Rows)
		}
		level = append(level, row)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("no level in the text")
	}
	return items, nil
}

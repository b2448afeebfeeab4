package problems

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Item is one content with its optional id and control, as in the CLI's files
// ({"items": [...]}) and the golden vectors.
type Item struct {
	ID      string  `json:"id,omitempty"`
	Content Content `json:"content"`
	Control Control `json:"control,omitempty"`
}

// ItemFile is the on-disk set of items: what `workbench sample` writes and `workbench eval` reads.
type ItemFile struct {
	Problem string `json:"problem,omitempty"`
	Items   []Item `json:"items"`
}

// DecodeItems parses an item file and normalizes every content and control through the
// problem's spaces. It validates everything before returning, so a caller never evaluates half
// a file; the error names the item (index and id) and the offending field.
func DecodeItems(p Problem, data []byte) ([]Item, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark, as some editors write
	var raw struct {
		Items []map[string]json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("not a valid item file: %w", describeJSONError(data, err))
	}
	if raw.Items == nil {
		return nil, errors.New(`not a valid item file: missing "items" list`)
	}
	items := make([]Item, len(raw.Items))
	withControl := 0
	for i, r := range raw.Items {
		it := &items[i]
		name := "item " + strconv.Itoa(i)
		if idRaw, ok := r["id"]; ok {
			if err := json.Unmarshal(idRaw, &it.ID); err != nil {
				var n json.Number
				if json.Unmarshal(idRaw, &n) != nil {
					return nil, fmt.Errorf("%s: id must be a string", name)
				}
				it.ID = n.String()
			}
			name += " (" + shortID(it.ID) + ")"
		}
		cRaw, ok := r["content"]
		if !ok {
			return nil, fmt.Errorf("%s: missing content", name)
		}
		c, err := decodeValue(cRaw)
		if err != nil {
			return nil, fmt.Errorf("%s: content: %w", name, err)
		}
		if it.Content, err = p.ContentSpace().Normalize(c, "content"); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if kRaw, ok := r["control"]; ok && string(bytes.TrimSpace(kRaw)) != "null" {
			k, err := decodeValue(kRaw)
			if err != nil {
				return nil, fmt.Errorf("%s: control: %w", name, err)
			}
			if it.Control, err = p.ControlSpace().Normalize(k, "control"); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			withControl++
		}
	}
	if withControl != 0 && withControl != len(items) {
		for i, it := range items {
			if it.Control == nil {
				return nil, fmt.Errorf("item %d: control missing (give every item a control, or none)", i)
			}
		}
	}
	return items, nil
}

// shortID keeps a hostile id out of error messages at full length.
func shortID(id string) string {
	if len(id) <= 80 {
		return id
	}
	cut := 80
	for cut > 0 && !utf8.RuneStart(id[cut]) {
		cut--
	}
	return id[:cut] + "…"
}

// Controls returns the items' controls, or nil when the items carry none.
func Controls(items []Item) []Control {
	if len(items) == 0 || items[0].Control == nil {
		return nil
	}
	out := make([]Control, len(items))
	for i, it := range items {
		out[i] = it.Control
	}
	return out
}

// Contents returns the items' contents.
func Contents(items []Item) []Content {
	out := make([]Content, len(items))
	for i, it := range items {
		out[i] = it.Content
	}
	return out
}

// decodeValue keeps numbers as written (json.Number): 1.5 stays a fraction the spaces refuse
// for a tile, and a huge number is quoted as written, not as the nearest int64.
func decodeValue(raw json.RawMessage) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// describeJSONError adds the line and column to a syntax error.
func describeJSONError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := 1, 1
		for _, b := range data[:min(int(se.Offset), len(data))] {
			if b == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		return fmt.Errorf("line %d, column %d: %v", line, col, se)
	}
	return err
}

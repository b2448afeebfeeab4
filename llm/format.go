package llm

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"pcgwb/problems/space"
)

// FormatDescription says in words what a member of s looks like, for prompts and for the
// error messages a re-ask quotes. Tile maps with a legend are described as character grids.
func FormatDescription(s space.Space, legend Legend) string {
	switch sp := s.(type) {
	case space.Array:
		leaf, isInt := sp.Leaf.(space.Int)
		switch {
		case isInt && len(sp.Dims) == 2 && len(legend) > 0:
			return fmt.Sprintf("a grid of exactly %d rows, each of exactly %d characters (one character per tile: %s)",
				sp.Dims[0], sp.Dims[1], legendText(legend))
		case isInt && len(sp.Dims) == 1 && len(legend) > 0:
			return fmt.Sprintf("a string of exactly %d characters, each one of %s", sp.Dims[0], legendText(legend))
		case isInt && len(sp.Dims) == 2:
			return fmt.Sprintf("a JSON list of exactly %d rows, each a list of exactly %d integers from %d to %d",
				sp.Dims[0], sp.Dims[1], leaf.Min, leaf.Max-1)
		}
		inner := FormatDescription(sp.Leaf, legend)
		for i := len(sp.Dims) - 1; i >= 0; i-- {
			inner = fmt.Sprintf("a JSON list of exactly %d elements, each %s", sp.Dims[i], inner)
		}
		return inner
	case space.Dict:
		parts := make([]string, len(sp))
		for i, f := range sp {
			parts[i] = fmt.Sprintf("%q (%s)", f.Key, FormatDescription(f.Space, nil))
		}
		return "a JSON object with the keys " + strings.Join(parts, ", ")
	case space.List:
		parts := make([]string, len(sp))
		for i, e := range sp {
			parts[i] = FormatDescription(e, legend)
		}
		return fmt.Sprintf("a JSON list of %d elements: %s", len(sp), strings.Join(parts, "; "))
	case space.Int:
		return fmt.Sprintf("an integer from %d to %d", sp.Min, sp.Max-1)
	case space.Float:
		return fmt.Sprintf("a number from %v up to (not including) %v", sp.Min, sp.Max)
	case space.Const:
		b, _ := json.Marshal(sp.Value)
		return "the constant " + string(b)
	}
	return "a JSON value"
}

func legendText(l Legend) string {
	named := false
	for _, t := range l {
		named = named || t.Name != ""
	}
	if !named {
		var chars []string
		for _, t := range l {
			chars = append(chars, t.Char)
		}
		return "the characters " + strings.Join(chars, "")
	}
	parts := make([]string, len(l))
	for i, t := range l {
		parts[i] = fmt.Sprintf("'%s' = %s", t.Char, t.Name)
	}
	return strings.Join(parts, ", ")
}

// FormatContent writes a content the way prompts show it: tile maps as character grids when
// there is a legend, otherwise JSON laid out one row (or one object) per line, with object keys
// in the space's order.
func FormatContent(v any, s space.Space, legend Legend) string {
	if a, ok := s.(space.Array); ok {
		if _, isInt := a.Leaf.(space.Int); isInt && len(legend) > 0 && len(a.Dims) <= 2 {
			if txt, ok := charRows(v, len(a.Dims), legend); ok {
				return txt
			}
		}
		if l, ok := v.([]any); ok && len(a.Dims) >= 1 && (len(a.Dims) > 1 || !isScalarSpace(a.Leaf)) {
			sub := space.Space(a.Leaf)
			if len(a.Dims) > 1 {
				sub = space.Array{Dims: a.Dims[1:], Leaf: a.Leaf}
			}
			rows := make([]string, len(l))
			for i, x := range l {
				rows[i] = " " + orderedJSON(x, sub)
			}
			return "[\n" + strings.Join(rows, ",\n") + "\n]"
		}
	}
	if d, ok := s.(space.Dict); ok {
		if m, ok := v.(map[string]any); ok {
			lines := make([]string, 0, len(d))
			for _, f := range d {
				k, _ := json.Marshal(f.Key)
				lines = append(lines, fmt.Sprintf(" %s: %s", k, orderedJSON(m[f.Key], f.Space)))
			}
			return "{\n" + strings.Join(lines, ",\n") + "\n}"
		}
	}
	return orderedJSON(v, s)
}

func isScalarSpace(s space.Space) bool {
	switch s.(type) {
	case space.Int, space.Float, space.Const:
		return true
	}
	return false
}

func charRows(v any, dims int, legend Legend) (string, bool) {
	row := func(x any) (string, bool) {
		l, ok := x.([]any)
		if !ok {
			return "", false
		}
		var sb strings.Builder
		for _, c := range l {
			n, ok := c.(int)
			if !ok {
				return "", false
			}
			ch, ok := legend.Char(n)
			if !ok {
				return "", false
			}
			sb.WriteString(ch)
		}
		return sb.String(), true
	}
	if dims == 1 {
		return row(v)
	}
	rows, ok := v.([]any)
	if !ok {
		return "", false
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		if out[i], ok = row(r); !ok {
			return "", false
		}
	}
	return strings.Join(out, "\n"), true
}

// orderedJSON is compact JSON with the keys of dictionaries in the space's order (models read
// {"x", "y", "type"} better than Go's sorted keys).
func orderedJSON(v any, s space.Space) string {
	var sb strings.Builder
	writeOrdered(&sb, v, s)
	return sb.String()
}

func writeOrdered(sb *strings.Builder, v any, s space.Space) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		var spaces map[string]space.Space
		if d, ok := s.(space.Dict); ok {
			spaces = map[string]space.Space{}
			for _, f := range d {
				if _, ok := x[f.Key]; ok {
					keys = append(keys, f.Key)
				}
				spaces[f.Key] = f.Space
			}
		}
		var rest []string
		for k := range x {
			if _, ok := spaces[k]; !ok {
				rest = append(rest, k)
			}
		}
		sort.Strings(rest)
		keys = append(keys, rest...)
		sb.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				sb.WriteString(", ")
			}
			kb, _ := json.Marshal(k)
			sb.Write(kb)
			sb.WriteString(": ")
			writeOrdered(sb, x[k], spaces[k])
		}
		sb.WriteByte('}')
	case []any:
		sb.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeOrdered(sb, e, elementSpace(s, i))
		}
		sb.WriteByte(']')
	default:
		b, err := json.Marshal(x)
		if err != nil {
			b = []byte("null")
		}
		sb.Write(b)
	}
}

func elementSpace(s space.Space, i int) space.Space {
	switch sp := s.(type) {
	case space.Array:
		if len(sp.Dims) <= 1 {
			return sp.Leaf
		}
		return space.Array{Dims: sp.Dims[1:], Leaf: sp.Leaf}
	case space.List:
		if i < len(sp) {
			return sp[i]
		}
	}
	return nil
}

package app

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"pcgwb/problems/space"
)

// describeSpace explains a content or control space in a few lines a person can read aloud:
// "7 × 11 grid of integers 0–7", one line per dictionary key, and so on.
func describeSpace(s space.Space) string {
	var b strings.Builder
	writeSpace(&b, s, "")
	return strings.TrimRight(b.String(), "\n")
}

func writeSpace(b *strings.Builder, s space.Space, indent string) {
	switch s := s.(type) {
	case space.Dict:
		if len(s) == 0 {
			b.WriteString(indent + "(nothing)\n")
			return
		}
		for _, f := range s {
			if isScalar(f.Space) {
				fmt.Fprintf(b, "%s%s: %s\n", indent, f.Key, describeLeaf(f.Space))
				continue
			}
			fmt.Fprintf(b, "%s%s:\n", indent, f.Key)
			writeSpace(b, f.Space, indent+"  ")
		}
	case space.List:
		if len(s) == 0 {
			b.WriteString(indent + "empty list\n")
			return
		}
		if same := describeLeaf(s[0]); isScalar(s[0]) && allDescribedAs(s, same) {
			fmt.Fprintf(b, "%slist of %d × %s\n", indent, len(s), same)
			return
		}
		for i, e := range s {
			if isScalar(e) {
				fmt.Fprintf(b, "%s[%d]: %s\n", indent, i, describeLeaf(e))
				continue
			}
			fmt.Fprintf(b, "%s[%d]:\n", indent, i)
			writeSpace(b, e, indent+"  ")
		}
	case space.Array:
		var shape string
		switch len(s.Dims) {
		case 1:
			shape = fmt.Sprintf("list of %d", s.Dims[0])
		default:
			dims := make([]string, len(s.Dims))
			for i, d := range s.Dims {
				dims[i] = strconv.Itoa(d)
			}
			shape = strings.Join(dims, " × ") + " grid of"
			if len(s.Dims) > 2 {
				shape = strings.Join(dims, " × ") + " array of"
			}
		}
		if isScalar(s.Leaf) {
			fmt.Fprintf(b, "%s%s %s\n", indent, shape, plural(describeLeaf(s.Leaf)))
			return
		}
		fmt.Fprintf(b, "%s%s, each:\n", indent, strings.TrimSuffix(shape, " of"))
		writeSpace(b, s.Leaf, indent+"  ")
	default:
		b.WriteString(indent + describeLeaf(s) + "\n")
	}
}

func isScalar(s space.Space) bool {
	switch s.(type) {
	case space.Int, space.Float, space.Const:
		return true
	}
	return false
}

func allDescribedAs(l space.List, want string) bool {
	for _, e := range l {
		if !isScalar(e) || describeLeaf(e) != want {
			return false
		}
	}
	return true
}

// describeLeaf names a scalar space. Integer maxima are exclusive in the spaces; people read
// inclusive ranges more easily, so "0–7" stands for [0, 8).
func describeLeaf(s space.Space) string {
	switch s := s.(type) {
	case space.Int:
		switch {
		case s.Max-s.Min <= 1:
			return fmt.Sprintf("integer %d", s.Min)
		default:
			return fmt.Sprintf("integer %d–%d", s.Min, s.Max-1)
		}
	case space.Float:
		return fmt.Sprintf("number in [%s, %s)", formatFloat(s.Min), formatFloat(s.Max))
	case space.Const:
		v, err := json.Marshal(s.Value)
		if err != nil {
			return fmt.Sprintf("constant %v", s.Value)
		}
		return "constant " + string(v)
	}
	v, err := json.Marshal(s.Range())
	if err != nil {
		return fmt.Sprintf("%T", s)
	}
	return string(v)
}

// plural turns "integer 0–7" into "integers 0–7" for "grid of ..." phrases.
func plural(leaf string) string {
	for _, w := range []string{"integer", "number", "constant"} {
		if rest, ok := strings.CutPrefix(leaf, w); ok {
			return w + "s" + rest
		}
	}
	return leaf
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', 6, 64) }

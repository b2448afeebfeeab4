package llm

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"pcgwb/problems/space"
)

// Tile is one value of a tile map with the character that stands for it in prompts and
// replies.
type Tile struct {
	Value int    `json:"value"`
	Char  string `json:"char"`
	Name  string `json:"name"`
}

// Legend maps characters to tile values. It comes from the prompt template (see
// ParseLegend), so a model is parsed with the characters it was shown.
type Legend []Tile

// Value reads one character: exactly, or ignoring case when that is unambiguous.
func (l Legend) Value(r rune) (int, bool) {
	for _, t := range l {
		if []rune(t.Char)[0] == r {
			return t.Value, true
		}
	}
	found, v := 0, 0
	for _, t := range l {
		if c := []rune(t.Char)[0]; unicode.ToLower(c) == unicode.ToLower(r) {
			found, v = found+1, t.Value
		}
	}
	return v, found == 1
}

// Char is the character of a value.
func (l Legend) Char(v int) (string, bool) {
	for _, t := range l {
		if t.Value == v {
			return t.Char, true
		}
	}
	return "", false
}

// byName reads a tile name ("wall") as a value.
func (l Legend) byName(s string) (int, bool) {
	for _, t := range l {
		if strings.EqualFold(t.Name, s) || strings.EqualFold(firstWord(t.Name), s) {
			return t.Value, true
		}
	}
	return 0, false
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

// legendBlock is the template comment that declares a legend:
//
//	{{/* tiles
//	0 # solid wall
//	1 . empty floor
//	*/}}
var legendBlock = regexp.MustCompile(`(?s)\{\{-?\s*/\*\s*tiles[ \t]*\r?\n(.*?)\*/\s*-?\}\}`)

// ParseLegend reads the tiles comment of a template; a template without one has no legend.
func ParseLegend(tmpl string) (Legend, error) {
	m := legendBlock.FindStringSubmatch(tmpl)
	if m == nil {
		return nil, nil
	}
	var l Legend
	seenV, seenC := map[int]bool{}, map[string]bool{}
	for i, line := range strings.Split(m[1], "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) < 2 {
			return nil, fmt.Errorf("tiles line %d: want VALUE CHAR NAME, got %q", i+1, line)
		}
		v, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("tiles line %d: %q is not a value", i+1, f[0])
		}
		if len([]rune(f[1])) != 1 || strings.ContainsAny(f[1], ",|[]{}\"'`") {
			return nil, fmt.Errorf("tiles line %d: %q must be one character other than , | [ ] { } quotes and backticks", i+1, f[1])
		}
		if seenV[v] || seenC[f[1]] {
			return nil, fmt.Errorf("tiles line %d: value %d or character %q is declared twice", i+1, v, f[1])
		}
		seenV[v], seenC[f[1]] = true, true
		l = append(l, Tile{Value: v, Char: f[1], Name: strings.Join(f[2:], " ")})
	}
	return l, nil
}

// ParseError is a reply that holds no valid content. Its message is written for the model:
// the re-ask quotes it.
type ParseError struct{ Msg string }

func (e *ParseError) Error() string { return e.Msg }

// ParseContent finds a content of s in a model's reply and normalises it through the space.
// It looks in the fenced code blocks (the last first), then in the whole text; in each it tries
// JSON values (repairing trailing commas, single quotes and Python literals) and, for integer
// arrays, text grids of characters (per legend) or numbers.
func ParseContent(reply string, s space.Space, legend Legend) (any, error) {
	cands := codeBlocks(reply)
	for i, j := 0, len(cands)-1; i < j; i, j = i+1, j-1 {
		cands[i], cands[j] = cands[j], cands[i]
	}
	cands = append(cands, reply)
	var first error
	for _, c := range cands {
		v, err := parseCandidate(c, s, legend)
		if err == nil {
			return v, nil
		}
		if first == nil {
			first = err
		}
	}
	if strings.TrimSpace(reply) == "" {
		return nil, &ParseError{"The reply was empty. " + expectation(s, legend)}
	}
	return nil, first
}

// codeBlocks returns the contents of the fenced blocks in order; an unclosed last fence runs
// to the end of the text.
func codeBlocks(text string) []string {
	var blocks, cur []string
	in := false
	for _, ln := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(ln)
		fence := strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
		switch {
		case fence && !in:
			rest := strings.TrimLeft(t, "`~")
			if i := strings.Index(rest, "```"); i >= 0 {
				blocks = append(blocks, rest[:i])
				continue
			}
			in, cur = true, nil
			if strings.HasPrefix(rest, "[") || strings.HasPrefix(rest, "{") {
				cur = append(cur, rest)
			}
		case fence && in:
			blocks = append(blocks, strings.Join(cur, "\n"))
			in = false
		case in && strings.HasSuffix(t, "```"):
			cur = append(cur, strings.TrimRight(strings.TrimSpace(ln), "`"))
			blocks = append(blocks, strings.Join(cur, "\n"))
			in = false
		case in:
			cur = append(cur, ln)
		}
	}
	if in && len(cur) > 0 {
		blocks = append(blocks, strings.Join(cur, "\n"))
	}
	return blocks
}

func parseCandidate(text string, s space.Space, legend Legend) (any, error) {
	var bestErr error
	bestSize := -1
	for i, n := 0, 0; i < len(text) && n < 64; i++ {
		if text[i] != '[' && text[i] != '{' {
			continue
		}
		n++
		v, size, ok := decodeAt(text[i:])
		if !ok {
			continue
		}
		out, err := convert(v, s, legend)
		if err == nil {
			return out, nil
		}
		if size > bestSize {
			bestErr, bestSize = err, size
		}
		i += size - 1
	}
	if a, ok := s.(space.Array); ok {
		if _, isInt := a.Leaf.(space.Int); isInt && len(a.Dims) <= 2 {
			out, err := parseTextArray(text, a, legend)
			if err == nil {
				return out, nil
			}
			if bestErr == nil {
				bestErr = err
			}
		}
	}
	if bestErr == nil {
		bestErr = &ParseError{"I could not find a level in the reply. " + expectation(s, legend)}
	}
	return nil, bestErr
}

// decodeAt decodes the JSON value at the start of text, repairing common slips if it does not
// decode as is. size is the length of text the value spans.
func decodeAt(text string) (any, int, bool) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err == nil {
		return v, int(dec.InputOffset()), true
	}
	end := matchingBracket(text)
	if end < 0 {
		return nil, 0, false
	}
	fixed := repairJSON(text[:end+1])
	dec = json.NewDecoder(strings.NewReader(fixed))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, 0, false
	}
	return v, end + 1, true
}

// matchingBracket finds the bracket closing the one at text[0], skipping quoted strings.
func matchingBracket(text string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		if quote != 0 {
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			quote = c
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

var (
	trailingComma = regexp.MustCompile(`,\s*([\]}])`)
	pyLiteral     = regexp.MustCompile(`\b(True|False|None)\b`)
	lineComment   = regexp.MustCompile(`(?m)\s*//[^\n"']*$`)
)

// repairJSON fixes what models commonly get wrong: Python quotes and literals, trailing commas,
// comments.
func repairJSON(s string) string {
	if !strings.Contains(s, `"`) {
		s = strings.ReplaceAll(s, "'", `"`)
	}
	s = lineComment.ReplaceAllString(s, "")
	s = pyLiteral.ReplaceAllStringFunc(s, func(m string) string {
		return map[string]string{"True": "true", "False": "false", "None": "null"}[m]
	})
	return trailingComma.ReplaceAllString(s, "$1")
}

// convert coerces a decoded value towards the space and normalises it. A wrapper object such
// as {"level": [...]} is unwrapped.
func convert(v any, s space.Space, legend Legend) (any, error) {
	out, err := s.Normalize(coerce(v, s, legend), "content")
	if err == nil {
		return out, nil
	}
	if m, ok := v.(map[string]any); ok {
		if _, isDict := s.(space.Dict); !isDict || len(m) == 1 {
			for _, k := range wrapperKeys(m) {
				if o, e := convert(m[k], s, legend); e == nil {
					return o, nil
				}
			}
		}
	}
	return nil, &ParseError{"The level is not valid: " + err.Error() + "."}
}

// wrapperKeys lists the keys of an object that may wrap the content: a single key, or the
// usual names.
func wrapperKeys(m map[string]any) []string {
	if len(m) == 1 {
		for k := range m {
			return []string{k}
		}
	}
	var out []string
	for _, k := range []string{"content", "level", "grid", "map", "tiles", "layout", "blocks", "data", "answer"} {
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	return out
}

// coerce rewrites what a model may reasonably write into what the space expects: numbers as
// strings, legend characters or tile names for integers, rows as strings, keys in another case,
// objects as positional lists.
func coerce(v any, s space.Space, legend Legend) any {
	switch sp := s.(type) {
	case space.Array:
		return coerceArray(v, sp, 0, legend)
	case space.Dict:
		m, ok := v.(map[string]any)
		if !ok {
			l, isList := v.([]any)
			if !isList || len(l) != len(sp) {
				return v
			}
			m = map[string]any{}
			for i, f := range sp {
				m[f.Key] = l[i]
			}
		}
		out := make(map[string]any, len(sp))
		for _, f := range sp {
			x, ok := m[f.Key]
			if !ok {
				x, ok = lookupLoose(m, f.Key)
			}
			if ok {
				out[f.Key] = coerce(x, f.Space, legend)
			}
		}
		return out
	case space.List:
		l, ok := v.([]any)
		if !ok {
			return v
		}
		out := make([]any, len(l))
		for i, x := range l {
			if i < len(sp) {
				x = coerce(x, sp[i], legend)
			}
			out[i] = x
		}
		return out
	case space.Int:
		return coerceInt(v, legend)
	case space.Float:
		if str, ok := v.(string); ok {
			if f, err := strconv.ParseFloat(strings.TrimSpace(str), 64); err == nil {
				return f
			}
		}
	}
	return v
}

func lookupLoose(m map[string]any, key string) (any, bool) {
	norm := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '_' || r == '-' || r == ' ' {
				return -1
			}
			return unicode.ToLower(r)
		}, s)
	}
	for k, x := range m {
		if norm(k) == norm(key) {
			return x, true
		}
	}
	return nil, false
}

func coerceArray(v any, a space.Array, d int, legend Legend) any {
	if d == len(a.Dims) {
		return coerce(v, a.Leaf, legend)
	}
	_, intLeaf := a.Leaf.(space.Int)
	if str, ok := v.(string); ok && intLeaf {
		switch d {
		case len(a.Dims) - 1:
			if vals := parseRowText(str, a.Dims[d], a.Leaf.(space.Int), legend); vals != nil {
				return vals
			}
		case len(a.Dims) - 2:
			var rows []any
			for _, ln := range strings.Split(strings.TrimSpace(str), "\n") {
				rows = append(rows, coerceArray(strings.TrimSpace(ln), a, d+1, legend))
			}
			return rows
		}
		return v
	}
	l, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(l))
	for i, x := range l {
		out[i] = coerceArray(x, a, d+1, legend)
	}
	return out
}

func coerceInt(v any, legend Legend) any {
	str, ok := v.(string)
	if !ok {
		return v
	}
	t := strings.TrimSpace(str)
	if n, err := strconv.Atoi(t); err == nil {
		return n
	}
	if r := []rune(t); len(r) == 1 {
		if n, ok := legend.Value(r[0]); ok {
			return n
		}
	}
	if n, ok := legend.byName(t); ok {
		return n
	}
	return v
}

var rowSeparators = regexp.MustCompile(`[\s,;|]+`)

// parseRowText reads one row written as numbers ("0 1 1", "0,1,1", "011" for one-digit values)
// or as legend characters ("#..#", "# . . #"). It returns nil when the text is not a row;
// the length is the caller's to check, except that want decides between digit strings and
// single numbers.
func parseRowText(line string, want int, leaf space.Int, legend Legend) []any {
	t := strings.TrimSpace(line)
	t = strings.TrimSuffix(t, ",")
	t = strings.Trim(t, "\"'`")
	t = strings.TrimSpace(strings.Trim(t, "[]|"))
	if t == "" {
		return nil
	}
	toks := rowSeparators.Split(t, -1)
	nums := make([]any, 0, len(toks))
	for _, tok := range toks {
		n, err := strconv.Atoi(tok)
		if err != nil {
			nums = nil
			break
		}
		nums = append(nums, n)
	}
	if nums != nil {
		if len(nums) == 1 && want > 1 && len(toks[0]) == want && leaf.Max <= 10 {
			out := make([]any, 0, want)
			for _, r := range toks[0] {
				out = append(out, int(r-'0'))
			}
			return out
		}
		return nums
	}
	if len(legend) == 0 {
		return nil
	}
	chars := t
	if allSingle(toks) {
		chars = strings.Join(toks, "")
	}
	out := make([]any, 0, len(chars))
	for _, r := range chars {
		n, ok := legend.Value(r)
		if !ok {
			return nil
		}
		out = append(out, n)
	}
	return out
}

func allSingle(toks []string) bool {
	for _, t := range toks {
		if len([]rune(t)) != 1 {
			return false
		}
	}
	return len(toks) > 1
}

// parseTextArray reads a grid (or a row, for 1-D spaces) written as text lines.
func parseTextArray(text string, a space.Array, legend Legend) (any, error) {
	leaf := a.Leaf.(space.Int)
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if len(a.Dims) == 1 {
		n := a.Dims[0]
		for i := len(lines) - 1; i >= 0; i-- {
			for _, cand := range append([]string{lines[i]}, strings.Fields(lines[i])...) {
				if row := parseRowText(cand, n, leaf, legend); len(row) == n {
					return a.Normalize(row, "content")
				}
			}
		}
		return nil, &ParseError{"I could not find the " + strconv.Itoa(n) + " values in the reply. " + expectation(a, legend)}
	}
	rows, cols := a.Dims[0], a.Dims[1]
	type run struct{ rows [][]any }
	var runs []run
	var cur run
	flush := func() {
		if len(cur.rows) > 0 {
			runs = append(runs, cur)
		}
		cur = run{}
	}
	unknown := map[rune]bool{}
	for _, ln := range lines {
		row := parseRowText(ln, cols, leaf, legend)
		if row == nil {
			flush()
			noteUnknown(ln, cols, legend, unknown)
			continue
		}
		cur.rows = append(cur.rows, row)
	}
	flush()
	for i := len(runs) - 1; i >= 0; i-- {
		r := runs[i]
		if len(r.rows) != rows {
			continue
		}
		grid := make([]any, rows)
		ok := true
		for y, row := range r.rows {
			ok = ok && len(row) == cols
			grid[y] = row
		}
		if ok {
			out, err := a.Normalize(grid, "content")
			if err != nil {
				return nil, &ParseError{"The level is not valid: " + err.Error() + "."}
			}
			return out, nil
		}
	}
	// Report the largest grid-like run, which is most likely the attempted answer.
	best := -1
	for i, r := range runs {
		if len(r.rows) > 1 && (best < 0 || len(r.rows) >= len(runs[best].rows)) {
			best = i
		}
	}
	if best < 0 {
		msg := "I could not find a level in the reply. " + expectation(a, legend)
		if len(unknown) > 0 {
			var rs []string
			for r := range unknown {
				rs = append(rs, fmt.Sprintf("'%c'", r))
			}
			sort.Strings(rs)
			msg += fmt.Sprintf(" Rows of the right width use characters that are not tiles: %s; use only %s.",
				strings.Join(rs, ", "), legendText(legend))
		}
		return nil, &ParseError{msg}
	}
	widths := map[int]int{}
	for _, row := range runs[best].rows {
		widths[len(row)]++
	}
	var ws []string
	for w, n := range widths {
		if w != cols {
			ws = append(ws, fmt.Sprintf("%d row(s) of %d", n, w))
		}
	}
	msg := fmt.Sprintf("The grid has %d rows; it must have exactly %d rows of %d tiles each.", len(runs[best].rows), rows, cols)
	if len(ws) > 0 {
		msg += " Wrong row widths: " + strings.Join(ws, ", ") + "."
	}
	return nil, &ParseError{msg}
}

// noteUnknown collects the characters outside the legend of a line that has the width of a
// row, which is most likely a row with a typo or an invented tile.
func noteUnknown(line string, cols int, legend Legend, unknown map[rune]bool) {
	t := []rune(strings.TrimSpace(line))
	if len(legend) == 0 || len(t) != cols {
		return
	}
	var bad []rune
	for _, r := range t {
		if _, ok := legend.Value(r); !ok {
			bad = append(bad, r)
		}
	}
	if len(bad) > 0 && len(bad) <= cols/2 {
		for _, r := range bad {
			unknown[r] = true
		}
	}
}

// expectation says what a valid answer looks like, for error messages.
func expectation(s space.Space, legend Legend) string {
	if a, ok := s.(space.Array); ok {
		if _, isInt := a.Leaf.(space.Int); isInt && len(a.Dims) == 2 {
			if len(legend) > 0 {
				return fmt.Sprintf("Expected a grid of %d rows of %d characters, inside a ``` code block.", a.Dims[0], a.Dims[1])
			}
			return fmt.Sprintf("Expected a JSON list of %d lists of %d integers, inside a ``` code block.", a.Dims[0], a.Dims[1])
		}
	}
	return "Expected " + FormatDescription(s, legend) + ", inside a ``` code block."
}

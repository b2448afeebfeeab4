package birds

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Level is a Science Birds level: what the converter writes and what the game's loader reads.
type Level struct {
	Width     int // in copies of the 17.5-unit landscape; the converter always writes 3
	Camera    Camera
	Birds     []string
	Slingshot Point
	Objects   []Object // the children of GameObjects, in file order
}

type Camera struct{ X, Y, MinWidth, MaxWidth float64 }

type Point struct{ X, Y float64 }

// Kind is the element name of a game object.
type Kind int8

const (
	KindBlock Kind = iota
	KindPig
	KindTNT
	KindPlatform
)

func (k Kind) String() string { return [...]string{"Block", "Pig", "TNT", "Platform"}[k] }

// Object is one game object. Material is only meaningful for blocks (wood, stone, ice) and
// ScaleX/ScaleY only for platforms (0 means the default 1).
type Object struct {
	Kind           Kind
	Type           string
	Material       string
	X, Y, Rotation float64 // centre in world units, rotation in degrees counter-clockwise
	ScaleX, ScaleY float64
}

// Bounds for hostile input: the game's own levels have tens of objects.
const (
	MaxLevelBytes   = 8 << 20
	MaxLevelObjects = 10000
)

// ErrNotLevel means the text has no Level element.
var ErrNotLevel = errors.New("not a Science Birds level: no <Level> element")

// XML writes the level in the organisers' exact layout: an XML declaration claiming utf-16 (the
// bytes are UTF-8, as in every competition file), two-space indentation, self-closing tags with a
// space before "/>", "\n" line ends and none after </Level>. Numbers are the shortest decimals.
func (lv *Level) XML() string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"utf-16\"?>\n")
	fmt.Fprintf(&b, "<Level width=\"%d\">\n", lv.Width)
	fmt.Fprintf(&b, "  <Camera x=\"%s\" y=\"%s\" minWidth=\"%s\" maxWidth=\"%s\" />\n",
		num(lv.Camera.X), num(lv.Camera.Y), num(lv.Camera.MinWidth), num(lv.Camera.MaxWidth))
	b.WriteString("  <Birds>\n")
	for _, bird := range lv.Birds {
		fmt.Fprintf(&b, "    <Bird type=\"%s\" />\n", escapeAttr(bird))
	}
	b.WriteString("  </Birds>\n")
	fmt.Fprintf(&b, "  <Slingshot x=\"%s\" y=\"%s\" />\n", num(lv.Slingshot.X), num(lv.Slingshot.Y))
	b.WriteString("  <GameObjects>\n")
	for _, o := range lv.Objects {
		fmt.Fprintf(&b, "    <%s type=\"%s\"", o.Kind, escapeAttr(o.Type))
		if o.Kind == KindBlock && o.Material != "" {
			fmt.Fprintf(&b, " material=\"%s\"", escapeAttr(o.Material))
		}
		fmt.Fprintf(&b, " x=\"%s\" y=\"%s\" rotation=\"%s\"", num(o.X), num(o.Y), num(o.Rotation))
		if o.Kind == KindPlatform {
			if o.ScaleX != 0 && o.ScaleX != 1 {
				fmt.Fprintf(&b, " scaleX=\"%s\"", num(o.ScaleX))
			}
			if o.ScaleY != 0 && o.ScaleY != 1 {
				fmt.Fprintf(&b, " scaleY=\"%s\"", num(o.ScaleY))
			}
		}
		b.WriteString(" />\n")
	}
	b.WriteString("  </GameObjects>\n")
	b.WriteString("</Level>")
	return b.String()
}

// num prints the shortest decimal that reads back as v, without exponent, as bignumber.js's
// toFixed() does for the converter's values.
func num(v float64) string {
	if v == 0 {
		return "0" // also for -0
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func escapeAttr(s string) string {
	if !strings.ContainsAny(s, `<>&"'`) {
		return s
	}
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&apos;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ParseLevel reads a level the way the game's forward-only loader does, and more leniently:
// Level@width (default 1), Camera, the children of Birds, Slingshot, and the Block, Pig, TNT and
// Platform children of GameObjects; nothing after </GameObjects> is looked at. It is a tag
// scanner, not an XML parser, so the original game's own files with unclosed Camera and
// Slingshot tags load, as do files that declare utf-16 but are UTF-8 (all competition files).
// Real UTF-16 (with a byte-order mark) is decoded. Missing camera or slingshot attributes read as
// 0; a game object without a numeric x or y is an error, because the game cannot load it.
//
// One deliberate difference: the game's loader skips the element after each object when objects
// are not separated by whitespace (it relies on one whitespace node between elements); this
// reader takes every object element.
func ParseLevel(data []byte) (*Level, error) {
	if len(data) > MaxLevelBytes {
		return nil, fmt.Errorf("%w: level of %d bytes (limit %d)", ErrTooLarge, len(data), MaxLevelBytes)
	}
	text := decodeText(data)
	sc := tagScanner{s: text}
	lv := &Level{Width: 1}
	for {
		t, ok := sc.next()
		if !ok {
			return nil, ErrNotLevel
		}
		if !t.end && t.name == "Level" {
			if w, ok := t.attr("width"); ok {
				n, err := parseInt(w)
				if err != nil {
					return nil, fmt.Errorf("Level width %q: %w", w, err)
				}
				lv.Width = n
			}
			break
		}
	}
	const (
		top = iota
		inBirds
		inObjects
	)
	state := top
	for {
		t, ok := sc.next()
		if !ok {
			break
		}
		switch {
		case state == inObjects && t.end && t.name == "GameObjects":
			return lv, nil
		case state == inObjects:
			if t.end {
				continue
			}
			o, keep, err := parseObject(t)
			if err != nil {
				return nil, err
			}
			if keep {
				if len(lv.Objects) >= MaxLevelObjects {
					return nil, fmt.Errorf("%w: more than %d game objects", ErrTooLarge, MaxLevelObjects)
				}
				lv.Objects = append(lv.Objects, o)
			}
		case t.end && t.name == "Birds":
			state = top
		case t.end:
		case t.name == "GameObjects":
			state = inObjects
		case t.name == "Birds":
			state = inBirds
		case t.name == "Camera":
			lv.Camera = Camera{X: t.float("x"), Y: t.float("y"), MinWidth: t.float("minWidth"), MaxWidth: t.float("maxWidth")}
		case t.name == "Slingshot":
			lv.Slingshot = Point{X: t.float("x"), Y: t.float("y")}
			state = top
		case state == inBirds:
			if len(lv.Birds) >= MaxLevelObjects {
				return nil, fmt.Errorf("%w: more than %d birds", ErrTooLarge, MaxLevelObjects)
			}
			typ, _ := t.attr("type")
			lv.Birds = append(lv.Birds, typ)
		}
	}
	return lv, nil
}

func parseObject(t tag) (Object, bool, error) {
	var o Object
	switch t.name {
	case "Block":
		o.Kind = KindBlock
	case "Pig":
		o.Kind = KindPig
	case "TNT":
		o.Kind = KindTNT
	case "Platform":
		o.Kind = KindPlatform
	default:
		return o, false, nil
	}
	o.Type, _ = t.attr("type")
	o.Material, _ = t.attr("material")
	var err error
	if o.X, err = t.requiredFloat("x"); err != nil {
		return o, false, err
	}
	if o.Y, err = t.requiredFloat("y"); err != nil {
		return o, false, err
	}
	if r, ok := t.attr("rotation"); ok {
		if o.Rotation, err = parseFloat(r); err != nil {
			return o, false, fmt.Errorf("%s rotation %q: %w", t.name, r, err)
		}
	}
	if o.Kind == KindPlatform {
		o.ScaleX, o.ScaleY = 1, 1
		if v, ok := t.attr("scaleX"); ok {
			if o.ScaleX, err = parseFloat(v); err != nil {
				return o, false, fmt.Errorf("Platform scaleX %q: %w", v, err)
			}
		}
		if v, ok := t.attr("scaleY"); ok {
			if o.ScaleY, err = parseFloat(v); err != nil {
				return o, false, fmt.Errorf("Platform scaleY %q: %w", v, err)
			}
		}
	}
	return o, true, nil
}

func parseFloat(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, errors.New("not a number")
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e6 {
		return 0, errors.New("number out of range")
	}
	return v, nil
}

func parseInt(s string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v < 0 || v > 1000 {
		return 0, errors.New("not a small whole number")
	}
	return v, nil
}

func decodeText(data []byte) string {
	switch {
	case len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF):
		little := data[0] == 0xFF
		units := make([]uint16, 0, len(data)/2)
		for i := 2; i+1 < len(data); i += 2 {
			if little {
				units = append(units, uint16(data[i])|uint16(data[i+1])<<8)
			} else {
				units = append(units, uint16(data[i])<<8|uint16(data[i+1]))
			}
		}
		return string(utf16.Decode(units))
	case len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF:
		return string(data[3:])
	}
	return string(data)
}

// tag is a start tag (possibly self-closing) or an end tag.
type tag struct {
	name  string
	end   bool
	attrs []attr
}

type attr struct{ name, value string }

func (t tag) attr(name string) (string, bool) {
	for _, a := range t.attrs {
		if a.name == name {
			return a.value, true
		}
	}
	return "", false
}

func (t tag) float(name string) float64 {
	s, ok := t.attr(name)
	if !ok {
		return 0
	}
	v, _ := parseFloat(s)
	return v
}

func (t tag) requiredFloat(name string) (float64, error) {
	s, ok := t.attr(name)
	if !ok {
		return 0, fmt.Errorf("%s without %s", t.name, name)
	}
	v, err := parseFloat(s)
	if err != nil {
		return 0, fmt.Errorf("%s %s %q: %w", t.name, name, s, err)
	}
	return v, nil
}

// tagScanner walks the tags of a document left to right, skipping text, comments, processing
// instructions, CDATA and declarations; it never fails, it just stops at the end.
type tagScanner struct {
	s   string
	pos int
}

func (sc *tagScanner) next() (tag, bool) {
	s := sc.s
	for {
		i := strings.IndexByte(s[sc.pos:], '<')
		if i < 0 {
			sc.pos = len(s)
			return tag{}, false
		}
		sc.pos += i
		rest := s[sc.pos:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			sc.skipPast("-->")
			continue
		case strings.HasPrefix(rest, "<![CDATA["):
			sc.skipPast("]]>")
			continue
		case strings.HasPrefix(rest, "<?"):
			sc.skipPast("?>")
			continue
		case strings.HasPrefix(rest, "<!"):
			sc.skipPast(">")
			continue
		}
		sc.pos++ // past '<'
		var t tag
		if sc.pos < len(s) && s[sc.pos] == '/' {
			t.end = true
			sc.pos++
		}
		t.name = sc.name()
		if t.name == "" {
			continue // a stray '<' in text
		}
		for {
			sc.spaces()
			if sc.pos >= len(s) {
				return t, true
			}
			c := s[sc.pos]
			if c == '>' {
				sc.pos++
				return t, true
			}
			if c == '/' || c == '?' {
				sc.pos++
				continue
			}
			if c == '<' {
				return t, true // an unterminated tag: let the next call start at '<'
			}
			name := sc.name()
			if name == "" {
				sc.pos++ // junk inside a tag
				continue
			}
			sc.spaces()
			value := ""
			if sc.pos < len(s) && s[sc.pos] == '=' {
				sc.pos++
				sc.spaces()
				value = sc.value()
			}
			t.attrs = append(t.attrs, attr{name, value})
		}
	}
}

func (sc *tagScanner) skipPast(end string) {
	if i := strings.Index(sc.s[sc.pos:], end); i >= 0 {
		sc.pos += i + len(end)
	} else {
		sc.pos = len(sc.s)
	}
}

func (sc *tagScanner) spaces() {
	for sc.pos < len(sc.s) {
		switch sc.s[sc.pos] {
		case ' ', '\t', '\n', '\r':
			sc.pos++
		default:
			return
		}
	}
}

func (sc *tagScanner) name() string {
	start := sc.pos
	for sc.pos < len(sc.s) {
		c := sc.s[sc.pos]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '>' || c == '/' || c == '=' || c == '<' || c == '"' || c == '\'' {
			break
		}
		sc.pos++
	}
	return sc.s[start:sc.pos]
}

func (sc *tagScanner) value() string {
	s := sc.s
	if sc.pos < len(s) && (s[sc.pos] == '"' || s[sc.pos] == '\'') {
		q := s[sc.pos]
		sc.pos++
		i := strings.IndexByte(s[sc.pos:], q)
		if i < 0 {
			v := s[sc.pos:]
			sc.pos = len(s)
			return unescape(v)
		}
		v := s[sc.pos : sc.pos+i]
		sc.pos += i + 1
		return unescape(v)
	}
	start := sc.pos
	for sc.pos < len(s) {
		c := s[sc.pos]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '>' || c == '<' {
			break
		}
		if c == '/' && sc.pos+1 < len(s) && s[sc.pos+1] == '>' {
			break
		}
		sc.pos++
	}
	return unescape(s[start:sc.pos])
}

func unescape(v string) string {
	if !strings.Contains(v, "&") {
		return v
	}
	var b strings.Builder
	for len(v) > 0 {
		i := strings.IndexByte(v, '&')
		if i < 0 {
			b.WriteString(v)
			break
		}
		b.WriteString(v[:i])
		v = v[i:]
		j := strings.IndexByte(v, ';')
		if j < 0 || j > 12 {
			b.WriteByte('&')
			v = v[1:]
			continue
		}
		ent := v[1:j]
		switch {
		case ent == "lt":
			b.WriteByte('<')
		case ent == "gt":
			b.WriteByte('>')
		case ent == "amp":
			b.WriteByte('&')
		case ent == "quot":
			b.WriteByte('"')
		case ent == "apos":
			b.WriteByte('\'')
		case strings.HasPrefix(ent, "#x") || strings.HasPrefix(ent, "#X"):
			n, err := strconv.ParseUint(ent[2:], 16, 32)
			if err != nil || n > 0x10FFFF {
				b.WriteString(v[:j+1])
			} else {
				b.WriteRune(rune(n))
			}
		case strings.HasPrefix(ent, "#"):
			n, err := strconv.ParseUint(ent[1:], 10, 32)
			if err != nil || n > 0x10FFFF {
				b.WriteString(v[:j+1])
			} else {
				b.WriteRune(rune(n))
			}
		default:
			b.WriteString(v[:j+1])
		}
		v = v[j+1:]
	}
	return b.String()
}

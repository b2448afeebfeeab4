package play

import (
	"fmt"
	"strings"
)

// keyNames are the script spellings of the keys (the first is the canonical one).
var keyNames = map[Key][]string{
	KeyLeft:      {"left", "l"},
	KeyRight:     {"right", "r"},
	KeyUp:        {"up", "u"},
	KeyDown:      {"down", "d"},
	KeyAction:    {"space", "action", "a"},
	KeyWait:      {"wait", "."},
	KeyEnter:     {"enter"},
	KeyBackspace: {"backspace"},
	KeyRun:       {"run"},
	KeyRestart:   {"restart"},
	KeyUndo:      {"undo"},
	KeyQuit:      {"esc", "quit"},
	KeyPause:     {"pause"},
	KeyStep:      {"step"},
	KeyFaster:    {"faster", "+"},
	KeySlower:    {"slower", "-"},
}

var namedKeys = func() map[string]Key {
	m := map[string]Key{}
	for k, names := range keyNames {
		for _, n := range names {
			m[n] = k
		}
	}
	return m
}()

func (k Key) String() string {
	if c, ok := k.Letter(); ok {
		return "text:" + string(c)
	}
	if names, ok := keyNames[k]; ok {
		return names[0]
	}
	return fmt.Sprintf("Key(%d)", uint8(k))
}

// ParseScript reads a key script: tokens separated by spaces or commas. A token is a key name
// (left right up down space wait enter backspace restart undo esc pause step faster slower, or
// the short l r u d a .), a run of the letters l r u d (case-insensitive: "RRDDL" is five
// moves), or text:WORD, which types the word's letters.
func ParseScript(s string) ([]Key, error) {
	var out []Key
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\n' || r == '\t' }) {
		if word, ok := strings.CutPrefix(tok, "text:"); ok {
			for i := 0; i < len(word); i++ {
				c := word[i] | 0x20
				if c < 'a' || c > 'z' {
					return nil, fmt.Errorf("script: %q: only letters a-z can be typed", tok)
				}
				out = append(out, Letter(c))
			}
			continue
		}
		if k, ok := namedKeys[strings.ToLower(tok)]; ok {
			out = append(out, k)
			continue
		}
		if strings.Trim(strings.ToLower(tok), "lrud") == "" {
			for _, c := range strings.ToLower(tok) {
				out = append(out, namedKeys[string(c)])
			}
			continue
		}
		return nil, fmt.Errorf("script: unknown key %q (keys: left right up down space wait enter backspace restart undo esc, l r u d runs, text:WORD)", tok)
	}
	return out, nil
}

// FormatScript writes keys so that ParseScript reads them back: runs of moves as one token of
// l r u d letters, typed letters as text:WORD, other keys by name.
func FormatScript(keys []Key) string {
	var toks []string
	var run strings.Builder
	kind := 0 // 1: collecting moves, 2: collecting letters
	flush := func() {
		if run.Len() > 0 {
			if kind == 2 {
				toks = append(toks, "text:"+run.String())
			} else {
				toks = append(toks, run.String())
			}
			run.Reset()
		}
		kind = 0
	}
	for _, k := range keys {
		if c, ok := k.Letter(); ok {
			if kind != 2 {
				flush()
				kind = 2
			}
			run.WriteByte(c)
			continue
		}
		if k >= KeyLeft && k <= KeyDown {
			if kind != 1 {
				flush()
				kind = 1
			}
			run.WriteString(strings.ToUpper(keyNames[k][1]))
			continue
		}
		flush()
		toks = append(toks, k.String())
	}
	flush()
	return strings.Join(toks, " ")
}

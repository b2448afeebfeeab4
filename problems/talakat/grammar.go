package talakat

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The spawner grammar is part of the problem's definition (the reference ships it as
// spawnerGrammar.json; a test checks this table against that file). Each rule is literal text
// with #symbol# tags. The reference writes the square brackets of the pattern list escaped
// (\[ \]) and strips the backslashes from the final text; they are written plainly here.
var grammarRules = map[string][]string{
	"origin": {
		"{#patternParam#, #timeParam#, #repeatParam#}",
		"{#patternParam#, #timeParam#, #repeatParam#, #sPhaseParam#, #sRadiusParam#}",
		"{#patternParam#, #timeParam#, #repeatParam#, #sPhaseParam#, #sRadiusParam#, " +
			"#numberParam#, #angleParam#, #speedParam#, #radiusParam#}",
	},
	"patternParam": {`"pattern": [#patternNames#]`},
	"timeParam":    {`"patternTime": "#timeNumber#"`},
	"repeatParam":  {`"patternRepeat":"#repeatNumber#"`},
	"sPhaseParam":  {`"spawnerPhase":"#angleModifier#"`},
	"sRadiusParam": {`"spawnerRadius": "#radiusModifier#"`},
	"numberParam":  {`"spawnedNumber": "#numberModifier#"`},
	// Four aimed-by-modifier forms and one aimed at the player.
	"angleParam": {
		`"spawnedAngle": "#angleModifier#"`, `"spawnedAngle": "#angleModifier#"`,
		`"spawnedAngle": "#angleModifier#"`, `"spawnedAngle": "#angleModifier#"`,
		`"spawnedAngle": "player"`,
	},
	"speedParam":  {`"spawnedSpeed": "#numberModifier#"`},
	"radiusParam": {`"bulletRadius": "#bulletRadiusModifier#"`},

	// Left recursion: every odd choice adds one more name in front.
	"patternNames": {`"#name#"`, `#patternNames#, "#name#"`},
	"angleModifier": {"#angleNumber#",
		"#smallAngleNumber#, #largeAngleNumber#, #largeRateNumber#, #timeNumber#, #bounds#"},
	"radiusModifier": {"#radiusNumber#",
		"#smallRadiusNumber#, #largeRadiusNumber#, #largeRateNumber#, #timeNumber#, #bounds#"},
	"bulletRadiusModifier": {"#bulletRadiusNumber#",
		"#bulletRadiusNumber#, #largeBulletRadiusNumber#, #largeRateNumber#, #timeNumber#, #bounds#"},
	"numberModifier": {"#number#",
		"#smallNumber#, #largeNumber#, #smallRateNumber#, #timeNumber#, #bounds#"},

	// Seven bullets to three waits; the names of the rows expanded earlier are appended.
	"name":                    append(repeat("bullet", 7), repeat("wait", 3)...),
	"number":                  numbers(1, 6, 1),
	"smallNumber":             numbers(1, 3, 1),
	"largeNumber":             numbers(4, 6, 1),
	"timeNumber":              numbers(2, 6, 1),
	"repeatNumber":            append(repeat("0", 10), numbers(1, 5, 1)...),
	"angleNumber":             numbers(0, 350, 10),
	"smallAngleNumber":        numbers(0, 170, 10),
	"largeAngleNumber":        numbers(180, 350, 10),
	"bulletRadiusNumber":      numbers(5, 8, 1),
	"largeBulletRadiusNumber": numbers(10, 16, 2),
	"radiusNumber":            numbers(0, 100, 20),
	"smallRadiusNumber":       numbers(0, 20, 5),
	"largeRadiusNumber":       numbers(25, 50, 5),
	// -0.9 is missing from the reference's list (the spec's "±0.1..1" summary is loose): 19
	// entries, so the choice is v mod 19.
	"smallRateNumber": {"-1", "-0.8", "-0.7", "-0.6", "-0.5", "-0.4", "-0.3", "-0.2", "-0.1",
		"0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"},
	"largeRateNumber": {"-5", "-4", "-3", "-2", "-1", "1", "2", "3", "4", "5"},
	"bounds":          {"circle", "reverse"},
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func numbers(from, to, step int) []string {
	var out []string
	for v := from; v <= to; v += step {
		out = append(out, strconv.Itoa(v))
	}
	return out
}

// piece is a parsed rule part: literal text, or a tag naming a symbol.
type piece struct {
	text   string
	symbol int // -1 for literal text
}

// compiledGrammar holds the rules with tags resolved to symbol indices.
type compiledGrammar struct {
	index map[string]int
	rules [][][]piece // symbol → rule → pieces
	name  int         // the symbol whose rule list grows with the spawner names
	names [][]piece   // the base rules of "name"
}

var grammar = compileGrammar()

func compileGrammar() *compiledGrammar {
	g := &compiledGrammar{index: map[string]int{}}
	keys := make([]string, 0, len(grammarRules))
	for k := range grammarRules {
		keys = append(keys, k)
	}
	for _, k := range keys {
		g.index[k] = len(g.index)
	}
	g.rules = make([][][]piece, len(keys))
	for _, k := range keys {
		for _, r := range grammarRules[k] {
			g.rules[g.index[k]] = append(g.rules[g.index[k]], g.parse(r))
		}
	}
	g.name = g.index["name"]
	g.names = g.rules[g.name]
	return g
}

func (g *compiledGrammar) parse(rule string) []piece {
	var out []piece
	parts := strings.Split(rule, "#")
	for i, p := range parts {
		if i%2 == 1 {
			sym, ok := g.index[p]
			if !ok {
				panic(fmt.Sprintf("talakat grammar: rule %q names unknown symbol %q", rule, p))
			}
			out = append(out, piece{symbol: sym})
		} else if p != "" {
			out = append(out, piece{text: p, symbol: -1})
		}
	}
	return out
}

// errEndlessPattern is the reference's RecursionError: the pattern list recurses while the
// values it draws are odd, and a row of only odd values never stops.
var errEndlessPattern = errors.New("talakat: the spawner row has only odd values, so its pattern " +
	"list never ends (the reference raises RecursionError)")

// expander expands #origin# for one row: a cyclic queue of the row's values, where every tag
// takes the front value (and puts it back at the end) and picks rule value mod len(rules).
type expander struct {
	g     *compiledGrammar
	names [][]piece
	queue []int
	head  int
	out   []byte
}

func (e *expander) expand(sym int) {
	v := e.queue[e.head]
	e.head++
	if e.head == len(e.queue) {
		e.head = 0
	}
	rules := e.g.rules[sym]
	if sym == e.g.name {
		rules = e.names
	}
	for _, p := range rules[v%len(rules)] {
		if p.symbol < 0 {
			e.out = append(e.out, p.text...)
		} else {
			e.expand(p.symbol)
		}
	}
}

// Script is the expanded spawner script: Spawners[i] is the JSON text of spawner_i.
type Script struct {
	Spawners []string
}

// expandScript turns the content rows into spawner texts. Row r defines spawner_{K-1-r} and may
// spawn the spawners of the rows before it.
func expandScript(rows [][]int) (Script, error) {
	k := len(rows)
	s := Script{Spawners: make([]string, k)}
	e := &expander{g: grammar, names: append([][]piece(nil), grammar.names...)}
	for r, row := range rows {
		allOdd := true
		for _, v := range row {
			if v%2 == 0 {
				allOdd = false
				break
			}
		}
		if allOdd || len(row) == 0 {
			return Script{}, errEndlessPattern
		}
		e.queue, e.head, e.out = row, 0, e.out[:0]
		e.expand(grammar.index["origin"])
		name := spawnerName(k - 1 - r)
		s.Spawners[k-1-r] = string(e.out)
		e.names = append(e.names, []piece{{text: name, symbol: -1}})
	}
	return s, nil
}

func spawnerName(i int) string { return "spawner_" + strconv.Itoa(i) }

// JSON is the reference's script document (spawners keyed by name in definition order, and the
// boss whose only event spawns spawner_0 at full health).
func (s Script) JSON(maxHealth int) string {
	var b strings.Builder
	b.WriteString(`{"spawners":{`)
	for i := len(s.Spawners) - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "%q:%s", spawnerName(i), s.Spawners[i])
		if i > 0 {
			b.WriteByte(',')
		}
	}
	fmt.Fprintf(&b, `}, "boss":{"health": %d, "script":[{"health":"1","events":["spawn, spawner_0"]}]}}`, maxHealth)
	return b.String()
}

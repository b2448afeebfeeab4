package llm

import (
	"encoding/json"
	"sync"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/space"
)

// fuzzProblems are content spaces of every shape the parser meets: character grids, a 3-D
// array, dicts of lists and a dict with floats. Those needing data this machine lacks (smb)
// are left out.
var fuzzProblems = []string{"binary-v0", "zelda-v0", "sokoban-v0", "building-v0", "isaac-v0", "talakat-v0", "arcade-v0", "mdungeons-v0", "smb-v0"}

type fuzzTarget struct {
	space  space.Space
	legend Legend
}

var fuzzTargets = sync.OnceValues(func() ([]fuzzTarget, error) {
	var out []fuzzTarget
	for _, name := range fuzzProblems {
		if problems.Unavailable(name) != nil {
			continue
		}
		p, err := problems.Make(name)
		if err != nil {
			return nil, err
		}
		pr, err := Templates{}.Load(name, "")
		if err != nil {
			return nil, err
		}
		out = append(out, fuzzTarget{p.ContentSpace(), pr.Legend})
	}
	return out, nil
})

// FuzzParseContent feeds hostile replies to the reply parser: it must not panic, and whatever
// it accepts must be a valid content of the space that survives being written in the prompt's
// format and parsed again.
func FuzzParseContent(f *testing.F) {
	f.Add(uint8(1), "```\n####\n#@k#\n#.de\n```")
	f.Add(uint8(0), "[[0,1],[1,0]]")
	f.Add(uint8(4), `{"layout": [4, 5, 5, 1], "start": 0, "boss": 3}`)
	f.Add(uint8(5), "```json\n{\"spawners\": [{\"pattern\": [1, 2]}], \"script\": [}\n```")
	f.Add(uint8(6), "rules = {'a': None, 'b': True,}")
	f.Add(uint8(3), "```\n1 2 3\n4 5 6\n```\n```")
	f.Add(uint8(7), "[[\"-\"]]\n\n```\n"+string(rune(0x1F600))+"\n```")
	f.Fuzz(func(t *testing.T, which uint8, reply string) {
		targets, err := fuzzTargets()
		if err != nil {
			t.Fatal(err)
		}
		tg := targets[int(which)%len(targets)]
		v, err := ParseContent(reply, tg.space, tg.legend)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if err := tg.space.Check(v, ""); err != nil {
			t.Fatalf("accepted an invalid content: %v", err)
		}
		again, err := ParseContent(FormatContent(v, tg.space, tg.legend), tg.space, tg.legend)
		if err != nil {
			t.Fatalf("its own format does not parse: %v", err)
		}
		a, _ := json.Marshal(v)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Fatalf("round trip changed the content:\n%s\n%s", a, b)
		}
	})
}

// FuzzParseLetters: the --letters syntax accepts only letters A..Z, in order of mention.
func FuzzParseLetters(f *testing.F) {
	for _, s := range []string{"A-Z", "A,C,E-G", "z", "B-A", "", "A--C", ",,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		letters, err := ParseLetters(spec)
		if err != nil {
			return
		}
		if len(letters) == 0 {
			t.Fatal("no letters and no error")
		}
		for _, l := range letters {
			if len(l) != 1 || l[0] < 'A' || l[0] > 'Z' {
				t.Fatalf("letter %q", l)
			}
		}
	})
}

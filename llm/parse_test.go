package llm

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"pcgwb/problems/space"
)

var zeldaLegend = Legend{{0, "#", "wall"}, {1, ".", "floor"}, {2, "@", "player"}, {3, "k", "key"}, {4, "d", "door"}, {5, "e", "enemy"}}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseGrids(t *testing.T) {
	grid := space.Grid(3, 4, 6)
	want := `[[0,0,0,0],[0,2,3,0],[0,1,4,5]]`
	cases := []struct{ name, reply string }{
		{"fenced chars", "Here is my level:\n```\n####\n#@k#\n#.de\n```\nEnjoy!"},
		{"fenced chars with tag", "```text\n####\n#@k#\n#.de\n```"},
		{"bare chars in prose", "Sure.\n\n####\n#@k#\n#.de\n\nThe player starts top left."},
		{"spaced chars", "```\n# # # #\n# @ k #\n# . d e\n```"},
		{"json numbers", "```json\n[[0,0,0,0],[0,2,3,0],[0,1,4,5]]\n```"},
		{"json over lines with trailing comma", "```\n[\n [0, 0, 0, 0],\n [0, 2, 3, 0],\n [0, 1, 4, 5],\n]\n```"},
		{"python-ish", "level = [[0,0,0,0],[0,2,3,0],[0,1,4,5]]  # done"},
		{"number rows", "```\n0 0 0 0\n0 2 3 0\n0 1 4 5\n```"},
		{"digit rows", "```\n0000\n0230\n0145\n```"},
		{"comma rows", "0,0,0,0\n0,2,3,0\n0,1,4,5"},
		{"json strings of chars", "```json\n[\"####\", \"#@k#\", \"#.de\"]\n```"},
		{"json strings of digits", `["0000", "0230", "0145"]`},
		{"wrapped object", "```json\n{\"level\": [\"####\", \"#@k#\", \"#.de\"]}\n```"},
		{"tile names", `[["wall","wall","wall","wall"],["wall","player","key","wall"],["wall","floor","door","enemy"]]`},
		{"upper case chars", "```\n####\n#@K#\n#.DE\n```"},
		{"last block wins", "```\n####\n####\n####\n```\nOops, corrected:\n```\n####\n#@k#\n#.de\n```"},
		{"unclosed fence", "```\n####\n#@k#\n#.de"},
		{"single-line fence", "```[[0,0,0,0],[0,2,3,0],[0,1,4,5]]```"},
		{"crlf", "```\r\n####\r\n#@k#\r\n#.de\r\n```\r\n"},
		{"number strings", `[["0","0","0","0"],["0","2","3","0"],["0","1","4","5"]]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseContent(c.reply, grid, zeldaLegend)
			if err != nil {
				t.Fatal(err)
			}
			if s := mustJSON(t, got); s != want {
				t.Fatalf("got %s", s)
			}
			if _, ok := got.([]any)[0].([]any)[0].(int); !ok {
				t.Fatal("not normalized to ints")
			}
		})
	}
}

func TestParseErrorsSayWhatIsWrong(t *testing.T) {
	grid := space.Grid(3, 4, 6)
	cases := []struct{ name, reply, want string }{
		{"empty", "  ", "empty"},
		{"prose only", "I cannot design levels, sorry.", "grid of 3 rows of 4 characters"},
		{"too few rows", "```\n####\n#@k#\n```", "2 rows; it must have exactly 3 rows of 4"},
		{"wrong width", "```\n####\n#@k##\n#.de\n```", "1 row(s) of 5"},
		{"out of range", "[[0,0,0,0],[0,2,3,0],[0,1,4,9]]", "content[2][3]: value 9 is outside [0, 6)"},
		{"short json", "[[0,0,0,0],[0,2,3,0]]", "expected 3 elements, got 2"},
		{"unknown char", "```\n####\n#@X#\n#.de\n```", "not tiles: 'X'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseContent(c.reply, grid, zeldaLegend)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not say %q", err, c.want)
			}
		})
	}
}

func TestParseNumberGridWithoutLegend(t *testing.T) {
	grid := space.Grid(2, 3, 16)
	got, err := ParseContent("```\n10 11 12\n0 15 3\n```", grid, nil)
	if err != nil || mustJSON(t, got) != `[[10,11,12],[0,15,3]]` {
		t.Fatalf("%v %v", got, err)
	}
	// Multi-digit values cannot be read as digit strings.
	if _, err := ParseContent("```\n101\n015\n```", grid, nil); err == nil {
		t.Fatal("digit rows accepted for values above 9")
	}
}

var isaacSpace = space.Dict{
	{Key: "layout", Space: space.Array{Dims: []int{4}, Leaf: space.Int{Min: 0, Max: 16}}},
	{Key: "start", Space: space.Int{Min: 0, Max: 4}},
	{Key: "boss", Space: space.Int{Min: 0, Max: 4}},
}

func TestParseDicts(t *testing.T) {
	want := `{"boss":3,"layout":[4,5,5,1],"start":0}`
	cases := []struct{ name, reply string }{
		{"plain", "```json\n{\"layout\": [4,5,5,1], \"start\": 0, \"boss\": 3}\n```"},
		{"extra keys and prose", "Here:\n{\"layout\": [4,5,5,1], \"start\": 0, \"boss\": 3, \"comment\": \"nice\"}\nDone."},
		{"key case and separators", `{"Layout": [4,5,5,1], "START": 0, "Boss": 3}`},
		{"numbers as strings", `{"layout": ["4","5","5","1"], "start": "0", "boss": "3"}`},
		{"single quotes", `{'layout': [4,5,5,1], 'start': 0, 'boss': 3}`},
		{"wrapped", `{"content": {"layout": [4,5,5,1], "start": 0, "boss": 3}}`},
		{"positional list", `[[4,5,5,1], 0, 3]`},
		{"second object is the answer", `Keys are {"layout": "list"}. Answer: {"layout": [4,5,5,1], "start": 0, "boss": 3}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseContent(c.reply, isaacSpace, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s := mustJSON(t, got); s != want {
				t.Fatalf("got %s", s)
			}
		})
	}
	_, err := ParseContent(`{"layout": [4,5,5,1], "start": 0}`, isaacSpace, nil)
	if err == nil || !strings.Contains(err.Error(), `missing key "boss"`) {
		t.Fatalf("missing key: %v", err)
	}
}

func TestParseListOfObjects(t *testing.T) {
	blocks := space.Array{Dims: []int{2}, Leaf: space.Dict{
		{Key: "x", Space: space.Int{Min: 0, Max: 7}}, {Key: "y", Space: space.Int{Min: 0, Max: 7}}, {Key: "type", Space: space.Int{Min: 0, Max: 4}}}}
	want := `[{"type":0,"x":1,"y":2},{"type":3,"x":4,"y":5}]`
	for _, reply := range []string{
		"```json\n[\n {\"x\": 1, \"y\": 2, \"type\": 0},\n {\"x\": 4, \"y\": 5, \"type\": 3}\n]\n```",
		"[[1, 2, 0], [4, 5, 3]]",
		`{"blocks": [{"x": 1, "y": 2, "type": 0}, {"x": 4, "y": 5, "type": 3}]}`,
	} {
		got, err := ParseContent(reply, blocks, nil)
		if err != nil {
			t.Fatalf("%q: %v", reply, err)
		}
		if s := mustJSON(t, got); s != want {
			t.Fatalf("%q: got %s", reply, s)
		}
	}
}

func TestParseLetterRow(t *testing.T) {
	var l Legend
	for i := 0; i < 26; i++ {
		l = append(l, Tile{Value: i, Char: string(rune('a' + i))})
	}
	row := space.Array{Dims: []int{6}, Leaf: space.Int{Min: 0, Max: 26}}
	for _, reply := range []string{"```\nplanet\n```", "My puzzle: planet", `"PLANET"`, "[15, 11, 0, 13, 4, 19]"} {
		got, err := ParseContent(reply, row, l)
		if err != nil {
			t.Fatalf("%q: %v", reply, err)
		}
		if s := mustJSON(t, got); s != `[15,11,0,13,4,19]` {
			t.Fatalf("%q: got %s", reply, s)
		}
	}
}

func TestParseLegend(t *testing.T) {
	l, err := ParseLegend("{{/* tiles\n0 # solid wall\n1 . empty\n*/}}\nbody")
	if err != nil || len(l) != 2 || l[0] != (Tile{0, "#", "solid wall"}) || l[1] != (Tile{1, ".", "empty"}) {
		t.Fatalf("%v %v", l, err)
	}
	if l, err := ParseLegend("no legend here"); l != nil || err != nil {
		t.Fatalf("%v %v", l, err)
	}
	for _, bad := range []string{
		"{{/* tiles\n0 ## wall\n*/}}",
		"{{/* tiles\nx # wall\n*/}}",
		"{{/* tiles\n0 # wall\n1 # floor\n*/}}",
		"{{/* tiles\n0 , comma\n*/}}",
		"{{/* tiles\n0\n*/}}",
	} {
		if _, err := ParseLegend(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestFormatContentRoundTrips(t *testing.T) {
	grid := space.Grid(3, 4, 6)
	c := []any{[]any{0, 0, 0, 0}, []any{0, 2, 3, 0}, []any{0, 1, 4, 5}}
	txt := FormatContent(c, grid, zeldaLegend)
	if txt != "####\n#@k#\n#.de" {
		t.Fatalf("chars: %q", txt)
	}
	for _, l := range []Legend{zeldaLegend, nil} {
		got, err := ParseContent(FormatContent(c, grid, l), grid, l)
		if err != nil || mustJSON(t, got) != mustJSON(t, c) {
			t.Fatalf("legend %v: %v %v", l, got, err)
		}
	}
	d := map[string]any{"layout": []any{4, 5, 5, 1}, "start": 0, "boss": 3}
	txt = FormatContent(d, isaacSpace, nil)
	if !strings.HasPrefix(txt, "{\n \"layout\": [4, 5, 5, 1],\n \"start\": 0,") {
		t.Fatalf("dict: %q", txt)
	}
	got, err := ParseContent(txt, isaacSpace, nil)
	if err != nil || mustJSON(t, got) != mustJSON(t, d) {
		t.Fatalf("dict round trip: %v %v", got, err)
	}
}

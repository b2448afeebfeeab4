package birds

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"pcgwb/internal/testshared"
)

func loadJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

func TestExtractionCases(t *testing.T) {
	var cases []struct {
		Name   string  `json:"name"`
		Input  string  `json:"input"`
		Output *string `json:"output"`
	}
	loadJSON(t, testshared.Dir(t, "science-birds", "reference-outputs", "extraction_cases.json"), &cases)
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := ExtractCode(c.Input)
			if c.Output == nil {
				if !errors.Is(err, ErrCodeNotFound) {
					t.Fatalf("got %q, %v; want Code not found", got, err)
				}
				return
			}
			if err != nil || got != *c.Output {
				t.Fatalf("got %q, %v; want %q", got, err, *c.Output)
			}
		})
	}
}

func TestConversionCases(t *testing.T) {
	var cases []struct {
		Name  string `json:"name"`
		Input string `json:"input"`
		OK    bool   `json:"ok"`
		XML   string `json:"xml"`
		Error string `json:"error"`
		Cells []struct {
			ID string `json:"id"`
			X  int    `json:"x"`
			Y  int    `json:"y"`
		} `json:"gridCellsBeforeShift"`
	}
	loadJSON(t, testshared.Dir(t, "science-birds", "reference-outputs", "conversion_cases.json"), &cases)
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			s, err := Convert(c.Input)
			if !c.OK {
				if err == nil || err.Error() != c.Error {
					t.Fatalf("got error %v; want %q", err, c.Error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Level().XML(); got != c.XML {
				t.Fatalf("XML differs:\n%s\nwant:\n%s", got, c.XML)
			}
			if len(s.Placed) != len(c.Cells) {
				t.Fatalf("%d placements, want %d", len(s.Placed), len(c.Cells))
			}
			for i, p := range s.Placed {
				if p.Piece.String() != c.Cells[i].ID || p.Col != c.Cells[i].X || p.Row != c.Cells[i].Y {
					t.Errorf("placement %d = %+v, want %+v", i, p, c.Cells[i])
				}
			}
		})
	}
}

// The two 2023 prompts with hard-coded letter templates give 36 more exact conversions.
func TestTemplateLevelConversions(t *testing.T) {
	var sets map[string][]struct {
		Team      string  `json:"team"`
		Character string  `json:"character"`
		Text      string  `json:"dropBlockText"`
		XML       string  `json:"xml"`
		ConvErr   *string `json:"conversionError"`
		Placement []struct {
			Block string `json:"block"`
			Col   int    `json:"centerColumn"`
			Row   int    `json:"bottomRow"`
		} `json:"gridPlacementBeforeShift"`
	}
	loadJSON(t, testshared.Dir(t, "science-birds", "reference-outputs", "template_levels_2023.json"), &sets)
	n := 0
	for _, set := range sets {
		for _, c := range set {
			n++
			s, err := Convert(c.Text)
			if c.ConvErr != nil {
				if err == nil || err.Error() != *c.ConvErr {
					t.Errorf("%s %s: got %v, want %q", c.Team, c.Character, err, *c.ConvErr)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %s: %v", c.Team, c.Character, err)
				continue
			}
			if got := s.Level().XML(); got != c.XML {
				t.Errorf("%s %s: XML differs:\n%s\nwant\n%s", c.Team, c.Character, got, c.XML)
			}
			for i, p := range s.Placed {
				if i >= len(c.Placement) || p.Piece.String() != c.Placement[i].Block || p.Col != c.Placement[i].Col || p.Row != c.Placement[i].Row {
					t.Errorf("%s %s: placement %d = %+v", c.Team, c.Character, i, p)
				}
			}
		}
	}
	if n < 30 {
		t.Fatalf("only %d template levels", n)
	}
}

func TestSpecExampleLevel(t *testing.T) {
	want := `<?xml version="1.0" encoding="utf-16"?>
<Level width="3">
  <Camera x="2" y="0" minWidth="17" maxWidth="22" />
  <Birds>
    <Bird type="BirdRed" />
  </Birds>
  <Slingshot x="-9" y="-2.5" />
  <GameObjects>
    <Block type="RectSmall" material="wood" x="2.36015" y="-3.13985" rotation="90" />
    <Block type="RectSmall" material="wood" x="2.36015" y="-2.65965" rotation="0" />
  </GameObjects>
</Level>`
	got, err := ConvertToXML("drop_block('b13', 7)\ndrop_block('b31', 7)\n")
	if err != nil || got != want {
		t.Fatalf("got %v\n%s", err, got)
	}
}

func TestConversionQuirks(t *testing.T) {
	cases := []struct {
		name, program, err string
		placed             []Placement
	}{
		{"leading zeros and plus sign", "drop_block('b11', 007)\ndrop_block('b11', +7)\n", "", []Placement{{B11, 7, 0}, {B11, 7, 1}}},
		{"minus zero is column zero", "drop_block('b11', -0)\n", "", []Placement{{B11, 0, 0}}},
		{"parseInt stops at the first non-digit", "drop_block('b11', 4abc)\n", "", []Placement{{B11, 4, 0}}},
		{"empty position", "drop_block('b11', )\n", MsgHeight, nil},
		{"negative position", "drop_block('b11', -1)\n", MsgHeight, nil},
		{"huge position", "drop_block('b11', 99999999999999999999999)\n", MsgHeight, nil},
		{"no comma", "drop_block('b11' 4)\n", MsgBlockType, nil},
		{"upper case is lowered first", "DROP_BLOCK('B31', 5)\n", "", []Placement{{B31, 5, 0}}},
		{"any quote characters", "drop_block(|b13\", 5)\n", "", []Placement{{B13, 5, 0}}},
		{"b31 at column 0", "drop_block('b31', 0)\n", MsgWidth, nil},
		{"other lines are skipped", "# comment\nx = 1\n  drop_block('b11', 3)\ndrop_block('b11', 3)\n", "", []Placement{{B11, 3, 0}}},
		{"carriage returns are harmless", "drop_block('b11', 3)\r\ndrop_block('b11', 3)\r\n", "", []Placement{{B11, 3, 0}, {B11, 3, 1}}},
		// A dotted capital I lower-cases to two UTF-16 units in JavaScript, moving the block type.
		{"dotted capital I shifts the substring", "drop_block(İb11', 3)\n", MsgBlockType, nil},
		{"one-unit non-ASCII quote", "drop_block(éb11é, 3)\n", "", []Placement{{B11, 3, 0}}},
		{"top-row b31 overlaps an occupied side cell",
			strings.Repeat("drop_block('b11', 4)\n", 16) + "drop_block('b31', 5)\n", "",
			append(repeatPlacements(16), Placement{B31, 5, 15})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Convert(c.program)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Fatalf("got %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Placed) != len(c.placed) {
				t.Fatalf("got %v, want %v", s.Placed, c.placed)
			}
			for i := range c.placed {
				if s.Placed[i] != c.placed[i] {
					t.Fatalf("got %v, want %v", s.Placed, c.placed)
				}
			}
		})
	}
}

func repeatPlacements(n int) []Placement {
	var out []Placement
	for i := 0; i < n; i++ {
		out = append(out, Placement{B11, 4, i})
	}
	return out
}

func TestEmptyProgramGivesEmptyLevel(t *testing.T) {
	s, err := Convert("print('hi')\n")
	if err != nil {
		t.Fatal(err)
	}
	lv := s.Level()
	if len(lv.Objects) != 0 || lv.Camera.MinWidth != 17 || lv.Width != 3 {
		t.Fatalf("%+v", lv)
	}
}

func TestLargeStructureCamera(t *testing.T) {
	// 16 rows high: Hc = 3.5 + 16·0.2401 = 7.3416, camera 2·1.6·Hc = 23.49312.
	xml, err := ConvertToXML(strings.Repeat("drop_block('b11', 0)\n", 16))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(xml, `minWidth="23.49312" maxWidth="28.49312"`) {
		t.Fatal(xml)
	}
}

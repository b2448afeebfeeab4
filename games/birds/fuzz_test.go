package birds

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzExtractCode(f *testing.F) {
	f.Add("```\ndrop_block('b31', 10)\n```")
	f.Add("```python\ndrop_block(\"b11\", 4); drop_block('b13',5)\n```\n```\nnothing\n```")
	f.Add("``````")
	f.Add("```` drop_block('b11', 1) ```")
	f.Fuzz(func(t *testing.T, text string) {
		out, err := ExtractCode(text)
		if err != nil {
			if !errors.Is(err, ErrCodeNotFound) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if out == "" || !strings.HasSuffix(out, "\n") || strings.ToLower(out) != out {
			t.Fatalf("malformed output %q", out)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if !callPattern(DropBlock).MatchString(line) || strings.Contains(line, `"`) {
				t.Fatalf("line %q is not a normalised call", line)
			}
		}
		// Extraction is idempotent on its own output.
		again, err := ExtractCode("```\n" + out + "```")
		if err != nil || again != out {
			t.Fatalf("re-extraction %q, %v", again, err)
		}
		// Whatever is extracted, conversion either succeeds or fails with one of its messages.
		if _, err := Convert(out); err != nil {
			var ce *ConversionError
			if !errors.As(err, &ce) {
				t.Fatalf("conversion error %v", err)
			}
		}
	})
}

func FuzzConvert(f *testing.F) {
	f.Add("drop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n")
	f.Add("drop_block('b11', -0)\ndrop_block('B31', +5)\r\n")
	f.Add("drop_block(İb11', 3)\n")
	f.Add("drop_block('b13', 19)\ndrop_block('b13', 19)\ndrop_block('b13', 19)\ndrop_block('b13', 19)\ndrop_block('b13', 19)\n")
	f.Fuzz(func(t *testing.T, program string) {
		s, err := Convert(program)
		if err != nil {
			var ce *ConversionError
			if !errors.As(err, &ce) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("unexpected error %v", err)
			}
			if ce != nil && ce.Msg != MsgBlockType && ce.Msg != MsgHeight && ce.Msg != MsgWidth {
				t.Fatalf("unknown message %q", ce.Msg)
			}
			return
		}
		if len(s.Placed) > GridWidth*GridHeight {
			t.Fatalf("%d blocks", len(s.Placed))
		}
		for _, p := range s.Placed {
			w, h := p.Piece.Size()
			if p.Col-(w-1)/2 < 0 || p.Col+(w-1)/2 >= GridWidth || p.Row < 0 || p.Row+h > GridHeight {
				t.Fatalf("block outside the grid: %+v", p)
			}
		}
		xml := s.Level().XML()
		lv, err := ParseLevel([]byte(xml))
		if err != nil || len(lv.Objects) != len(s.Placed) {
			t.Fatalf("level does not read back: %v", err)
		}
		if lv.XML() != xml {
			t.Fatalf("round trip changed the level")
		}
	})
}

func FuzzParseLevel(f *testing.F) {
	// A level as the converter writes it (TestSpecExampleLevel pins that format).
	xml, err := ConvertToXML("drop_block('b31', 7)\ndrop_block('b11', 7)\n")
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(xml))
	f.Add([]byte("<Level><Camera x=\"0\" y=\"-1\" minWidth=\"15\" maxWidth=\"17.5\">\n<Slingshot x=\"-5\" y=\"-2.5\">\n<GameObjects><Pig type=\"BasicSmall\" x=\"3\" y=\"-3\"/><TNT type=\"\" x=\"1\" y=\"-3\"/><Platform type=\"Platform\" x=\"0\" y=\"0\" scaleX=\"2\"/>"))
	f.Add([]byte(`<Level><GameObjects><Block type="Triangle" x="0" y="0" rotation="45"/><Block type="Circle" x="0" y="1"/></GameObjects></Level>`))
	f.Add([]byte("\xff\xfe<\x00L\x00e\x00v\x00e\x00l\x00>\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lv, err := ParseLevel(data)
		if err != nil {
			return
		}
		back, err := ParseLevel([]byte(lv.XML()))
		if err != nil || len(back.Objects) != len(lv.Objects) {
			t.Fatalf("written level does not read back: %v", err)
		}
		if !utf8.ValidString(lv.XML()) && utf8.Valid(data) {
			t.Fatalf("invalid UTF-8 written from valid input")
		}
		// The physics must survive anything the reader accepts (degenerate shapes become errors).
		if len(lv.Objects) <= 40 {
			cfg := SimConfig{StabilitySteps: 20, ImageSteps: 20, CaptureDelay: 2}
			res, err := Simulate(lv, cfg)
			if err == nil {
				Render(res)
			} else if !errors.Is(err, ErrPhysics) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("unexpected error %v", err)
			}
		}
	})
}

func TestHostileLevels(t *testing.T) {
	pile := "<Level><GameObjects>" + strings.Repeat(`<Block type="RectSmall" x="2" y="0"/>`, 600) + "</GameObjects></Level>"
	big := "<Level><GameObjects>" + strings.Repeat(`<Block type="SquareTiny" x="2" y="0"/>`, 1001) + "</GameObjects></Level>"
	far := `<Level><GameObjects><Block type="RectSmall" x="99999" y="0"/></GameObjects></Level>`
	flat := `<Level><GameObjects><Platform type="P" x="0" y="0" scaleY="0.000001"/></GameObjects></Level>`
	for name, text := range map[string]string{"pile": pile, "too many": big, "far away": far, "flat platform": flat} {
		lv, err := ParseLevel([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := Simulate(lv, DefaultSimConfig()); err == nil {
			t.Errorf("%s: accepted", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	if _, err := ExtractCode(strings.Repeat("`", MaxResponseBytes+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("huge answer: %v", err)
	}
	if _, err := Convert(strings.Repeat("drop_block('b11', 1)\n", MaxProgramBytes/20)); err == nil {
		t.Error("a program of 200k calls in one column must fail")
	}
}

package birds

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/internal/testshared"
)

func TestParseOriginalGameLevels(t *testing.T) {
	dir := testshared.Dir(t, "science-birds", "original-game-levels")
	for _, name := range []string{"level-1.xml", "level-3.xml"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		lv, err := ParseLevel(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if lv.Width != 1 || lv.Camera.MaxWidth != 17.5 || lv.Slingshot.X != -5 || len(lv.Birds) < 3 || len(lv.Objects) < 4 {
			t.Fatalf("%s: %+v", name, lv)
		}
		kinds := map[Kind]int{}
		for _, o := range lv.Objects {
			kinds[o.Kind]++
		}
		t.Logf("%s: %d birds, objects %v", name, len(lv.Birds), kinds)
		// The viewer can simulate them too (approximate colliders for pigs and round blocks).
		res, err := Simulate(lv, DefaultSimConfig())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Total != len(lv.Objects)-kinds[KindPlatform] {
			t.Errorf("%s: %d simulated objects", name, res.Total)
		}
	}
	// level-1: a RectFat rotated 90.00001°, a pig and a TNT with an empty type.
	data, _ := os.ReadFile(filepath.Join(dir, "level-1.xml"))
	lv, _ := ParseLevel(data)
	if o := lv.Objects[1]; o.Type != "RectFat" || o.Rotation != 90.00001 {
		t.Errorf("%+v", o)
	}
	if o := lv.Objects[3]; o.Kind != KindTNT || o.Type != "" || o.Y != -4 {
		t.Errorf("%+v", o)
	}
}

func TestParseCompetitionLevelsRoundTrip(t *testing.T) {
	root := testshared.Dir(t, "science-birds", "unity-run-2023-03", "levels")
	n := 0
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".xml") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lv, err := ParseLevel(data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		// Our writer reproduces the competition files byte for byte.
		if got := lv.XML(); got != strings.TrimRight(string(data), "\r\n") {
			t.Errorf("%s: written back differently:\n%s", p, got)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 105 {
		t.Fatalf("%d levels", n)
	}
}

func TestParseLevelTolerance(t *testing.T) {
	cases := []struct {
		name, text string
		objects    int
		err        error
	}{
		{"no declaration, single quotes, no spaces", `<Level width='3'><Camera x='2' y='0' minWidth='17' maxWidth='22'/><Birds><Bird type='BirdRed'/></Birds><Slingshot x='-9' y='-2.5'/><GameObjects><Block type='SquareTiny' material='wood' x='2.12' y='-3.38'/><Block type='RectSmall' x='2.5' y='-3' rotation='90'/></GameObjects></Level>`, 2, nil},
		{"unclosed tags and comments", "<?xml version=\"1.0\"?>\n<!-- a level -->\n<Level>\n<Camera x=\"0\" y=\"0\" minWidth=\"1\" maxWidth=\"2\">\n<Slingshot x=\"1\" y=\"2\">\n<GameObjects>\n<Block type=\"RectTiny\" x=\"1\" y=\"1\">\n<Pig type=\"BasicSmall\" x=\"2\" y=\"1\"/>\n", 2, nil},
		{"ignored after GameObjects", `<Level><GameObjects><Block type="a" x="1" y="1"/></GameObjects><Block type="b" x="1" y="1"/></Level>`, 1, nil},
		{"unknown elements skipped", `<Level><GameObjects><Bird type="x"/><Block type="a" x="1" y="1"/><Foo/></GameObjects></Level>`, 1, nil},
		{"entities", `<Level><GameObjects><Block type="a&amp;b" material="&#119;ood" x="1" y="1"/></GameObjects></Level>`, 1, nil},
		{"no level", `<NotALevel/>`, 0, ErrNotLevel},
		{"empty", ``, 0, ErrNotLevel},
		{"garbage", "\x00\xff<<<>>>", 0, ErrNotLevel},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lv, err := ParseLevel([]byte(c.text))
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(lv.Objects) != c.objects {
				t.Fatalf("%d objects: %+v", len(lv.Objects), lv.Objects)
			}
		})
	}
	lv, _ := ParseLevel([]byte(cases[4].text))
	if lv.Objects[0].Type != "a&b" || lv.Objects[0].Material != "wood" {
		t.Errorf("%+v", lv.Objects[0])
	}
	if !strings.Contains(lv.XML(), `type="a&amp;b"`) {
		t.Error(lv.XML())
	}
	for _, bad := range []string{
		`<Level><GameObjects><Block type="a" y="1"/></GameObjects></Level>`,
		`<Level><GameObjects><Block type="a" x="NaN" y="1"/></GameObjects></Level>`,
		`<Level><GameObjects><Block type="a" x="1e300" y="1"/></GameObjects></Level>`,
		`<Level width="-2"></Level>`,
	} {
		if _, err := ParseLevel([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func TestParseUTF16Level(t *testing.T) {
	text := `<Level width="3"><GameObjects><Block type="RectSmall" x="2.36" y="-3.38"/></GameObjects></Level>`
	data := []byte{0xFF, 0xFE}
	for _, r := range text {
		data = append(data, byte(r), 0)
	}
	lv, err := ParseLevel(data)
	if err != nil || len(lv.Objects) != 1 || lv.Objects[0].X != 2.36 {
		t.Fatalf("%+v %v", lv, err)
	}
}

func TestEvaluatorSamples(t *testing.T) {
	dir := testshared.Dir(t, "science-birds", "evaluator-samples")
	for _, name := range []string{"result_22", "result_23"} {
		_, res := simulateFile(t, filepath.Join(dir, name+".xml"))
		iou := IoU(Render(res), loadMask(t, filepath.Join(dir, name+".png")))
		t.Logf("%s: stability %.3f, IoU with the evaluator snapshot %.4f", name, res.Score, iou)
		if res.Score != 1 || iou < 0.98 {
			t.Errorf("%s: stability %v IoU %v", name, res.Score, iou)
		}
	}
}

package levelio

import (
	"bytes"
	"encoding/json"
	"image"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/assets"
	"pcgwb/problems"
	_ "pcgwb/problems/all"
)

// tileProblems are the registered problems (available here) whose levels are tile grids.
func tileProblems(t *testing.T) map[string]problems.Problem {
	t.Helper()
	out := map[string]problems.Problem{}
	for _, name := range problems.List() {
		p, err := problems.Make(name)
		if err != nil {
			continue // needs data this machine has not got
		}
		if _, _, err := LegendOf(name, p); err == nil {
			out[name] = p
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d tile problems", len(out))
	}
	return out
}

func sample(p problems.Problem, n int) []problems.Item {
	r := problems.NewRand(3)
	var items []problems.Item
	for i := 0; i < n; i++ {
		c, _ := p.ContentSpace().Normalize(p.ContentSpace().Sample(r), "content")
		items = append(items, problems.Item{Content: c})
	}
	return items
}

func same(t *testing.T, what string, a, b problems.Content) {
	t.Helper()
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	if !bytes.Equal(x, y) {
		t.Fatalf("%s changed the level:\n%s\n%s", what, x, y)
	}
}

// TestTextRoundTrip writes three levels of every tile problem as text and reads them back.
func TestTextRoundTrip(t *testing.T) {
	for name, p := range tileProblems(t) {
		t.Run(name, func(t *testing.T) {
			items := sample(p, 3)
			text, err := EncodeText(name, p, items)
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeText(name, p, text)
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			if len(back) != 3 {
				t.Fatalf("%d levels back", len(back))
			}
			for i := range items {
				same(t, "text", items[i].Content, back[i].Content)
			}
			// Windows line ends, a BOM and trailing blanks are accepted.
			crlf := append([]byte("\xef\xbb\xbf"), bytes.ReplaceAll(text, []byte("\n"), []byte("  \r\n"))...)
			if back, err := DecodeText(name, p, crlf); err != nil || len(back) != 3 {
				t.Fatalf("CRLF text: %d levels, %v", len(back), err)
			}
			var legend struct{ Tiles map[string][]string }
			data, err := LegendJSON(name, p)
			if err != nil || json.Unmarshal(data, &legend) != nil || len(legend.Tiles) == 0 {
				t.Fatalf("legend %s: %v", data, err)
			}
		})
	}
}

func TestDecodeTextRefuses(t *testing.T) {
	p, err := problems.Make("sokoban-v0")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"unknown tile", "#####\n#@$.#\n#-x-#\n#---#\n#####\n", "line 3, column 3"},
		{"short row", "#####\n#@$.#\n#--#\n#---#\n#####\n", "line 3: 4 tiles, want 5"},
		{"too few rows", "#####\n#@$.#\n#####\n", "3 rows, want 5"},
		{"two levels run together", strings.Repeat("#####\n", 6), "more than 5 rows"},
		{"empty", "\n\n", "no level"},
	} {
		if _, err := DecodeText("sokoban-v0", p, []byte(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestTMXRoundTrip writes a level of every tile problem drawn as a tile map as a Tiled map
// and reads it back.
func TestTMXRoundTrip(t *testing.T) {
	drawn := 0
	for name, p := range tileProblems(t) {
		if _, err := Tileset(name, p); err != nil {
			continue
		}
		drawn++
		item := sample(p, 1)[0]
		item.ID = "x7"
		data, err := EncodeTMX(name, p, item, "tiles.png")
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeTMX(name, p, data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		same(t, name+" tmx", item.Content, back.Content)
		if back.ID != "x7" {
			t.Fatalf("%s: id %q", name, back.ID)
		}
	}
	if drawn < 8 {
		t.Fatalf("only %d tile problems have a tileset", drawn)
	}
}

// TestTMXInTiled exports golden-sized levels and has Tiled's own renderer (tmxrasterizer, from
// the tiled package) draw each map: a map Tiled cannot read fails, and the picture it draws must
// be the workbench's own rendering of the level, pixel for pixel. Then the map re-imports to the
// same level through LoadLevels.
func TestTMXInTiled(t *testing.T) {
	raster, err := exec.LookPath("tmxrasterizer")
	if err != nil {
		// make deps installs it (APT_PKGS); CI must not pass by skipping the check.
		if os.Getenv("CI") == "true" {
			t.Fatal("tmxrasterizer (Debian package tiled) is not installed: run make deps")
		}
		t.Skip("tmxrasterizer (apt-get install tiled) is not installed")
	}
	for _, name := range []string{"zelda-v0", "sokoban-v0", "ddave-v0", "mdungeons-v0", "binary-v0", "loderunnertile-v0"} {
		t.Run(name, func(t *testing.T) {
			p, err := problems.Make(name)
			if err != nil {
				t.Skip(err) // needs data this machine has not got
			}
			items := sample(p, 2)
			dir := t.TempDir()
			files, err := Export(dir, "lv", name, p, items)
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != 5 {
				t.Fatalf("exported %v", files)
			}
			for i, it := range items {
				tmx := filepath.Join(dir, "lv-"+string(rune('1'+i))+".tmx")
				out := filepath.Join(dir, "tiled.png")
				cmd := exec.Command(raster, "--no-smoothing", tmx, out)
				cmd.Env = append(os.Environ(), "QT_QPA_PLATFORM=offscreen", "XDG_RUNTIME_DIR="+t.TempDir())
				if msg, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("tmxrasterizer: %v\n%s", err, msg)
				}
				got := decodePNG(t, out)
				want, err := p.Render(it.Content)
				if err != nil {
					t.Fatal(err)
				}
				g, _ := GridOf(p)
				ts := assets.TileSize
				if got.Bounds().Dx() != g.Cols*ts || got.Bounds().Dy() != g.Rows*ts {
					t.Fatalf("Tiled drew %v", got.Bounds())
				}
				rgba := image.NewRGBA(image.Rect(0, 0, got.Bounds().Dx(), got.Bounds().Dy()))
				draw.Draw(rgba, rgba.Rect, got, got.Bounds().Min, draw.Src)
				if d, limit := differ(rgba, want), g.Cols*g.Rows*ts*ts/50; d > limit {
					t.Fatalf("level %d: %d pixels differ from the workbench's drawing (at most %d)", i+1, d, limit)
				}
				back, err := LoadLevels(name, p, tmx)
				if err != nil || len(back) != 1 {
					t.Fatalf("re-import: %v", err)
				}
				same(t, "re-import", it.Content, back[0].Content)
			}
			back, err := LoadLevels(name, p, filepath.Join(dir, "lv.txt"))
			if err != nil || len(back) != 2 {
				t.Fatalf("text re-import: %d, %v", len(back), err)
			}
		})
	}
}

func mustRead(t *testing.T, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(mustRead(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestDecodeTMXRefuses(t *testing.T) {
	p, err := problems.Make("binary-v0")
	if err != nil {
		t.Fatal(err)
	}
	good, err := EncodeTMX("binary-v0", p, sample(p, 1)[0], "t.png")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, data, want string }{
		{"not XML", "<map", "not a Tiled map"},
		{"base64", strings.Replace(string(good), `encoding="csv"`, `encoding="base64"`, 1), "CSV"},
		{"wrong size", strings.Replace(string(good), ` width="14"`, ` width="13"`, 1), "13×14 tiles"},
		{"empty tile", firstTile(string(good), "0"), "not a tile"},
		{"flipped tile", firstTile(string(good), "2147483649"), "not a tile"},
	} {
		if _, err := DecodeTMX("binary-v0", p, []byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func FuzzDecodeText(f *testing.F) {
	f.Add([]byte("#####\n#@$.#\n#---#\n#---#\n#####\n"))
	f.Add([]byte("#####\n#@$.#\n#---#\n#---#\n#####\n\n#####\n#@---\n#-$.#\n#---#\n#####\n"))
	p, err := problems.Make("sokoban-v0")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := DecodeText("sokoban-v0", p, data)
		if err != nil {
			return
		}
		text, err := EncodeText("sokoban-v0", p, items)
		if err != nil {
			t.Fatal(err)
		}
		again, err := DecodeText("sokoban-v0", p, text)
		if err != nil || len(again) != len(items) {
			t.Fatalf("accepted text does not round trip: %v", err)
		}
	})
}

func FuzzDecodeTMX(f *testing.F) {
	p, err := problems.Make("binary-v0")
	if err != nil {
		f.Fatal(err)
	}
	good, err := EncodeTMX("binary-v0", p, sample(p, 1)[0], "t.png")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`<map width="1" height="1"><tileset firstgid="1"/><layer><data encoding="csv">1</data></layer></map>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		item, err := DecodeTMX("binary-v0", p, data)
		if err != nil {
			return
		}
		again, err := EncodeTMX("binary-v0", p, item, "t.png")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeTMX("binary-v0", p, again); err != nil {
			t.Fatalf("accepted map does not round trip: %v", err)
		}
	})
}

// firstTile replaces the first tile of a map's CSV data.
func firstTile(tmx, gid string) string {
	i := strings.Index(tmx, `encoding="csv">`) + len(`encoding="csv">`) + 1
	j := i + strings.IndexByte(tmx[i:], ',')
	return tmx[:i] + gid + tmx[j:]
}

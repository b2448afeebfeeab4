package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/levelio"
)

// TestEvalReadsTextAndTiledLevels: hand-made levels in VGLC-style text or a Tiled map are
// evaluated exactly as the same levels in an item file.
func TestEvalReadsTextAndTiledLevels(t *testing.T) {
	const name = "sokoban-v0"
	p, err := problems.Make(name)
	if err != nil {
		t.Fatal(err)
	}
	items, err := problems.SampleN(t.Context(), p, 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "levels.json")
	if err := os.WriteFile(jsonPath, mustEncodeItems(t, items), 0o644); err != nil {
		t.Fatal(err)
	}
	txt, err := levelio.EncodeText(name, p, items)
	if err != nil {
		t.Fatal(err)
	}
	txtPath := filepath.Join(dir, "levels.txt")
	os.WriteFile(txtPath, txt, 0o644)
	tmx, err := levelio.EncodeTMX(name, p, items[0], "tiles.png")
	if err != nil {
		t.Fatal(err)
	}
	tmxPath := filepath.Join(dir, "level.tmx")
	os.WriteFile(tmxPath, tmx, 0o644)

	eval := func(path string) string {
		var out, errb bytes.Buffer
		if code := run([]string{"eval", name, path}, &out, &errb); code != 0 {
			t.Fatalf("eval %s: exit %d: %s", filepath.Base(path), code, errb.String())
		}
		return withoutIDs(t, out.Bytes())
	}
	if fromJSON, fromText := eval(jsonPath), eval(txtPath); fromJSON != fromText {
		t.Errorf("text levels evaluate differently:\n%s\nvs\n%s", fromText, fromJSON)
	}
	one := filepath.Join(dir, "one.json")
	os.WriteFile(one, mustEncodeItems(t, items[:1]), 0o644)
	if fromJSON, fromTMX := eval(one), eval(tmxPath); fromJSON != fromTMX {
		t.Errorf("Tiled level evaluates differently:\n%s\nvs\n%s", fromTMX, fromJSON)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("not a level\n"), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"eval", name, bad}, &out, &errb); code != 2 {
		t.Errorf("bad text level: exit %d, want 2 (%s)", code, errb.String())
	}
}

// mustEncodeItems writes items as an item file, without their controls and ids (a text or
// Tiled level carries neither).
func mustEncodeItems(t *testing.T, items []problems.Item) []byte {
	t.Helper()
	bare := make([]problems.Item, len(items))
	for i, it := range items {
		bare[i] = problems.Item{Content: it.Content}
	}
	b, err := json.Marshal(problems.ItemFile{Items: bare})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withoutIDs is an eval result with its items' ids removed (the text importer names its levels).
func withoutIDs(t *testing.T, b []byte) string {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	items, _ := v["items"].([]any)
	for _, it := range items {
		delete(it.(map[string]any), "id")
	}
	out, _ := json.MarshalIndent(v, "", "  ")
	return string(out)
}

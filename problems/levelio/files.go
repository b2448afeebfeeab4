package levelio

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
	"pcgwb/problems"
)

// MaxLevelFileBytes bounds a level file read by LoadLevels.
const MaxLevelFileBytes = 64 << 20

// LoadLevels reads the levels of a file for the problem registered as name: plain text (.txt,
// DecodeText), a Tiled map (.tmx, DecodeTMX) or an item file (anything else,
// problems.DecodeItems). It is what `workbench eval PROBLEM levels.txt` and the Editor's Open
// call.
func LoadLevels(name string, p problems.Problem, path string) ([]problems.Item, error) {
	data, err := safeio.ReadFile(path, MaxLevelFileBytes)
	if err != nil {
		return nil, err
	}
	return DecodeLevels(name, p, filepath.Ext(path), data)
}

// DecodeLevels is LoadLevels on data read from a file with extension ext.
func DecodeLevels(name string, p problems.Problem, ext string, data []byte) ([]problems.Item, error) {
	switch strings.ToLower(ext) {
	case ".txt":
		return DecodeText(name, p, data)
	case ".tmx":
		it, err := DecodeTMX(name, p, data)
		if err != nil {
			return nil, err
		}
		return []problems.Item{it}, nil
	}
	return problems.DecodeItems(p, data)
}

// Export writes levels into the folder dir, named base: base.txt with its legend
// base.legend.json, and for problems drawn as tile maps base-N.tmx (one map per level, N from 1)
// over the tileset base-tiles.png. It returns the files written. Exporting a level, a gallery
// selection or a run's final population are all this call.
func Export(dir, base, name string, p problems.Problem, items []problems.Item) ([]string, error) {
	if len(items) == 0 {
		return nil, fmt.Errorf("no level to export")
	}
	if base == "" || base != filepath.Base(base) || strings.HasPrefix(base, ".") {
		return nil, fmt.Errorf("the base name %s is not a plain file name", safeio.ExcerptString(base))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	put := func(file string, data []byte) error {
		path := filepath.Join(dir, file)
		files = append(files, path)
		return atomicfile.Write(path, data, 0o644)
	}
	text, err := EncodeText(name, p, items)
	if err != nil {
		return nil, err
	}
	legend, err := LegendJSON(name, p)
	if err != nil {
		return nil, err
	}
	if err := put(base+".txt", text); err != nil {
		return files, err
	}
	if err := put(base+".legend.json", append(legend, '\n')); err != nil {
		return files, err
	}
	tiles, err := TilesetPNG(name, p)
	if err != nil {
		return files, nil // text only: the problem is not drawn as a tile map
	}
	if err := put(base+"-tiles.png", tiles); err != nil {
		return files, err
	}
	for i, it := range items {
		data, err := EncodeTMX(name, p, it, base+"-tiles.png")
		if err != nil {
			return files, fmt.Errorf("level %d: %w", i+1, err)
		}
		if err := put(fmt.Sprintf("%s-%d.tmx", base, i+1), data); err != nil {
			return files, err
		}
	}
	return files, nil
}

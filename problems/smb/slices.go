package smb

import (
	"fmt"
	"strings"

	"pcgwb/problems/data"
)

var slices = data.NewLazy(loadSlices)

// Slices returns the slice library (smb/slices.txt): each entry is one level column, top to
// bottom, 16 tiles. Slice 0 is the plain ground used for the padding.
func Slices() ([]string, error) { return slices.Get() }

func loadSlices() ([]string, error) {
	b, err := data.ReadFile(data.SMBSlices.Files[0].Path)
	if err != nil {
		return nil, err
	}
	lib, err := parseSlices(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", data.SMBSlices.Files[0].Path, err)
	}
	return lib, nil
}

// parseSlices reads the library the reference's way: every line stripped, blank lines
// dropped.
func parseSlices(b []byte) ([]string, error) {
	var lib []string
	for i, l := range data.Lines(b) {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if len(l) != Rows {
			return nil, fmt.Errorf("line %d: %d tiles, want %d", i+1, len(l), Rows)
		}
		lib = append(lib, l)
	}
	if len(lib) == 0 {
		return nil, fmt.Errorf("no slices")
	}
	return lib, nil
}

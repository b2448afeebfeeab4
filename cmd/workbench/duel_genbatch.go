package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"pcgwb/games/duel/llmplay"
	"pcgwb/internal/atomicfile"
	"pcgwb/internal/folderlock"
	"pcgwb/internal/safeio"
)

// genBatch is the folder of `duel generate`: locked for the run, with the earlier batches'
// records (generated.json) kept and their game numbers never reused.
type genBatch struct {
	dir  string
	lock *folderlock.Lock
	prev []json.RawMessage
	used map[int]bool // gen-NNN numbers with files in the folder
	next int          // the first number after every used one
}

var genName = regexp.MustCompile(`^gen-(\d{3,})\.`)

func openGenBatch(dir string) (*genBatch, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	lock, err := folderlock.Acquire(dir)
	if err != nil {
		if errors.Is(err, folderlock.ErrHeld) {
			return nil, fmt.Errorf("--out %s: %w (another `duel generate` writes there)", dir, err)
		}
		return nil, fmt.Errorf("--out %s: %w", dir, err)
	}
	b := &genBatch{dir: dir, lock: lock, used: map[int]bool{}, next: 1}
	entries, err := os.ReadDir(dir)
	if err != nil {
		lock.Release()
		return nil, err
	}
	for _, e := range entries {
		if m := genName.FindStringSubmatch(e.Name()); m != nil {
			if k, err := strconv.Atoi(m[1]); err == nil {
				b.used[k] = true
				b.next = max(b.next, k+1)
			}
		}
	}
	raw, err := safeio.ReadFile(filepath.Join(dir, "generated.json"), 256<<20)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		lock.Release()
		return nil, err
	default:
		if err := json.Unmarshal(safeio.StripBOM(raw), &b.prev); err != nil {
			lock.Release()
			return nil, fmt.Errorf("%s: %w (move it away to start afresh)", filepath.Join(dir, "generated.json"), err)
		}
		var names []struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(raw, &names)
		for _, n := range names {
			if m := genName.FindStringSubmatch(n.Name + "."); m != nil {
				if k, err := strconv.Atoi(m[1]); err == nil {
					b.used[k] = true
					b.next = max(b.next, k+1)
				}
			}
		}
	}
	return b, nil
}

func (b *genBatch) release() { _ = b.lock.Release() }

// clash names the first game of gen-first … gen-(first+n-1) an earlier batch holds, or "".
func (b *genBatch) clash(first, n int) string {
	for k := first; k < first+n; k++ {
		if b.used[k] {
			return fmt.Sprintf("gen-%03d", k)
		}
	}
	return ""
}

// write rewrites generated.json: the earlier batches' records, then this batch's.
func (b *genBatch) write(all []*llmplay.Generated) error {
	out := append([]json.RawMessage(nil), b.prev...)
	for _, g := range all {
		raw, err := json.Marshal(g)
		if err != nil {
			return err
		}
		out = append(out, raw)
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(b.dir, "generated.json"), append(data, '\n'), 0o644)
}

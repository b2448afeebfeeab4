package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"pcgwb/games/duel/llmplay"
	"pcgwb/internal/atomicfile"
	"pcgwb/internal/folderlock"
	"pcgwb/internal/safeio"
	"pcgwb/llm"
)

// evalOut is the folder of `duel eval --out DIR`: checked or made, and locked, before the first
// request; the result (games and costs) is written atomically after every game, and a rerun
// continues from it.
type evalOut struct {
	dir  string
	lock *folderlock.Lock
	path string
	prev *llmplay.EvalResult
}

// openEvalOut makes and locks dir ("" gives nil: nothing is written).
func openEvalOut(dir string) (*evalOut, error) {
	if dir == "" {
		return nil, nil
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, usagef("--out %s is a file, not a folder", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	lock, err := folderlock.Acquire(dir)
	if err != nil {
		if errors.Is(err, folderlock.ErrHeld) {
			return nil, fmt.Errorf("--out %s: %w (another `duel eval` writes there; wait for it or use another folder)", dir, err)
		}
		return nil, fmt.Errorf("--out %s: %w", dir, err)
	}
	return &evalOut{dir: dir, lock: lock}, nil
}

func (o *evalOut) release() {
	if o != nil {
		_ = o.lock.Release()
	}
}

// load reads the earlier result of this game and model, if there is one.
func (o *evalOut) load(game, model string) error {
	o.path = filepath.Join(o.dir, evalFileName(&llmplay.EvalResult{Game: game, Model: model}))
	b, err := safeio.ReadFile(o.path, 64<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	prev, err := parseEvalResult(b)
	if err != nil {
		return fmt.Errorf("%s: %w (move it away to start afresh)", o.path, err)
	}
	o.prev = prev
	return nil
}

// save writes res atomically.
func (o *evalOut) save(res *llmplay.EvalResult) error {
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(o.path, append(b, '\n'), 0o644)
}

// costsOf are the client's requests so far as an evaluation's costs.
func costsOf(c *llm.Client) llmplay.EvalCosts {
	t := c.Totals()
	return llmplay.EvalCosts{Requests: t.Requests, CacheHits: t.CacheHits, TokensIn: t.Usage.PromptTokens,
		TokensOut: t.Usage.CompletionTokens, Price: t.Cost}
}

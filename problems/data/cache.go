package data

import (
	"fmt"
	"sync"
)

// Lazy loads a value once per process. Unlike sync.Once it keeps trying after a failure, so a
// dataset imported while the program runs becomes usable without a restart; a success is final.
type Lazy[T any] struct {
	mu   sync.Mutex
	done bool
	val  T
	load func() (T, error)
}

// NewLazy wraps a loader.
func NewLazy[T any](load func() (T, error)) *Lazy[T] { return &Lazy[T]{load: load} }

// Get returns the loaded value, loading it on first use.
func (l *Lazy[T]) Get() (T, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return l.val, nil
	}
	v, err := l.load()
	if err != nil {
		var zero T
		return zero, err
	}
	l.val, l.done = v, true
	return v, nil
}

// Pattern is a Lode Runner 2×2 tile pattern, row-major: top-left, top-right, bottom-left,
// bottom-right.
type Pattern [4]int

var patterns = NewLazy(func() ([]Pattern, error) {
	b, err := ReadFile(LodeRunnerPatterns.Files[0].Path)
	if err != nil {
		return nil, err
	}
	rows, err := DigitRows(b, PatternCount, 4, maxLodeRunnerID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", LodeRunnerPatterns.Files[0].Path, err)
	}
	out := make([]Pattern, len(rows))
	for i, r := range rows {
		copy(out[i][:], r)
	}
	return out, nil
})

// Patterns returns the 52 Lode Runner patterns (loderunner/patterns.txt), in file order.
func Patterns() ([]Pattern, error) { return patterns.Get() }

var levels = NewLazy(func() ([][][]int, error) {
	out := make([][][]int, LevelCount)
	for i := range out {
		b, err := ReadFile(LevelPath(i))
		if err != nil {
			return nil, err
		}
		if out[i], err = DigitRows(b, LevelRows, LevelCols, maxLodeRunnerID); err != nil {
			return nil, fmt.Errorf("%s: %w", LevelPath(i), err)
		}
	}
	return out, nil
})

// Levels returns the five shipped Lode Runner levels (loderunner/data/level_0..4.txt), each 22
// rows of 32 tiles.
func Levels() ([][][]int, error) { return levels.Get() }

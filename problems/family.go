package problems

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Family is a problem family: the registered name up to its first dash ("zelda" for zelda-v0
// and zelda-large-v0, "loderunnertile" for loderunnertile-v0). Everything the workbench keeps
// per family (prompt templates, play views, tile legends, constructive builders) is keyed by
// it, and FamilyOf is the one rule that derives it.
type Family string

// FamilyOf is the family of the problem registered as name: name up to its first dash, or the
// whole name when it has none.
func FamilyOf(name string) Family {
	f, _, _ := strings.Cut(name, "-")
	return Family(f)
}

// Families lists the families of the registered problems, sorted, each once.
func Families() []Family {
	seen := map[Family]bool{}
	var out []Family
	for _, n := range List() {
		if f := FamilyOf(n); !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// FamilyTable is per-family data of one kind (a play view, a legend, a builder), filled by
// Register calls from the init functions of the packages that own the data, so the set of
// families it covers is open: adding a problem family never edits a switch. A table is safe
// for concurrent use.
type FamilyTable[T any] struct {
	what string
	mu   sync.RWMutex
	m    map[Family]T
}

// NewFamilyTable makes an empty table; what names its data in panics ("play view").
func NewFamilyTable[T any](what string) *FamilyTable[T] {
	return &FamilyTable[T]{what: what, m: map[Family]T{}}
}

// Register adds the data of family f. An empty family or a second registration of one panics
// (a programming error, seen at start-up).
func (t *FamilyTable[T]) Register(f Family, v T) {
	if f == "" || strings.Contains(string(f), "-") {
		panic(fmt.Sprintf("problems: %s registered for %q, which is not a family name", t.what, f))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, dup := t.m[f]; dup {
		panic(fmt.Sprintf("problems: %s of family %q registered twice", t.what, f))
	}
	t.m[f] = v
}

// Get returns the data of family f.
func (t *FamilyTable[T]) Get(f Family) (T, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	v, ok := t.m[f]
	return v, ok
}

// Of returns the data of the family of the problem registered as name.
func (t *FamilyTable[T]) Of(name string) (T, bool) { return t.Get(FamilyOf(name)) }

// Families lists the families with data, sorted.
func (t *FamilyTable[T]) Families() []Family {
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := make([]Family, 0, len(t.m))
	for f := range t.m {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

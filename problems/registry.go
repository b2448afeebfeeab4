package problems

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"pcgwb/problems/shape"
)

// Params are a variant's constructor arguments, as in the reference's registry.
type Params map[string]any

// Int reads an integer parameter, with a default.
func (p Params) Int(key string, def int) int {
	switch v := p[key].(type) {
	case int:
		return v
	case float64:
		return int(v)
	}
	return def
}

// Float reads a float parameter, with a default.
func (p Params) Float(key string, def float64) float64 {
	switch v := p[key].(type) {
	case int:
		return float64(v)
	case float64:
		return v
	}
	return def
}

// Constructor builds a problem from its parameters.
type Constructor func(Params) (Problem, error)

// Entry is one registered name.
type Entry struct {
	Name   string
	Params Params
	New    Constructor
	// Available reports why the problem cannot be made on this machine (missing data), or nil.
	Available func() error
}

var (
	regMu    sync.RWMutex
	registry = map[string]Entry{}
)

// Register adds a name; it is an error if the name exists.
func Register(name string, params Params, ctor Constructor) error {
	return RegisterEntry(Entry{Name: name, Params: params, New: ctor})
}

// RegisterEntry adds a fully described entry.
func RegisterEntry(e Entry) error {
	regMu.Lock()
	defer regMu.Unlock()
	if _, ok := registry[e.Name]; ok {
		return fmt.Errorf("problem %q is already registered", e.Name)
	}
	registry[e.Name] = e
	return nil
}

// MustRegister is Register for package init functions.
func MustRegister(name string, params Params, ctor Constructor) {
	if err := Register(name, params, ctor); err != nil {
		panic(err)
	}
}

// List returns every registered name, sorted.
func List() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns a registered entry.
func Lookup(name string) (Entry, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	e, ok := registry[name]
	return e, ok
}

// Make constructs a registered problem. An unknown name is an error that suggests the closest
// registered name (by difflib ratio, as the reference does).
func Make(name string) (Problem, error) {
	e, ok := Lookup(name)
	if !ok {
		return nil, unknownName(name)
	}
	if e.Available != nil {
		if err := e.Available(); err != nil {
			return nil, fmt.Errorf("%s is not available: %w", name, err)
		}
	}
	params := Params{}
	for k, v := range e.Params {
		params[k] = v
	}
	return e.New(params)
}

func unknownName(name string) error {
	best, bestR := "", -1.0
	for _, n := range List() {
		if r := shape.Ratio(strings.ToLower(name), n); r > bestR {
			best, bestR = n, r
		}
	}
	if best == "" {
		return fmt.Errorf("unknown problem %q (no problems are registered)", name)
	}
	return fmt.Errorf("unknown problem %q; did you mean %q? (`workbench problems` lists them all)", name, best)
}

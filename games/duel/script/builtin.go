package script

import (
	"fmt"
	"os"
	"path/filepath"
	"pcgwb/internal/safeio"
	"strings"
	"sync"

	"pcgwb/assets"
)

// Builtins lists the built-in games (assets/games/*.star), sorted.
func Builtins() []string { return assets.GameNames() }

var builtinCache sync.Map // name → *Program compiled with DefaultLimits

// BuiltinProgram compiles a built-in game (once per process for the default limits).
func BuiltinProgram(name string, lim Limits) (*Program, error) {
	def := lim.WithDefaults() == DefaultLimits.WithDefaults()
	if def {
		if p, ok := builtinCache.Load(name); ok {
			return p.(*Program), nil
		}
	}
	src, err := assets.GameSource(name)
	if err != nil {
		return nil, fmt.Errorf("no built-in game %q (have %s)", name, strings.Join(Builtins(), ", "))
	}
	p, err := Compile(name, src, lim)
	if err != nil {
		return nil, fmt.Errorf("built-in game %s: %w", name, err)
	}
	if def {
		builtinCache.Store(name, p)
	}
	return p, nil
}

// LoadBuiltin makes an instance of a built-in game.
func LoadBuiltin(name string, lim Limits) (*ScriptGame, error) {
	p, err := BuiltinProgram(name, lim)
	if err != nil {
		return nil, err
	}
	return p.New()
}

// Open compiles a game named either by a built-in name or by the path of a script file (a
// .star name, a path with a directory, or any existing file).
func Open(nameOrPath string, lim Limits) (*Program, error) {
	fi, statErr := os.Stat(nameOrPath)
	isFile := statErr == nil && !fi.IsDir()
	if isFile || strings.HasSuffix(nameOrPath, ".star") || strings.ContainsRune(nameOrPath, filepath.Separator) {
		// a script larger than the limit is still read (up to 64 MiB) so Compile names the limit
		src, err := safeio.ReadFile(nameOrPath, 64<<20)
		if err != nil {
			return nil, err
		}
		return Compile(strings.TrimSuffix(filepath.Base(nameOrPath), ".star"), src, lim)
	}
	return BuiltinProgram(nameOrPath, lim)
}

package data

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"pcgwb/internal/safeio"
)

// EnvVar names a pcg_benchmark data directory (a folder laid out like pcg_benchmark/probs).
const EnvVar = "PCG_BENCHMARK_DATA"

// Root is one candidate data directory.
type Root struct {
	Dir string
	// Source says where the directory came from: EnvVar, "python package" or "imported copy".
	Source string
}

// Source names of Root.
const (
	SourceEnv      = EnvVar
	SourcePython   = "python package"
	SourceImported = "imported copy"
)

// Roots lists the candidate data directories in priority order. When $PCG_BENCHMARK_DATA is
// set it is the only candidate, even if it does not exist: an explicit choice must not be
// silently replaced by another copy.
func Roots() []Root {
	if dir := os.Getenv(EnvVar); dir != "" {
		return []Root{{Dir: dir, Source: SourceEnv}}
	}
	var roots []Root
	for _, d := range PythonPackageDirs() {
		roots = append(roots, Root{Dir: d, Source: SourcePython})
	}
	if d, err := UserDir(); err == nil && isDir(d) {
		roots = append(roots, Root{Dir: d, Source: SourceImported})
	}
	return roots
}

// UserDir is where `workbench data import` puts its copy.
func UserDir() (string, error) {
	cfg, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cfg, "pcg-workbench", "data"), nil
}

// Find returns the path of a data file (slash-separated, relative to the data root, e.g.
// "elimination/dictionary.txt") in the first root that has it, or a *MissingError.
func Find(rel string) (string, error) { return findIn(Roots(), rel) }

func findIn(roots []Root, rel string) (string, error) {
	for _, r := range roots {
		p := filepath.Join(r.Dir, filepath.FromSlash(rel))
		if isFile(p) {
			return p, nil
		}
	}
	return "", missing(rel)
}

// ReadFile reads a data file found by Find.
func ReadFile(rel string) ([]byte, error) {
	p, err := Find(rel)
	if err != nil {
		return nil, err
	}
	return safeio.Read(p, safeio.Options{Limit: maxDataFileBytes})
}

// MissingError is the one-line explanation of a problem that cannot run: which files are
// missing and how to provide them.
type MissingError struct {
	Files []string
	// EnvDir is $PCG_BENCHMARK_DATA when it was set (and therefore the only place looked at).
	EnvDir string
}

func missing(files ...string) *MissingError {
	return &MissingError{Files: files, EnvDir: os.Getenv(EnvVar)}
}

func (e *MissingError) Error() string {
	files := e.Summary()
	if e.EnvDir != "" {
		return "needs the pcg_benchmark data (" + files + "), not found in " + EnvVar + "=" + e.EnvDir +
			": point it at a pcg_benchmark/probs folder, or unset it and run `workbench data download` or `workbench data import PATH`"
	}
	return "needs the pcg_benchmark data (" + files + "): run `workbench data download` (or Get the data… in the window), set " + EnvVar + ", or run `workbench data import PATH`"
}

// Summary lists the missing files, numbered series shortened ("loderunner/data/level_0..4.txt").
func (e *MissingError) Summary() string {
	var parts []string
	for i := 0; i < len(e.Files); {
		pre, n, suf, ok := numbered(e.Files[i])
		j := i + 1
		for ok && j < len(e.Files) {
			p2, n2, s2, ok2 := numbered(e.Files[j])
			if !ok2 || p2 != pre || s2 != suf || n2 != n+(j-i) {
				break
			}
			j++
		}
		if j-i > 1 {
			parts = append(parts, fmt.Sprintf("%s%d..%d%s", pre, n, n+(j-i-1), suf))
		} else {
			parts = append(parts, e.Files[i])
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

var numberedName = regexp.MustCompile(`^(.*\D)(\d+)(\.[a-z]+)$`)

// numbered splits "dir/level_3.txt" into "dir/level_", 3, ".txt".
func numbered(path string) (string, int, string, bool) {
	m := numberedName.FindStringSubmatch(path)
	if m == nil {
		return "", 0, "", false
	}
	n, err := strconv.Atoi(m[2])
	return m[1], n, m[3], err == nil
}

// Need returns a check for the registry (problems.Entry.Available): nil when every file of
// the datasets is present, else a *MissingError naming the missing ones.
func Need(sets ...*Dataset) func() error {
	return func() error {
		roots := Roots()
		var miss []string
		for _, s := range sets {
			for _, f := range s.Files {
				if _, err := findIn(roots, f.Path); err != nil && !contains(miss, f.Path) {
					miss = append(miss, f.Path)
				}
			}
		}
		if len(miss) > 0 {
			return missing(miss...)
		}
		return nil
	}
}

// PythonPackageDirs lists the `pcg_benchmark/probs` folders of installed pcg_benchmark
// packages, found by looking at the usual site-packages / dist-packages folders (virtual
// environment, conda, user site, pyenv, system, Homebrew, Windows) and at editable installs.
// It never runs Python.
func PythonPackageDirs() []string {
	var out []string
	add := func(probs string) {
		if isDir(probs) && !contains(out, probs) {
			out = append(out, probs)
		}
	}
	for _, sp := range sitePackages() {
		add(filepath.Join(sp, "pcg_benchmark", "probs"))
		for _, src := range editableSources(sp) {
			add(filepath.Join(src, "probs"))
			add(filepath.Join(src, "pcg_benchmark", "probs"))
		}
	}
	return out
}

func sitePackages() []string {
	home, _ := os.UserHomeDir()
	var patterns []string
	prefix := func(p string) {
		if p == "" {
			return
		}
		patterns = append(patterns,
			filepath.Join(p, "lib", "python3*", "site-packages"),
			filepath.Join(p, "lib", "python3*", "dist-packages"),
			filepath.Join(p, "Lib", "site-packages"))
	}
	prefix(os.Getenv("VIRTUAL_ENV"))
	prefix(os.Getenv("CONDA_PREFIX"))
	if home != "" {
		patterns = append(patterns,
			filepath.Join(home, ".local", "lib", "python3*", "site-packages"),
			filepath.Join(home, ".pyenv", "versions", "*", "lib", "python3*", "site-packages"),
			filepath.Join(home, "Library", "Python", "3*", "lib", "python", "site-packages"))
		prefix(filepath.Join(home, "miniconda3"))
		prefix(filepath.Join(home, "anaconda3"))
	}
	switch runtime.GOOS {
	case "windows":
		if a := os.Getenv("APPDATA"); a != "" {
			patterns = append(patterns, filepath.Join(a, "Python", "Python3*", "site-packages"))
		}
		if l := os.Getenv("LOCALAPPDATA"); l != "" {
			patterns = append(patterns, filepath.Join(l, "Programs", "Python", "Python3*", "Lib", "site-packages"))
		}
	default:
		for _, p := range []string{"/usr/local", "/usr", "/opt/homebrew", "/opt/local"} {
			prefix(p)
		}
		patterns = append(patterns,
			"/usr/lib64/python3*/site-packages",
			"/Library/Frameworks/Python.framework/Versions/*/lib/python3*/site-packages")
	}
	var out []string
	for _, pat := range patterns {
		matches, _ := filepath.Glob(pat)
		for _, m := range matches {
			if isDir(m) && !contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

var editableMapping = regexp.MustCompile(`['"]pcg_benchmark['"]\s*:\s*['"]([^'"]+)['"]`)

// editableSources reads the pointers pip leaves for `pip install -e`: *.egg-link and *.pth
// files holding the project folder, and the newer __editable__ finder modules holding a
// package → folder mapping.
func editableSources(sitePackages string) []string {
	var out []string
	for _, pat := range []string{"*pcg_benchmark*.egg-link", "*pcg_benchmark*.pth", "*pcg-benchmark*.egg-link"} {
		files, _ := filepath.Glob(filepath.Join(sitePackages, pat))
		for _, f := range files {
			b, err := safeio.ReadFile(f, 1<<20)
			if err != nil {
				continue
			}
			for _, line := range strings.Split(string(b), "\n") {
				line = strings.TrimSpace(line)
				if filepath.IsAbs(line) {
					out = append(out, line)
				}
			}
		}
	}
	finders, _ := filepath.Glob(filepath.Join(sitePackages, "__editable__*pcg_benchmark*finder.py"))
	for _, f := range finders {
		b, err := safeio.ReadFile(f, 1<<20)
		if err != nil {
			continue
		}
		for _, m := range editableMapping.FindAllStringSubmatch(string(b), -1) {
			// The mapping points at the package folder itself.
			out = append(out, filepath.Dir(m[1]))
		}
	}
	return out
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// IsMissing reports whether err (or an error it wraps) is a *MissingError, and returns it.
func IsMissing(err error) (*MissingError, bool) {
	var m *MissingError
	ok := errors.As(err, &m)
	return m, ok
}

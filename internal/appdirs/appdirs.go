// Package appdirs names the workbench's folders under one application name, for the CLI and
// the window alike: the cache (XDG_CACHE_HOME or the OS's), the configuration and data
// (XDG_CONFIG_HOME or the OS's) and the one default runs folder.
package appdirs

import (
	"os"
	"path/filepath"
)

// Name is the one application name of every folder (and of the keyring service).
const Name = "pcg-workbench"

// CacheDir is the workbench's cache folder: $XDG_CACHE_HOME/pcg-workbench (~/.cache on
// Linux, the OS's cache folder elsewhere), or .cache in the working folder when there is none.
func CacheDir() string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, Name)
	}
	return ".cache"
}

// LLMCacheDir is the shared cache of language-model replies. A cache left under the earlier
// name (pcgwb/llm) is moved here the first time, so nothing paid for is asked again.
func LLMCacheDir() string {
	dir := filepath.Join(CacheDir(), "llm")
	if base, err := os.UserCacheDir(); err == nil {
		old := filepath.Join(base, "pcgwb", "llm")
		if _, err := os.Lstat(dir); os.IsNotExist(err) {
			if fi, err := os.Lstat(old); err == nil && fi.IsDir() {
				if os.MkdirAll(filepath.Dir(dir), 0o755) == nil {
					os.Rename(old, dir)
				}
			}
		}
	}
	return dir
}

// ConfigDir is the workbench's configuration and data folder: $XDG_CONFIG_HOME/pcg-workbench
// (~/.config on Linux), where problems/data keeps the benchmark's data.
func ConfigDir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, Name), nil
}

// RunsDir is the one default folder for run folders, of the CLI (`run`, `llm generate`
// without --out) and the window: ~/pcg-workbench/runs, or runs in the working folder when
// there is no home folder.
func RunsDir() string {
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, Name, "runs")
	}
	return "runs"
}

package appdirs

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestFoldersShareOneName(t *testing.T) {
	if runtime.GOOS != "linux" {
		return // the XDG variables are Linux's
	}
	tmp := t.TempDir()
	t.Setenv("HOME", tmp)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(tmp, "cache"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(tmp, "config"))
	if got, want := CacheDir(), filepath.Join(tmp, "cache", Name); got != want {
		t.Errorf("CacheDir = %s, want %s", got, want)
	}
	if got, err := ConfigDir(); err != nil || got != filepath.Join(tmp, "config", Name) {
		t.Errorf("ConfigDir = %s, %v", got, err)
	}
	if got, want := RunsDir(), filepath.Join(tmp, Name, "runs"); got != want {
		t.Errorf("RunsDir = %s, want %s", got, want)
	}
	// a cache under the earlier name is moved, not lost
	old := filepath.Join(tmp, "cache", "pcgwb", "llm", "ab")
	os.MkdirAll(old, 0o755)
	os.WriteFile(filepath.Join(old, "x.json"), []byte("{}"), 0o644)
	dir := LLMCacheDir()
	if dir != filepath.Join(tmp, "cache", Name, "llm") {
		t.Errorf("LLMCacheDir = %s", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "ab", "x.json")); err != nil {
		t.Errorf("the old cache was not moved: %v", err)
	}
}

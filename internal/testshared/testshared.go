// Package testshared locates the shared reference data for tests: the folder ../shared next to
// the module root (the Science Birds archives, the gg-bench rulebooks, the pcg_benchmark data).
// The files there must not be copied into the project, so tests read them in place; when they
// are missing a test is skipped locally and fails in CI (CI=true).
package testshared

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// ModuleRoot is the folder holding go.mod, found upwards from the working directory (a test
// runs in its package folder).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("module root not found")
		}
		dir = parent
	}
}

// Root is the shared reference-data folder, ../shared next to the module root; it need not exist.
func Root() (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(root), "shared"), nil
}

// Dir is the path of parts below the shared folder, such as Dir(t, "gg-bench", "games"). It
// fails the test when the module root is not found; when the path does not exist it fails the
// test under CI=true and skips it otherwise.
func Dir(t testing.TB, parts ...string) string {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(append([]string{root}, parts...)...)
	if _, err := os.Stat(p); err != nil {
		if inCI() {
			t.Fatalf("reference data missing: %v", err)
		}
		t.Skipf("reference data not available: %v", err)
	}
	return p
}

// Missing reports missing reference data: it fails the test under CI=true and skips it otherwise.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if inCI() {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// inCI tells whether the tests run in CI (CI=true), where missing reference data is a failure.
func inCI() bool { return os.Getenv("CI") == "true" }

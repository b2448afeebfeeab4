package vit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"pcgwb/internal/testshared"
)

// testManifest serves the shared small model from a local HTTP server, every digest pinned.
func testManifest(t *testing.T) (Manifest, *atomic.Int64) {
	src := testshared.Dir(t, "science-birds", "vit", "model")
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		http.ServeFile(w, r, filepath.Join(src, filepath.Base(r.URL.Path)))
	}))
	t.Cleanup(srv.Close)
	m := Published
	m.Source = srv.URL + "/resolve/main"
	for _, f := range m.Files {
		data, err := os.ReadFile(filepath.Join(src, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if err := m.Pin(f.Name + "=" + hex.EncodeToString(sum[:])); err != nil {
			t.Fatal(err)
		}
	}
	return m, &requests
}

func TestDownloadChecksDigestsAndLimits(t *testing.T) {
	m, requests := testManifest(t)
	dir := filepath.Join(t.TempDir(), "vit")
	var seen []string
	if err := Download(context.Background(), m, dir, nil, func(name string, read, total int64) {
		if len(seen) == 0 || seen[len(seen)-1] != name {
			seen = append(seen, name)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(seen, ",") != "config.json,preprocessor_config.json,model.safetensors" {
		t.Errorf("progress for %v", seen)
	}
	if _, err := Open(dir); err != nil {
		t.Fatalf("the downloaded model does not load: %v", err)
	}
	// A second download keeps the verified files.
	before := requests.Load()
	if err := Download(context.Background(), m, dir, nil, nil); err != nil {
		t.Fatal(err)
	}
	if requests.Load() != before {
		t.Errorf("verified files were fetched again")
	}

	// A wrong digest writes nothing.
	bad := m
	if err := bad.Pin(WeightsFile + "=" + strings.Repeat("ab", 32)); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "vit")
	err := Download(context.Background(), bad, other, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Fatalf("wrong digest: %v", err)
	}
	if _, err := os.Stat(filepath.Join(other, WeightsFile)); !os.IsNotExist(err) {
		t.Errorf("a file with the wrong digest was kept: %v", err)
	}
	if m.Files[2].SHA256 == bad.Files[2].SHA256 {
		t.Error("Pin changed the manifest it was copied from")
	}

	// A file over its limit is refused.
	small := m
	small.Files = append([]ManifestFile(nil), m.Files...)
	small.Files[2].MaxBytes = 1000
	if err := Download(context.Background(), small, filepath.Join(t.TempDir(), "v"), nil, nil); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("over the limit: %v", err)
	}

	// Without a pinned digest nothing is fetched.
	n := requests.Load()
	if err := Download(context.Background(), Published, filepath.Join(t.TempDir(), "v"), nil, nil); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Fatalf("unpinned: %v", err)
	}
	if requests.Load() != n {
		t.Error("an unpinned manifest made requests")
	}

	// A missing file on the server is an error naming it.
	missing := m
	missing.Source = strings.TrimSuffix(m.Source, "/resolve/main") + "/nothing/here"
	missing.Files = []ManifestFile{{Name: "absent.bin", SHA256: strings.Repeat("00", 32), MaxBytes: 10}}
	if err := Download(context.Background(), missing, filepath.Join(t.TempDir(), "v"), nil, nil); err == nil || !strings.Contains(err.Error(), "absent.bin") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestDownloadFromFolder(t *testing.T) {
	m, _ := testManifest(t)
	m.Source = testshared.Dir(t, "science-birds", "vit", "model")
	dir := t.TempDir()
	if err := Download(context.Background(), m, dir, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err != nil {
		t.Fatal(err)
	}
	if err := m.Pin("config.json=xyz"); err == nil {
		t.Error("a malformed digest was accepted")
	}
	if err := m.Pin("other.bin=" + strings.Repeat("00", 32)); err == nil {
		t.Error("a digest for a file the model does not have was accepted")
	}
}

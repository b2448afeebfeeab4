package main

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/games/birds/classifier/vit"
	"pcgwb/internal/testshared"
)

// `birds classifier download` fetches a model from a (here local) server, each file checked
// against the digest given, shows the licence, and `--classifier vit:DIR` then scores with it
// and says so.
func TestBirdsClassifierDownloadAndUse(t *testing.T) {
	src := testshared.Dir(t, "science-birds", "vit", "model")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(src, filepath.Base(r.URL.Path)))
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "vit")
	args := []string{"birds", "classifier", "download", "--quiet", "--source", srv.URL, dir}
	// Without digests nothing is fetched.
	if code, _, errs := runCLI(t, args...); code != 1 || !strings.Contains(errs, "SHA-256") {
		t.Fatalf("unpinned download: exit %d: %s", code, errs)
	}
	for _, f := range []string{vit.ConfigFile, vit.PreprocessorFile, vit.WeightsFile} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		args = append(args[:len(args)-1], "--sha256", f+"="+hex.EncodeToString(sum[:]), dir)
	}
	code, out, errs := runCLI(t, args...)
	if code != 0 || !strings.Contains(out, "licence Apache-2.0") || !strings.Contains(out, "vit:"+dir) {
		t.Fatalf("download: exit %d: %s%s", code, out, errs)
	}
	prog := filepath.Join(t.TempDir(), "i.txt")
	writeBirdsFile(t, prog, "drop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n")
	code, out, errs = runCLI(t, "birds", "level", prog, "--classifier", "vit:"+dir)
	if code != 0 || !strings.Contains(out, "similarity I ") || !strings.Contains(out, "ViT (native Go") {
		t.Fatalf("level with the ViT: exit %d: %s%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "birds", "level", prog, "--classifier", "vit:"+t.TempDir()); code == 0 || !strings.Contains(errs, "config.json") {
		t.Fatalf("empty model folder: exit %d: %s", code, errs)
	}
	if code, _, _ := runCLI(t, "birds", "level", prog, "--classifier", "vit:"); code != 2 {
		t.Fatalf("vit: without a folder: exit %d", code)
	}
}

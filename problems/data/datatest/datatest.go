// Package datatest builds, for tests, the reference repository's source archive as
// `workbench data download` expects it, from the reference data files in ../shared.
package datatest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"pcgwb/internal/testshared"
	"pcgwb/problems/data"
)

// Archive is a .tar.gz with one top folder pcg_benchmark-<commit>/ and every data file under
// pcg_benchmark/probs/; the file named corrupt (a data path, "" for none) has one byte changed.
func Archive(t testing.TB, corrupt string) []byte {
	t.Helper()
	dir := testshared.Dir(t, "reference-data", "pcg")
	var paths []string
	for p := range data.Digests {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(zw)
	top := "pcg_benchmark-" + data.ReferenceCommit + "/"
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		if p == corrupt {
			b = append([]byte(nil), b...)
			b[len(b)/2] ^= 0x20
		}
		if err := tw.WriteHeader(&tar.Header{Name: top + "pcg_benchmark/probs/" + p, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

package data

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"testing"
)

// FuzzExtractData feeds hostile archives to the download's extractor: it returns only known
// data paths, each within the size limit, or an error — never a panic, never another name.
func FuzzExtractData(f *testing.F) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	top := "pcg_benchmark-" + ReferenceCommit + "/"
	for _, e := range []struct {
		name string
		body string
		typ  byte
	}{
		{top + "pcg_benchmark/probs/smb/slices.txt", "----\n", tar.TypeReg},
		{top + "pcg_benchmark/probs/../../evil", "x", tar.TypeReg},
		{top + "pcg_benchmark/probs/loderunner/patterns.txt", "", tar.TypeSymlink},
	} {
		h := &tar.Header{Name: e.name, Typeflag: e.typ, Size: int64(len(e.body)), Mode: 0o644, Linkname: "/etc/passwd"}
		if e.typ != tar.TypeReg {
			h.Size = 0
		}
		_ = tw.WriteHeader(h)
		_, _ = tw.Write([]byte(e.body))
	}
	_ = tw.Close()
	_ = zw.Close()
	f.Add(buf.Bytes())
	f.Add([]byte{0x1f, 0x8b})
	f.Add([]byte("<html>"))
	f.Fuzz(func(t *testing.T, b []byte) {
		files, err := extractData(bytes.NewReader(b))
		if err != nil {
			return
		}
		for path, content := range files {
			if _, known := Digests[path]; !known {
				t.Fatalf("extracted an unknown path %q", path)
			}
			if len(content) > maxDataFileBytes {
				t.Fatalf("%s: %d bytes", path, len(content))
			}
		}
	})
}

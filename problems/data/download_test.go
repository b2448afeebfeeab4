package data_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"pcgwb/internal/testshared"
	"pcgwb/problems/data"
)

type entry struct {
	name string
	body []byte
	typ  byte
	link string
}

// referenceArchive builds the reference's source archive layout from ../shared: one top
// folder, the data under pcg_benchmark/probs, plus an unrelated file; edit may change entries.
func referenceArchive(t *testing.T, edit func([]entry) []entry) []byte {
	t.Helper()
	dir := testshared.Dir(t, "reference-data", "pcg")
	top := "pcg_benchmark-" + data.ReferenceCommit + "/"
	ents := []entry{{name: top, typ: tar.TypeDir}, {name: top + "README.md", body: []byte("readme\n"), typ: tar.TypeReg}}
	var paths []string
	for p := range data.Digests {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		ents = append(ents, entry{name: top + "pcg_benchmark/probs/" + p, body: b, typ: tar.TypeReg})
	}
	if edit != nil {
		ents = edit(ents)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(zw)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header", PAXRecords: map[string]string{"comment": data.ReferenceCommit}}); err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		h := &tar.Header{Name: e.name, Typeflag: e.typ, Mode: 0o644, Size: int64(len(e.body)), Linkname: e.link}
		if e.typ != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if e.typ == tar.TypeReg {
			if _, err := tw.Write(e.body); err != nil {
				t.Fatal(err)
			}
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

func serve(t *testing.T, archive []byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-gzip")
		_, _ = w.Write(archive)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/archive/" + data.ReferenceCommit + ".tar.gz"
}

func TestDownloadInstallsVerifiedData(t *testing.T) {
	home := isolate(t)
	url := serve(t, referenceArchive(t, nil))
	var lastRead int64
	rep, err := data.Download(context.Background(), url, func(read, total int64) { lastRead = read })
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Copied) != len(data.Digests) || len(rep.Invalid) != 0 || len(rep.Missing) != 0 {
		t.Fatalf("report %+v", rep)
	}
	if lastRead == 0 {
		t.Error("no progress reported")
	}
	if !strings.HasPrefix(rep.Dest, home) {
		t.Errorf("installed into %s, not the user folder under %s", rep.Dest, home)
	}
	for _, s := range data.Status() {
		if !s.Available() {
			t.Errorf("%s still missing after the download: %v", s.Dataset.Name, s.Missing)
		}
	}
}

func TestDownloadRefusesDamagedFilesAndSkipsLinks(t *testing.T) {
	for _, tc := range []struct {
		name        string
		edit        func([]entry) []entry
		wantInvalid string
		wantMissing string
	}{
		{"one byte changed", func(es []entry) []entry {
			for i := range es {
				if strings.HasSuffix(es[i].name, "smb/slices.txt") {
					b := append([]byte(nil), es[i].body...)
					b[0] ^= 1
					es[i].body = b
				}
			}
			return es
		}, "smb/slices.txt", ""},
		{"a link instead of a file", func(es []entry) []entry {
			for i := range es {
				if strings.HasSuffix(es[i].name, "loderunner/patterns.txt") {
					es[i] = entry{name: es[i].name, typ: tar.TypeSymlink, link: "/etc/passwd"}
				}
			}
			return es
		}, "", "loderunner/patterns.txt"},
		{"a path outside", func(es []entry) []entry {
			top := strings.SplitAfter(es[0].name, "/")[0]
			return append(es, entry{name: top + "pcg_benchmark/probs/../../../../escaped.txt", body: []byte("x"), typ: tar.TypeReg})
		}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			dest := t.TempDir()
			archive := filepath.Join(t.TempDir(), "ref.tar.gz")
			if err := os.WriteFile(archive, referenceArchive(t, tc.edit), 0o644); err != nil {
				t.Fatal(err)
			}
			rep, err := data.DownloadTo(context.Background(), archive, dest, nil)
			if tc.wantInvalid != "" {
				if err == nil || len(rep.Invalid) != 1 || rep.Invalid[0].Path != tc.wantInvalid || !strings.Contains(rep.Invalid[0].Err.Error(), "SHA-256") {
					t.Fatalf("err %v report %+v", err, rep)
				}
				if _, err := os.Stat(filepath.Join(dest, filepath.FromSlash(tc.wantInvalid))); err == nil {
					t.Error("the damaged file was installed")
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if tc.wantMissing != "" && (len(rep.Missing) != 1 || rep.Missing[0] != tc.wantMissing) {
				t.Errorf("missing %v, want %s", rep.Missing, tc.wantMissing)
			}
			if _, err := os.Lstat(filepath.Join(dest, filepath.FromSlash(tc.wantMissing))); tc.wantMissing != "" && err == nil {
				t.Error("a link entry was extracted")
			}
			var extra []string
			_ = filepath.Walk(filepath.Dir(dest), func(p string, info os.FileInfo, err error) error {
				if err == nil && !info.IsDir() && !strings.HasPrefix(p, dest) && !strings.HasSuffix(p, "ref.tar.gz") {
					extra = append(extra, p)
				}
				return nil
			})
			if len(extra) > 0 {
				t.Errorf("files written outside the target: %v", extra)
			}
		})
	}
}

func TestDownloadRejectsWrongArchives(t *testing.T) {
	isolate(t)
	for name, body := range map[string][]byte{
		"not gzip": []byte("<html>not found</html>"),
		"two tops": referenceArchive(t, func(es []entry) []entry { return append(es, entry{name: "other/x", typ: tar.TypeReg}) }),
		"no data":  referenceArchive(t, func(es []entry) []entry { return es[:2] }),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := data.DownloadTo(context.Background(), serve(t, body), t.TempDir(), nil); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

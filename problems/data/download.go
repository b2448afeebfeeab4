package data

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
)

// ReferenceCommit is the commit of the reference repository whose data files the workbench
// matches (the one its golden vectors were made with).
const ReferenceCommit = "00b96f57a3eba3529b1293de1e70d5b12a1f60cc"

// DefaultArchiveURL is the reference repository's public source archive at ReferenceCommit: one
// top folder pcg_benchmark-<commit>/, the data under pcg_benchmark/probs/<problem>/.
const DefaultArchiveURL = "https://github.com/amidos2006/pcg_benchmark/archive/" + ReferenceCommit + ".tar.gz"

// License is shown before the data is downloaded: the reference is released under the MIT
// License (its README says so).
const License = `The data files come from the PCG Benchmark by Ahmed Khalifa et al.
(amidos2006/pcg_benchmark, commit ` + ReferenceCommit + `),
available under the MIT License:

  Permission is hereby granted, free of charge, to any person obtaining a copy of this
  software and associated documentation files (the "Software"), to deal in the Software
  without restriction, including without limitation the rights to use, copy, modify, merge,
  publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
  to whom the Software is furnished to do so, subject to the following conditions:

  The above copyright notice and this permission notice shall be included in all copies or
  substantial portions of the Software.

  THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
  INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR
  PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE
  FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
  OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
  DEALINGS IN THE SOFTWARE.
`

// Digests are the SHA-256 of every data file at ReferenceCommit: a downloaded file with
// another digest is refused.
var Digests = map[string]string{
	"elimination/dictionary.txt":  "eda7bc8b86a534de8065a7d0cc091dc918d400475061749d05a5711afda12a3b",
	"elimination/count.txt":       "61753219b405c097178934e6bfc8ee7e5abca03122f1bd1438d83b7e36f4c69b",
	"loderunner/patterns.txt":     "bac80f0922b2fced7cc038a46d8c01433fc7fad1c5424de815a9a2ad21fba77f",
	"loderunner/data/level_0.txt": "e04114e476398e7ff27cffe58799ef1618ccbf6f7df70edf78b8b24eeef6fd38",
	"loderunner/data/level_1.txt": "f2f9c41e3decf0e32a4ad484aea6fc39518a51118a9e7dc24a94d451b09473bd",
	"loderunner/data/level_2.txt": "f19a797ea8f5f99fd43494acf4b17eac8ed28629d3ff4ff5f3bb3f5ab22c319e",
	"loderunner/data/level_3.txt": "dd54f4f54336d941f3edd97fdf254b97fab642adea86650a57e9d8f5e4b19e4a",
	"loderunner/data/level_4.txt": "eff50e8b9cb7cf4fdab0631f40a0da2c0f29e977be47c4958ba636bd3cf6242c",
	"smb/slices.txt":              "9916a39d2cc1720189dd4ab4d505dad9fd7fbf87020d4bd0679d401dec14851a",
}

// Size limits of a download: the whole (compressed) archive, all of its uncompressed entries
// together (the reference's repository is a few MB), and one data file.
const (
	MaxArchiveBytes  = 256 << 20
	maxUnpackedBytes = 1 << 30
	maxDataFileBytes = 16 << 20
)

// archiveDataPrefix is where the data sits below the archive's top folder.
const archiveDataPrefix = "pcg_benchmark/probs/"

// DownloadProgress receives the archive bytes read so far and the total (-1 when unknown).
type DownloadProgress func(read, total int64)

// Download fetches the reference's data files from src (an http(s) URL of the source archive,
// "" for DefaultArchiveURL, or a local .tar.gz file), verifies each against Digests and its
// validator, and installs the good ones into UserDir, where Roots looks. Nothing outside the
// known data paths is extracted, links and special entries are ignored, and a file with a wrong
// digest is refused (Report.Invalid) and not installed.
func Download(ctx context.Context, src string, progress DownloadProgress) (*Report, error) {
	dest, err := UserDir()
	if err != nil {
		return nil, fmt.Errorf("no user configuration folder to install into: %w", err)
	}
	return DownloadTo(ctx, src, dest, progress)
}

// DownloadTo is Download into a chosen folder.
func DownloadTo(ctx context.Context, src, dest string, progress DownloadProgress) (*Report, error) {
	if src == "" {
		src = DefaultArchiveURL
	}
	body, total, err := openArchive(ctx, src)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	counted := &countingReader{r: safeio.LimitedReader(body, "the archive", MaxArchiveBytes), total: total, progress: progress}
	files, err := extractData(counted)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", safeio.ExcerptString(src), err)
	}
	r := &Report{Source: src, Dest: dest}
	type good struct {
		path string
		b    []byte
	}
	var install []good
	for _, ds := range Datasets() {
		for _, f := range ds.Files {
			b, ok := files[f.Path]
			if !ok {
				r.Missing = append(r.Missing, f.Path)
				continue
			}
			if err := verifyDigest(f.Path, b); err != nil {
				r.Invalid = append(r.Invalid, FileError{f.Path, err})
				continue
			}
			if err := f.Validate(b); err != nil {
				r.Invalid = append(r.Invalid, FileError{f.Path, err})
				continue
			}
			install = append(install, good{f.Path, b})
		}
	}
	for _, g := range install {
		to := filepath.Join(dest, filepath.FromSlash(g.path))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return r, err
		}
		if err := atomicfile.Write(to, g.b, 0o644); err != nil {
			return r, err
		}
		r.Copied = append(r.Copied, g.path)
	}
	if len(r.Invalid) > 0 {
		return r, fmt.Errorf("%d data file(s) failed verification and were not installed", len(r.Invalid))
	}
	if len(r.Copied) == 0 {
		return r, errors.New("the archive holds none of the data files (is it the reference repository's source archive?)")
	}
	return r, nil
}

// verifyDigest checks b against the digest compiled in for path.
func verifyDigest(path string, b []byte) error {
	want, ok := Digests[path]
	if !ok {
		return errors.New("no known digest")
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != want {
		return fmt.Errorf("SHA-256 %s…, want %s… (damaged or not the pinned commit)", got[:16], want[:16])
	}
	return nil
}

// openArchive opens an http(s) URL or a local file.
func openArchive(ctx context.Context, src string) (io.ReadCloser, int64, error) {
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
		if err != nil {
			return nil, 0, fmt.Errorf("bad URL %s: %w", safeio.ExcerptString(src), err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, 0, fmt.Errorf("download failed: %w", err)
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, 0, fmt.Errorf("download failed: %s answered %s", safeio.ExcerptString(src), resp.Status)
		}
		if resp.ContentLength > MaxArchiveBytes {
			resp.Body.Close()
			return nil, 0, fmt.Errorf("the archive is %s, over the %s limit", safeio.HumanSize(resp.ContentLength), safeio.HumanSize(MaxArchiveBytes))
		}
		return resp.Body, resp.ContentLength, nil
	}
	f, err := safeio.Open(src, safeio.Options{Limit: MaxArchiveBytes})
	if err != nil {
		return nil, 0, err
	}
	total := int64(-1)
	if st, err := f.Stat(); err == nil {
		total = st.Size()
	}
	return &ctxReader{ctx: ctx, f: f}, total, nil
}

// ctxReader stops reading a local archive when ctx is cancelled.
type ctxReader struct {
	ctx context.Context
	f   *os.File
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.f.Read(p)
}
func (c *ctxReader) Close() error { return c.f.Close() }

type countingReader struct {
	r        io.Reader
	read     int64
	total    int64
	progress DownloadProgress
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += int64(n)
	if c.progress != nil && n > 0 {
		c.progress(c.read, c.total)
	}
	return n, err
}

// extractData reads a gzip-compressed tar and returns the contents of the known data files
// (by data path). Entries are matched by exact name against the known paths below the single
// top folder, so no name in the archive ever becomes a path on disk.
func extractData(r io.Reader) (map[string][]byte, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); !bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		return nil, errors.New("not a .tar.gz archive")
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("not a .tar.gz archive: %w", err)
	}
	tr := tar.NewReader(safeio.LimitedReader(zr, "the unpacked archive", maxUnpackedBytes))
	out := map[string][]byte{}
	top := ""
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the archive: %w", err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		first, rest, _ := strings.Cut(name, "/")
		if h.Typeflag == tar.TypeXGlobalHeader || first == "" {
			continue
		}
		if top == "" {
			top = first
		}
		if first != top || !strings.HasPrefix(top, "pcg_benchmark-") {
			return nil, fmt.Errorf("unexpected layout: the archive should have one top folder pcg_benchmark-<commit>/, found %s",
				safeio.ExcerptString(first))
		}
		path, ok := strings.CutPrefix(rest, archiveDataPrefix)
		if !ok {
			continue
		}
		if _, known := Digests[path]; !known || h.Typeflag != tar.TypeReg {
			continue // only the regular files the problems need; links and the rest are skipped
		}
		if h.Size > maxDataFileBytes {
			return nil, fmt.Errorf("%s is %s in the archive, over the %s limit", path, safeio.HumanSize(h.Size), safeio.HumanSize(maxDataFileBytes))
		}
		b, err := safeio.ReadAllLimited(tr, path, maxDataFileBytes)
		if err != nil {
			return nil, err
		}
		out[path] = b
	}
	return out, nil
}

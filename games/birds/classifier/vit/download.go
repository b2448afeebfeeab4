package vit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/folderlock"
	"pcgwb/internal/safeio"
)

// Manifest says where a model's files come from, what each must hash to and how large each may
// be, and under which licence the authors publish them.
type Manifest struct {
	Model   string // the authors' name for it
	Source  string // an http(s) URL or a local folder; each file is Source/NAME
	Licence string
	Files   []ManifestFile
}

// ManifestFile is one file of a model.
type ManifestFile struct {
	Name     string
	SHA256   string // lower-case hex; a file without one is refused
	MaxBytes int64
}

// Published is the competition's classifier as its authors publish it on Hugging Face
// (licence Apache-2.0, model card of pittawat/vit-base-uppercase-english-characters). The
// digests could not be read from here (no network): this build pins none, so a download
// needs each file's SHA-256, from the model page's file list, given by the user (Pin).
var Published = Manifest{
	Model:   "pittawat/vit-base-uppercase-english-characters",
	Source:  "https://huggingface.co/pittawat/vit-base-uppercase-english-characters/resolve/main",
	Licence: "Apache-2.0",
	Files: []ManifestFile{
		{Name: ConfigFile, MaxBytes: maxJSONBytes},
		{Name: PreprocessorFile, MaxBytes: maxJSONBytes},
		{Name: WeightsFile, MaxBytes: 400 << 20}, // 343 MB in F32
	},
}

// Pin sets the digest of a file ("NAME=HEX").
func (m *Manifest) Pin(spec string) error {
	name, digest, ok := strings.Cut(spec, "=")
	digest = strings.ToLower(strings.TrimSpace(digest))
	if b, err := hex.DecodeString(digest); !ok || err != nil || len(b) != sha256.Size {
		return fmt.Errorf("%q: want NAME=SHA256 (64 hex digits)", spec)
	}
	files := append([]ManifestFile(nil), m.Files...)
	for i := range files {
		if files[i].Name == name {
			files[i].SHA256 = digest
			m.Files = files
			return nil
		}
	}
	return fmt.Errorf("%q: the model has no file %s", spec, name)
}

// MaxFetchBytes caps the size of any one file whatever a manifest says.
const MaxFetchBytes = 2 << 30

// Download fetches the manifest's files into dir (created if needed, locked while it is
// written). Each file is streamed through SHA-256 with its size limit and only then renamed
// into place, so dir never holds a file that does not match its pinned digest; a file already
// there with the right digest is kept. progress, if not nil, hears each file's bytes.
func Download(ctx context.Context, m Manifest, dir string, client *http.Client, progress func(name string, read, total int64)) error {
	for _, f := range m.Files {
		if f.SHA256 == "" {
			return fmt.Errorf("no SHA-256 pinned for %s of %s: give it (NAME=HEX) from the model's file list", f.Name, m.Model)
		}
		if f.Name != filepath.Base(f.Name) || strings.HasPrefix(f.Name, ".") {
			return fmt.Errorf("manifest file name %q", f.Name)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	lock, err := folderlock.Acquire(dir)
	if err != nil {
		return err
	}
	defer lock.Release()
	if client == nil {
		client = http.DefaultClient
	}
	for _, f := range m.Files {
		limit := min(f.MaxBytes, MaxFetchBytes)
		if limit <= 0 {
			limit = MaxFetchBytes
		}
		dst := filepath.Join(dir, f.Name)
		if sum, err := fileSHA256(dst, limit); err == nil && sum == f.SHA256 {
			continue
		}
		body, total, err := open(ctx, client, m.Source, f.Name)
		if err != nil {
			return err
		}
		err = atomicfile.WriteFunc(dst, 0o644, func(w io.Writer) error {
			h := sha256.New()
			var n int64
			buf := make([]byte, 1<<20)
			for {
				k, rerr := body.Read(buf)
				if k > 0 {
					n += int64(k)
					if n > limit {
						return fmt.Errorf("%s: more than %s (the limit for this file)", f.Name, safeio.HumanSize(limit))
					}
					h.Write(buf[:k])
					if _, err := w.Write(buf[:k]); err != nil {
						return err
					}
					if progress != nil {
						progress(f.Name, n, total)
					}
				}
				if rerr == io.EOF {
					break
				}
				if rerr != nil {
					return fmt.Errorf("%s: %w", f.Name, rerr)
				}
			}
			if got := hex.EncodeToString(h.Sum(nil)); got != f.SHA256 {
				return fmt.Errorf("%s: SHA-256 %s, pinned %s: not the published file, nothing written", f.Name, got, f.SHA256)
			}
			return nil
		})
		body.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// open starts reading Source/name: a GET for an http(s) source, a file for a folder.
func open(ctx context.Context, client *http.Client, source, name string) (io.ReadCloser, int64, error) {
	if u, err := url.Parse(source); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(source, "/")+"/"+url.PathEscape(name), nil)
		if err != nil {
			return nil, 0, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", name, err)
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, 0, fmt.Errorf("%s: %s from %s", name, resp.Status, source)
		}
		return resp.Body, resp.ContentLength, nil
	} else if err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		return nil, 0, fmt.Errorf("source %q: want an http(s) URL or a folder", source)
	}
	f, err := safeio.Open(filepath.Join(source, name), safeio.Options{Limit: MaxFetchBytes})
	if err != nil {
		return nil, 0, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, info.Size(), nil
}

// fileSHA256 hashes a regular file of at most limit bytes.
func fileSHA256(path string, limit int64) (string, error) {
	f, err := safeio.Open(path, safeio.Options{Limit: limit, NoSymlink: true})
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, limit+1)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

package data

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
)

// Report is what an import found.
type Report struct {
	// Source is the folder the files were read from (src, or the probs folder inside it).
	Source string
	Dest   string
	// Copied, Missing and Invalid are data paths (as in File.Path); Invalid has the reason.
	Copied  []string
	Missing []string
	Invalid []FileError
}

// FileError is a data file that failed validation.
type FileError struct {
	Path string
	Err  error
}

func (e FileError) Error() string { return e.Path + ": " + e.Err.Error() }

// Import validates the data files found under src and copies the valid ones into UserDir.
// src may be a pcg_benchmark/probs folder, the pcg_benchmark package folder, a checkout of the
// reference repository, or a site-packages folder holding the package.
func Import(src string) (*Report, error) {
	dest, err := UserDir()
	if err != nil {
		return nil, fmt.Errorf("no user configuration folder to import into: %w", err)
	}
	return ImportTo(src, dest)
}

// ImportTo is Import into a chosen folder. Files already there and not found under src are
// kept, so importing a partial copy adds to what was imported before. It fails only when no
// valid file is found.
func ImportTo(src, dest string) (*Report, error) {
	if !isDir(src) {
		return nil, fmt.Errorf("%s is not a folder", src)
	}
	root := probsRoot(src)
	if root == "" {
		return nil, fmt.Errorf("no pcg_benchmark data under %s (looked for elimination/dictionary.txt, "+
			"loderunner/patterns.txt, ... in it and in its probs, pcg_benchmark/probs subfolders)", src)
	}
	r := &Report{Source: root, Dest: dest}
	for _, ds := range Datasets() {
		for _, f := range ds.Files {
			from := filepath.Join(root, filepath.FromSlash(f.Path))
			if _, err := os.Lstat(from); err != nil {
				r.Missing = append(r.Missing, f.Path)
				continue
			}
			// A link could reach any file of the machine (/etc/shadow): never followed, and
			// nothing read through one is ever quoted.
			if link := linkBelow(src, from); link != "" {
				r.Invalid = append(r.Invalid, FileError{f.Path, fmt.Errorf("%s is a symbolic link (not followed)", link)})
				continue
			}
			b, err := safeio.Read(from, safeio.Options{Limit: maxDataFileBytes, NoSymlink: true})
			if err != nil {
				r.Invalid = append(r.Invalid, FileError{f.Path, errors.New(describeReadError(err))})
				continue
			}
			if err := f.Validate(b); err != nil {
				r.Invalid = append(r.Invalid, FileError{f.Path, err})
				continue
			}
			to := filepath.Join(dest, filepath.FromSlash(f.Path))
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				return r, err
			}
			if err := atomicfile.Write(to, b, 0o644); err != nil {
				return r, err
			}
			r.Copied = append(r.Copied, f.Path)
		}
	}
	if len(r.Copied) == 0 {
		return r, fmt.Errorf("no valid pcg_benchmark data file under %s", root)
	}
	return r, nil
}

// linkBelow returns the first element of path below base that is a symbolic link ("" if none).
// base itself, the folder the user named, may be one.
func linkBelow(base, path string) string {
	rel, err := filepath.Rel(base, path)
	if err != nil {
		return path
	}
	cur := base
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		if fi, err := os.Lstat(cur); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return cur
		}
	}
	return ""
}

// describeReadError says why a data file could not be read without quoting its content.
func describeReadError(err error) string {
	switch {
	case errors.Is(err, safeio.ErrTooLarge):
		return "too large for a data file"
	case errors.Is(err, safeio.ErrSpecialFile):
		return "not a regular file (a pipe, device or socket)"
	}
	return err.Error()
}

// probsRoot finds the folder laid out like pcg_benchmark/probs: src itself or a known
// subfolder, whichever holds the first known file.
func probsRoot(src string) string {
	for _, c := range []string{
		src,
		filepath.Join(src, "probs"),
		filepath.Join(src, "pcg_benchmark", "probs"),
	} {
		for _, ds := range Datasets() {
			for _, f := range ds.Files {
				if isFile(filepath.Join(c, filepath.FromSlash(f.Path))) {
					return c
				}
			}
		}
	}
	return ""
}

// DatasetStatus says whether one dataset is usable and where its files are.
type DatasetStatus struct {
	Dataset *Dataset
	// Paths are the located files, in Dataset.Files order ("" where missing).
	Paths   []string
	Missing []string
}

// Available reports whether every file of the dataset was found.
func (s DatasetStatus) Available() bool { return len(s.Missing) == 0 }

// Status locates every dataset's files (without reading them).
func Status() []DatasetStatus {
	roots := Roots()
	var out []DatasetStatus
	for _, ds := range Datasets() {
		s := DatasetStatus{Dataset: ds, Paths: make([]string, len(ds.Files))}
		for i, f := range ds.Files {
			p, err := findIn(roots, f.Path)
			if err != nil {
				s.Missing = append(s.Missing, f.Path)
				continue
			}
			s.Paths[i] = p
		}
		out = append(out, s)
	}
	return out
}

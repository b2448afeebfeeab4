// Package safeio reads untrusted files and quotes untrusted text safely: every read has a size
// limit checked before the data is read whole, special files (named pipes, devices, sockets) are
// refused before they are opened for reading (a FIFO would block forever, /dev/zero never ends),
// and error messages quote at most a short excerpt of the input.
package safeio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"unicode/utf8"
)

// DefaultLimit is the size limit for a file read whole when the caller has no better figure.
const DefaultLimit = 64 << 20

// ExcerptLen is how many bytes of untrusted input an error message quotes at most.
const ExcerptLen = 200

// ErrTooLarge is wrapped by the errors of reads over their limit.
var ErrTooLarge = errors.New("too large")

// ErrSpecialFile is wrapped by the errors of reads of named pipes, devices and sockets.
var ErrSpecialFile = errors.New("not a regular file")

// Options tune a read.
type Options struct {
	// Limit is the largest size accepted in bytes; 0 means DefaultLimit.
	Limit int64
	// NoSymlink refuses a path whose last element is a symbolic link.
	NoSymlink bool
}

// ReadFile reads a whole regular file of at most limit bytes (0 means DefaultLimit), refusing
// special files and files that are too large with a clear error naming the path.
func ReadFile(path string, limit int64) ([]byte, error) {
	return Read(path, Options{Limit: limit})
}

// Read reads a whole regular file under opts.
func Read(path string, opts Options) ([]byte, error) {
	f, err := Open(path, opts)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAllLimited(f, path, opts.Limit)
}

// Open opens a regular file for reading after checking it is not a special file (and, with
// opts.NoSymlink, not a symbolic link) and not over the limit. The check is repeated on the open
// file, so a file swapped between the checks is still refused.
func Open(path string, opts Options) (*os.File, error) {
	limit := opts.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	lst, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if opts.NoSymlink && lst.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s: refusing to follow a symbolic link", path)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := CheckRegular(path, st, limit); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	fst, err := f.Stat()
	if err == nil {
		err = CheckRegular(path, fst, limit)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// CheckRegular returns an error when info is not a regular file or is larger than limit.
func CheckRegular(path string, info fs.FileInfo, limit int64) error {
	if !info.Mode().IsRegular() {
		kind := "special file"
		switch m := info.Mode(); {
		case m.IsDir():
			kind = "folder"
		case m&fs.ModeNamedPipe != 0:
			kind = "named pipe"
		case m&fs.ModeDevice != 0:
			kind = "device"
		case m&fs.ModeSocket != 0:
			kind = "socket"
		}
		return fmt.Errorf("%s: is a %s: %w", path, kind, ErrSpecialFile)
	}
	if limit > 0 && info.Size() > limit {
		return fmt.Errorf("%s: %s is %w (the limit is %s)", path, HumanSize(info.Size()), ErrTooLarge, HumanSize(limit))
	}
	return nil
}

// ReadAllLimited reads r to its end, failing with ErrTooLarge as soon as more than limit bytes
// (0 means DefaultLimit) arrive; name goes into the error.
//
// Memory: a regular file (standard input redirected from one) is read into one buffer of its
// size; a stream of unknown length is read in chunks and copied once into a buffer of the
// exact length, so the peak is about twice the input (io.ReadAll's doubling kept up to
// 2.4 times the limit alive).
func ReadAllLimited(r io.Reader, name string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	tooLarge := func() error { return fmt.Errorf("%s: more than %s: %w", name, HumanSize(limit), ErrTooLarge) }
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if fi.Size() > limit {
				return nil, tooLarge()
			}
			if pos, err := f.Seek(0, io.SeekCurrent); err == nil && pos <= fi.Size() {
				buf := make([]byte, fi.Size()-pos+1) // one more byte: a file grown since is seen
				n, err := io.ReadFull(f, buf)
				if err == io.ErrUnexpectedEOF || err == io.EOF {
					return buf[:n], nil
				}
				if err != nil {
					return nil, err
				}
				// the file grew while read: go on as for a stream
				rest, err := readChunks(f, limit-int64(n), tooLarge)
				if err != nil {
					return nil, err
				}
				return append(buf[:n:n], rest...), nil
			}
		}
	}
	return readChunks(r, limit, tooLarge)
}

// readChunks reads r to its end in chunks (64 KiB growing to 4 MiB) and returns them joined
// in one buffer of the exact length; more than limit bytes is tooLarge().
func readChunks(r io.Reader, limit int64, tooLarge func() error) ([]byte, error) {
	var chunks [][]byte
	var total int64
	size := 64 << 10
	for {
		chunk := make([]byte, size)
		n, err := io.ReadFull(r, chunk)
		total += int64(n)
		if total > limit {
			return nil, tooLarge()
		}
		if n > 0 {
			chunks = append(chunks, chunk[:n])
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(size*2, 4<<20)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	out := make([]byte, 0, total)
	for i := range chunks {
		out = append(out, chunks[i]...)
		chunks[i] = nil
	}
	return out, nil
}

// LimitedReader returns a reader that yields at most limit bytes of r and then fails with an
// error wrapping ErrTooLarge (unlike io.LimitReader, which ends silently).
func LimitedReader(r io.Reader, name string, limit int64) io.Reader {
	return &limited{r: r, name: name, left: limit, limit: limit}
}

type limited struct {
	r     io.Reader
	name  string
	left  int64
	limit int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, fmt.Errorf("%s: more than %s: %w", l.name, HumanSize(l.limit), ErrTooLarge)
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		n += int(l.left) // hand out exactly limit bytes, then fail
		return n, fmt.Errorf("%s: more than %s: %w", l.name, HumanSize(l.limit), ErrTooLarge)
	}
	return n, err
}

// Excerpt quotes at most ExcerptLen bytes of untrusted input for an error message: valid UTF-8
// cut at a rune boundary, control characters escaped, and an ellipsis with the full length when
// it was cut. The result is a Go-quoted string.
func Excerpt(b []byte) string { return ExcerptN(b, ExcerptLen) }

// ExcerptString is Excerpt for a string.
func ExcerptString(s string) string { return ExcerptN([]byte(s), ExcerptLen) }

// ExcerptN is Excerpt with a chosen length.
func ExcerptN(b []byte, n int) string {
	if len(b) <= n {
		return strconv.Quote(string(b))
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return strconv.Quote(string(b[:cut])) + fmt.Sprintf("… (%d bytes in all)", len(b))
}

// FirstLine returns the first line of b (without its line ending), for quoting.
func FirstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return bytes.TrimSuffix(b, []byte("\r"))
}

// StripBOM removes a leading UTF-8 byte order mark.
func StripBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }

// HumanSize formats a byte count for people (1.5 MiB).
func HumanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

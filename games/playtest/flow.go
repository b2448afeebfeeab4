package playtest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"pcgwb/internal/folderlock"
)

// Create builds a session (New) and writes it into the folder dir, which must not hold one
// already. It is the one entry point of `workbench playtest new` and of the GUI's "Playtest…"
// actions.
func Create(dir string, opt Options) (*Session, error) {
	if _, err := os.Stat(filepath.Join(dir, SessionFile)); err == nil {
		return nil, fmt.Errorf("%s already holds a playtest session", dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	s, err := New(opt)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return s, s.Save(dir)
}

// Open starts a kiosk for player on the session folder dir, resuming after the levels the
// player has recorded. The folder is locked while the kiosk runs (one kiosk per folder; run
// several laptops on copies and merge): call release when done.
func Open(dir, player string) (k *Kiosk, release func() error, err error) {
	if err := CheckPlayer(player); err != nil {
		return nil, nil, err
	}
	lock, err := folderlock.Acquire(dir)
	if err != nil {
		return nil, nil, err
	}
	s, recs, err := LoadAll(dir)
	if err == nil {
		k, err = NewKiosk(s, player, recs, func(r Record) error { return SaveRecord(dir, r) })
	}
	if err != nil {
		lock.Release()
		return nil, nil, err
	}
	return k, lock.Release, nil
}

// ReportFolders computes the report of one session spread over the folders dirs and writes it
// into out (ReportDir of the first folder when out is empty).
func ReportFolders(out string, dirs ...string) (*Report, []string, error) {
	s, recs, err := LoadAll(dirs...)
	if err != nil {
		return nil, nil, err
	}
	rep := Compute(s, recs)
	if out == "" {
		out = filepath.Join(dirs[0], ReportDir)
	}
	files, err := Write(out, rep)
	return rep, files, err
}

package playtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/folderlock"
)

// Create builds a session (New) and writes it into the experimenter's folder dir, which must
// not hold one already: the key (key.json: where every level came from, what was left out and
// why) and the blind kiosk folder (kiosk/session.json: "Level N" and the contents), the only
// part to copy to kiosk laptops. It is the one entry point of `workbench playtest new` and of
// the GUI's "New playtest…".
func Create(dir string, opt Options) (*Session, error) {
	for _, f := range []string{KeyFile, SessionFile, filepath.Join(KioskDir, SessionFile)} {
		if _, err := os.Lstat(filepath.Join(dir, f)); err == nil {
			return nil, fmt.Errorf("%s already holds a playtest session", dir)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	s, err := New(opt)
	if err != nil {
		return nil, err
	}
	kiosk := filepath.Join(dir, KioskDir)
	if err := os.MkdirAll(kiosk, 0o755); err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(dir, KeyFile), append(data, '\n'), 0o600); err != nil {
		return nil, err
	}
	return s, s.Blind().Save(kiosk)
}

// NextParticipant is the first participant number with no record in the session folder dir
// (the experimenter's folder or a kiosk copy). On several laptops give numbers explicitly (one
// range per laptop): each laptop only knows its own records.
func NextParticipant(dir string) (int, error) {
	entries, err := os.ReadDir(filepath.Join(sessionDir(dir), RecordsDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	used := map[string]bool{}
	for _, e := range entries {
		used[e.Name()] = true
	}
	for n := 1; n <= MaxParticipants; n++ {
		if !used[ParticipantCode(n)] {
			return n, nil
		}
	}
	return 0, fmt.Errorf("%s: every participant code is used", dir)
}

// Open starts a kiosk for participant number n on the session folder dir (the experimenter's
// folder or a kiosk copy), resuming after the levels the participant has recorded. The folder
// is locked while the kiosk runs (one kiosk per folder; run several laptops on copies and
// merge): call release when done.
func Open(dir string, n int) (k *Kiosk, release func() error, err error) {
	if n < 1 || n > MaxParticipants {
		return nil, nil, fmt.Errorf("participant number %d: give 1 to %d", n, MaxParticipants)
	}
	sdir := sessionDir(dir)
	lock, err := folderlock.Acquire(sdir)
	if err != nil {
		return nil, nil, err
	}
	s, err := Load(sdir)
	var recs []Record
	var who *ParticipantRecord
	if err == nil {
		recs, err = LoadRecords(sdir, s)
	}
	if err == nil {
		who, err = LoadParticipant(sdir, ParticipantCode(n))
	}
	if err == nil {
		k, err = NewKiosk(s, n, KioskStore{
			Done:            recs,
			Intake:          who,
			Save:            func(r Record) error { return SaveRecord(sdir, r) },
			SaveParticipant: func(r ParticipantRecord) error { return SaveParticipant(sdir, r) },
			Now:             time.Now,
		})
	}
	if err != nil {
		lock.Release()
		return nil, nil, err
	}
	return k, lock.Release, nil
}

// ReportFolders computes the report of one session spread over the folders dirs (the
// experimenter's folder first: the key is there) and writes it into out (ReportDir of the first
// folder when out is empty).
func ReportFolders(out string, dirs ...string) (*Report, []string, error) {
	s, recs, err := LoadAll(dirs...)
	if err != nil {
		return nil, nil, err
	}
	intake, err := LoadIntake(dirs...)
	if err != nil {
		return nil, nil, err
	}
	rep := Compute(s, recs)
	rep.Answers = intake
	if out == "" {
		out = filepath.Join(dirs[0], ReportDir)
	}
	files, err := Write(out, rep)
	return rep, files, err
}

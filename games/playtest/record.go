package playtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"pcgwb/games/play"
	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
)

// RecordsDir is the folder of records in a session folder.
const RecordsDir = "records"

// Record is what one participant did on one level: the level's place in the participant's
// order, when it started and ended, the play's outcome (its input trace replays in Watch:
// `workbench play PROBLEM LEVEL --trace RECORD`) and the questionnaire's answers.
type Record struct {
	// Participant is a code (P01), never a name.
	Participant string `json:"participant"`
	Level       string `json:"level"`
	// Position is the level's place in the participant's order (1 = first).
	Position int `json:"position"`
	// Start and End are when the level was opened and when it ended (UTC).
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// Outcome's Result "quit" is a level given up.
	play.Outcome
	Answers map[string]string `json:"answers"`
}

// ParticipantFile is the participant's own record in records/CODE/: consent and the intake
// answers.
const ParticipantFile = "participant.json"

// ParticipantRecord is a participant's consent and intake answers, saved before the first level.
type ParticipantRecord struct {
	Participant string            `json:"participant"`
	Consented   bool              `json:"consented"`
	At          time.Time         `json:"at"`
	Answers     map[string]string `json:"answers"`
}

// recordPath is where a record lives in a session folder.
func recordPath(dir, participant, level string) string {
	return filepath.Join(dir, RecordsDir, participant, level+".json")
}

// SaveParticipant writes a participant's record into the session folder dir atomically.
func SaveParticipant(dir string, r ParticipantRecord) error {
	if err := CheckParticipant(r.Participant); err != nil {
		return err
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, RecordsDir, r.Participant, ParticipantFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o644)
}

// LoadParticipant reads a participant's record from the session folder dir (nil, nil when
// there is none).
func LoadParticipant(dir, code string) (*ParticipantRecord, error) {
	if err := CheckParticipant(code); err != nil {
		return nil, err
	}
	data, err := safeio.ReadFile(filepath.Join(dir, RecordsDir, code, ParticipantFile), maxRecordBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r ParticipantRecord
	if err := json.Unmarshal(data, &r); err != nil || r.Participant != code {
		return nil, fmt.Errorf("%s: not the participant record of %s", filepath.Join(dir, RecordsDir, code, ParticipantFile), code)
	}
	return &r, nil
}

// SaveRecord writes a record into the session folder dir atomically: once it returns the record
// survives a crash, and a crash before leaves no partial file.
func SaveRecord(dir string, r Record) error {
	if err := CheckParticipant(r.Participant); err != nil {
		return err
	}
	if !safeName(r.Level) {
		return fmt.Errorf("level name %s is not a safe file name", safeio.ExcerptString(r.Level))
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	path := recordPath(dir, r.Participant, r.Level)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o644)
}

// decodeRecord parses a record file and checks it against the session.
func decodeRecord(s *Session, data []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return Record{}, fmt.Errorf("not a playtest record: %w", err)
	}
	o, err := play.DecodeOutcome(data)
	if err != nil {
		return Record{}, err
	}
	r.Outcome = o
	if CheckParticipant(r.Participant) != nil {
		return Record{}, errors.New("not a playtest record: the participant is not a code (P01)")
	}
	if r.Position < 0 || r.Position > len(s.Levels) {
		return Record{}, fmt.Errorf("not a playtest record: position %d of %d levels", r.Position, len(s.Levels))
	}
	if s.level(r.Level) < 0 {
		return Record{}, fmt.Errorf("the session has no level %s", safeio.ExcerptString(r.Level))
	}
	for _, q := range s.Questions {
		a, ok := r.Answers[q.ID]
		if ok && !contains(q.Options, a) {
			return Record{}, fmt.Errorf("answer %s to %s is not one of its options", safeio.ExcerptString(a), q.ID)
		}
	}
	return r, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// level is the index of the named level, or -1.
func (s *Session) level(name string) int {
	for i := range s.Levels {
		if s.Levels[i].Name == name {
			return i
		}
	}
	return -1
}

// maxRecordBytes bounds one record file.
const maxRecordBytes = play.MaxOutcomeBytes

// LoadRecords reads every record of a session folder, sorted by player then level. Temporary
// files of an interrupted write are ignored (and cleaned by atomicfile's writers).
func LoadRecords(dir string, s *Session) ([]Record, error) {
	var out []Record
	root := filepath.Join(dir, RecordsDir)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == root {
			return fs.SkipAll
		}
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".json") || strings.HasPrefix(d.Name(), ".") || d.Name() == ParticipantFile {
			return nil
		}
		data, err := safeio.ReadFile(path, maxRecordBytes)
		if err != nil {
			return err
		}
		r, err := decodeRecord(s, data)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if path != recordPath(dir, r.Participant, r.Level) && !isCopy(path, recordPath(dir, r.Participant, r.Level)) {
			return fmt.Errorf("%s: holds the record of %s on %s", path, r.Participant, r.Level)
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Participant != out[j].Participant {
			return out[i].Participant < out[j].Participant
		}
		return out[i].Level < out[j].Level
	})
	return out, nil
}

// isCopy reports whether path is a numbered copy of want ("Level 3.2.json" beside
// "Level 3.json"), as Merge makes when two laptops recorded the same player name.
func isCopy(path, want string) bool {
	base := strings.TrimSuffix(want, ".json") + "."
	rest, ok := strings.CutPrefix(path, base)
	if !ok {
		return false
	}
	n := strings.TrimSuffix(rest, ".json")
	return n != "" && strings.Trim(n, "0123456789") == ""
}

// Merge copies the records of the session folders srcs into dst (all must hold the same
// playlist). A record already in dst is skipped; a different record of the same player and
// level (two laptops, one player name) is kept beside it as a numbered copy. It returns how
// many records it copied.
func Merge(dst string, srcs ...string) (int, error) {
	key, _, err := LoadAll(append([]string{dst}, srcs...)...)
	if err != nil {
		return 0, err
	}
	into := sessionDir(dst)
	copied := 0
	for _, src := range srcs {
		sdir := sessionDir(src)
		recs, err := LoadRecords(sdir, key)
		if err != nil {
			return copied, err
		}
		for _, r := range recs {
			n, err := mergeOne(into, r)
			if err != nil {
				return copied, err
			}
			copied += n
		}
		intake, err := LoadIntake(src)
		if err != nil {
			return copied, err
		}
		for code, p := range intake {
			if old, err := LoadParticipant(into, code); err != nil {
				return copied, err
			} else if old == nil {
				if err := SaveParticipant(into, p); err != nil {
					return copied, err
				}
			}
		}
	}
	return copied, nil
}

// mergeOne adds r to dst unless an equal record is there.
func mergeOne(dst string, r Record) (int, error) {
	data, err := json.Marshal(r)
	if err != nil {
		return 0, err
	}
	data = append(data, '\n')
	path := recordPath(dst, r.Participant, r.Level)
	for n := 2; ; n++ {
		old, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return 0, err
			}
			return 1, atomicfile.Write(path, data, 0o644)
		}
		if err != nil {
			return 0, err
		}
		if bytes.Equal(old, data) {
			return 0, nil
		}
		path = fmt.Sprintf("%s.%d.json", strings.TrimSuffix(recordPath(dst, r.Participant, r.Level), ".json"), n)
	}
}

// sessionDir is the session folder of dir: the kiosk folder inside it when dir is the
// experimenter's folder (key.json and kiosk/), else dir itself (a kiosk laptop's copy).
func sessionDir(dir string) string {
	if _, err := os.Stat(filepath.Join(dir, KioskDir, SessionFile)); err == nil {
		return filepath.Join(dir, KioskDir)
	}
	return dir
}

// LoadKey reads the key of the experimenter's folder dir (key.json); for a format 1 session
// folder, whose session.json is its own key, that session.
func LoadKey(dir string) (*Session, error) {
	path := filepath.Join(dir, KeyFile)
	data, err := safeio.ReadFile(path, maxSessionBytes)
	if errors.Is(err, fs.ErrNotExist) {
		s, lerr := Load(sessionDir(dir))
		if lerr == nil && s.Format == 1 {
			return s, nil
		}
		return nil, fmt.Errorf("%s holds no %s: give the experimenter's folder (the one `playtest new` wrote) first; kiosk copies hold no key", dir, KeyFile)
	}
	if err != nil {
		return nil, err
	}
	s, err := DecodeSession(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// sameBlind reports whether a kiosk session is the blind form of the key.
func sameBlind(key, kiosk *Session) (bool, error) {
	a, err := json.Marshal(key.Blind())
	if err != nil {
		return false, err
	}
	b, err := json.Marshal(kiosk.Blind())
	if err != nil {
		return false, err
	}
	return bytes.Equal(a, b), nil
}

// LoadAll reads one session: its key from the experimenter's folder dirs[0] (LoadKey) and the
// records of every folder, the experimenter's and kiosk laptops' copies, without duplicates.
// Every folder must hold the same playlist as the key.
func LoadAll(dirs ...string) (*Session, []Record, error) {
	if len(dirs) == 0 {
		return nil, nil, errors.New("no session folder")
	}
	key, err := LoadKey(dirs[0])
	if err != nil {
		return nil, nil, err
	}
	var out []Record
	seen := map[string]bool{}
	for _, dir := range dirs {
		sdir := sessionDir(dir)
		s, err := Load(sdir)
		if err != nil {
			return nil, nil, err
		}
		if same, err := sameBlind(key, s); err != nil {
			return nil, nil, err
		} else if !same {
			return nil, nil, fmt.Errorf("%s holds another playlist than %s: only folders of the same session merge", dir, dirs[0])
		}
		recs, err := LoadRecords(sdir, s)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range recs {
			k, err := json.Marshal(r)
			if err != nil {
				return nil, nil, err
			}
			if !seen[string(k)] {
				seen[string(k)] = true
				out = append(out, r)
			}
		}
	}
	return key, out, nil
}

// LoadIntake reads the participants' records (consent, intake answers) of the session folders
// dirs, by participant code; the first folder that holds one wins.
func LoadIntake(dirs ...string) (map[string]ParticipantRecord, error) {
	out := map[string]ParticipantRecord{}
	for _, dir := range dirs {
		root := filepath.Join(sessionDir(dir), RecordsDir)
		entries, err := os.ReadDir(root)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() || CheckParticipant(e.Name()) != nil {
				continue
			}
			if _, ok := out[e.Name()]; ok {
				continue
			}
			r, err := LoadParticipant(sessionDir(dir), e.Name())
			if err != nil {
				return nil, err
			}
			if r != nil {
				out[e.Name()] = *r
			}
		}
	}
	return out, nil
}

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

	"pcgwb/games/play"
	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
)

// RecordsDir is the folder of records in a session folder.
const RecordsDir = "records"

// Record is what one player did on one level: the play's outcome (its input trace replays in
// Watch: `workbench play PROBLEM LEVEL --trace RECORD`) and the questionnaire's answers.
type Record struct {
	Player string `json:"player"`
	Level  string `json:"level"`
	// Outcome's Result "quit" is a level given up.
	play.Outcome
	Answers map[string]string `json:"answers"`
}

// CheckPlayer refuses a player name that cannot be a folder name.
func CheckPlayer(name string) error {
	if !safeName(name) {
		return fmt.Errorf("player name %s: use letters, digits, spaces, dots, dashes or underscores (at most 64)", safeio.ExcerptString(name))
	}
	return nil
}

// recordPath is where a record lives in a session folder.
func recordPath(dir, player, level string) string {
	return filepath.Join(dir, RecordsDir, player, level+".json")
}

// SaveRecord writes a record into the session folder dir atomically: once it returns the record
// survives a crash, and a crash before leaves no partial file.
func SaveRecord(dir string, r Record) error {
	if err := CheckPlayer(r.Player); err != nil {
		return err
	}
	if !safeName(r.Level) {
		return fmt.Errorf("level name %s is not a safe file name", safeio.ExcerptString(r.Level))
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	path := recordPath(dir, r.Player, r.Level)
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
	if CheckPlayer(r.Player) != nil {
		return Record{}, errors.New("not a playtest record: bad player name")
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
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".json") || strings.HasPrefix(d.Name(), ".") {
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
		if path != recordPath(dir, r.Player, r.Level) && !isCopy(path, recordPath(dir, r.Player, r.Level)) {
			return fmt.Errorf("%s: holds the record of %s on %s", path, r.Player, r.Level)
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Player != out[j].Player {
			return out[i].Player < out[j].Player
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
	if _, _, err := LoadAll(append([]string{dst}, srcs...)...); err != nil {
		return 0, err
	}
	copied := 0
	for _, src := range srcs {
		_, recs, err := LoadAll(src)
		if err != nil {
			return copied, err
		}
		for _, r := range recs {
			n, err := mergeOne(dst, r)
			if err != nil {
				return copied, err
			}
			copied += n
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
	path := recordPath(dst, r.Player, r.Level)
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
		path = fmt.Sprintf("%s.%d.json", strings.TrimSuffix(recordPath(dst, r.Player, r.Level), ".json"), n)
	}
}

// LoadAll reads the session folders dirs (several laptops' copies of one session) and their
// records, without duplicates: the folders must hold the same playlist.
func LoadAll(dirs ...string) (*Session, []Record, error) {
	if len(dirs) == 0 {
		return nil, nil, errors.New("no session folder")
	}
	var first *Session
	var want []byte
	var out []Record
	seen := map[string]bool{}
	for _, dir := range dirs {
		s, err := Load(dir)
		if err != nil {
			return nil, nil, err
		}
		raw, err := safeio.ReadFile(filepath.Join(dir, SessionFile), maxSessionBytes)
		if err != nil {
			return nil, nil, err
		}
		if first == nil {
			first, want = s, raw
		} else if !bytes.Equal(bytes.TrimSpace(raw), bytes.TrimSpace(want)) {
			return nil, nil, fmt.Errorf("%s holds another playlist than %s: only folders of the same session merge", dir, dirs[0])
		}
		recs, err := LoadRecords(dir, s)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range recs {
			key, err := json.Marshal(r)
			if err != nil {
				return nil, nil, err
			}
			if !seen[string(key)] {
				seen[string(key)] = true
				out = append(out, r)
			}
		}
	}
	return first, out, nil
}

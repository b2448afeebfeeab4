package data

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"pcgwb/internal/safeio"
)

// File is one data file with the check `workbench data import` applies before copying it.
type File struct {
	// Path is slash-separated and relative to the data root, as in pcg_benchmark/probs.
	Path     string
	Validate func([]byte) error
}

// Dataset is a group of files that one or more problems need together.
type Dataset struct {
	Name   string
	UsedBy string
	Files  []File
}

// The reference's content datasets. Rules and constants (SMB noise allowances, Talakat's grammar)
// are facts of the problems and live in their code, not here.
var (
	EliminationWords = &Dataset{
		Name:   "elimination word list",
		UsedBy: "elimination-*",
		Files: []File{
			{"elimination/dictionary.txt", validateDictionary},
			{"elimination/count.txt", validateCounts},
		},
	}
	LodeRunnerPatterns = &Dataset{
		Name:   "lode runner patterns",
		UsedBy: "loderunner-*",
		Files:  []File{{"loderunner/patterns.txt", validatePatterns}},
	}
	LodeRunnerLevels = &Dataset{
		Name:   "lode runner levels",
		UsedBy: "loderunner-*, loderunnertile-*",
		Files:  levelFiles(),
	}
	SMBSlices = &Dataset{
		Name:   "super mario bros slices",
		UsedBy: "smb-*",
		Files:  []File{{"smb/slices.txt", validateSlices}},
	}
)

// Datasets lists every dataset the workbench knows.
func Datasets() []*Dataset {
	return []*Dataset{EliminationWords, LodeRunnerPatterns, LodeRunnerLevels, SMBSlices}
}

// The reference's data formats.
const (
	PatternCount    = 52
	LevelRows       = 22
	LevelCols       = 32
	LevelCount      = 5
	SliceCount      = 126
	SliceHeight     = 16
	maxLodeRunnerID = 6
)

func levelFiles() []File {
	out := make([]File, LevelCount)
	for i := range out {
		out[i] = File{LevelPath(i), validateLevel}
	}
	return out
}

// LevelPath is the data path of the shipped Lode Runner level i.
func LevelPath(i int) string { return fmt.Sprintf("loderunner/data/level_%d.txt", i) }

// Lines splits a text file the way Python's readlines does in text mode: universal newlines
// ("\r\n" and "\r" become "\n"), every line keeps its "\n", and a last line without one is kept
// as it is. Elimination depends on that last detail (the reference drops each line's last
// character, so the final word loses a letter).
func Lines(b []byte) []string {
	s := string(b)
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// nonBlank returns the stripped non-empty lines, with their 1-based line numbers.
func nonBlank(b []byte) ([]string, []int) {
	var out []string
	var nums []int
	for i, l := range Lines(b) {
		if t := strings.TrimSpace(l); t != "" {
			out = append(out, t)
			nums = append(nums, i+1)
		}
	}
	return out, nums
}

// DigitRows parses a file of digit rows (blank lines skipped), checking the shape and the
// largest digit; rows or cols of 0 accept any count.
func DigitRows(b []byte, rows, cols, maxDigit int) ([][]int, error) {
	lines, nums := nonBlank(b)
	if rows > 0 && len(lines) != rows {
		return nil, fmt.Errorf("%d non-empty lines, want %d", len(lines), rows)
	}
	out := make([][]int, len(lines))
	for i, l := range lines {
		if cols > 0 && len(l) != cols {
			return nil, fmt.Errorf("line %d: %d characters, want %d", nums[i], len(l), cols)
		}
		row := make([]int, len(l))
		for j := 0; j < len(l); j++ {
			d := int(l[j]) - '0'
			if d < 0 || d > maxDigit {
				return nil, fmt.Errorf("line %d: %q is not a digit 0-%d", nums[i], l[j], maxDigit)
			}
			row[j] = d
		}
		out[i] = row
	}
	return out, nil
}

func validatePatterns(b []byte) error {
	_, err := DigitRows(b, PatternCount, 4, maxLodeRunnerID)
	return err
}

func validateLevel(b []byte) error {
	_, err := DigitRows(b, LevelRows, LevelCols, maxLodeRunnerID)
	return err
}

func validateSlices(b []byte) error {
	lines, nums := nonBlank(b)
	if len(lines) != SliceCount {
		return fmt.Errorf("%d non-empty lines, want %d", len(lines), SliceCount)
	}
	for i, l := range lines {
		if len(l) != SliceHeight {
			return fmt.Errorf("line %d: %d characters, want %d", nums[i], len(l), SliceHeight)
		}
	}
	return nil
}

// quote quotes at most 60 bytes of a data line in an error.
func quote(s string) string { return safeio.ExcerptN([]byte(s), 60) }

// upperWord: a dictionary entry has no lower-case letter, no white space and at least one letter.
func upperWord(w string) bool {
	letter := false
	for _, r := range w {
		if unicode.IsLower(r) || unicode.IsSpace(r) {
			return false
		}
		letter = letter || unicode.IsLetter(r)
	}
	return letter
}

func validateDictionary(b []byte) error {
	lines, nums := nonBlank(b)
	if len(lines) == 0 {
		return fmt.Errorf("no words")
	}
	for i, l := range lines {
		if !upperWord(l) {
			return fmt.Errorf("line %d: %s is not an upper-case word", nums[i], quote(l))
		}
	}
	return nil
}

func validateCounts(b []byte) error {
	lines, nums := nonBlank(b)
	if len(lines) == 0 {
		return fmt.Errorf("no lines")
	}
	for i, l := range lines {
		word, count, ok := strings.Cut(l, "\t")
		if !ok || strings.Contains(count, "\t") {
			return fmt.Errorf("line %d: want WORD<TAB>COUNT", nums[i])
		}
		if !upperWord(strings.TrimSpace(word)) {
			return fmt.Errorf("line %d: %s is not an upper-case word", nums[i], quote(word))
		}
		if _, err := strconv.ParseInt(strings.TrimSpace(count), 10, 64); err != nil {
			return fmt.Errorf("line %d: count %s is not an integer", nums[i], quote(count))
		}
	}
	return nil
}

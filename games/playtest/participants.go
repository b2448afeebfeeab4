package playtest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"pcgwb/internal/safeio"
)

// Questionnaire is what a study asks (`playtest new --questions FILE`): an optional
// information and consent text, questions asked once per participant before the first level
// (demographics, experience), and questions asked after each level. Answers are chosen among
// options (the kiosk has no keyboard for free text).
type Questionnaire struct {
	Consent   string     `json:"consent,omitempty"`
	Intake    []Question `json:"intake,omitempty"`
	Questions []Question `json:"questions"`
}

// maxQuestionnaireBytes bounds a questionnaire file.
const maxQuestionnaireBytes = 1 << 20

// ReadQuestionnaire reads a questionnaire file.
func ReadQuestionnaire(path string) (*Questionnaire, error) {
	data, err := safeio.ReadFile(path, maxQuestionnaireBytes)
	if err != nil {
		return nil, err
	}
	var q Questionnaire
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return nil, fmt.Errorf("%s: not a questionnaire (consent, intake, questions): %w", path, err)
	}
	if err := checkQuestions(&Session{Consent: q.Consent, Intake: q.Intake, Questions: q.Questions}); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &q, nil
}

// checkQuestions checks a session's questions: ids unique over intake and per-level questions
// (they name columns of plays.csv), short text, 2 to 9 options each.
func checkQuestions(s *Session) error {
	if len(s.Consent) > 8<<10 {
		return fmt.Errorf("the consent text is longer than 8 KiB")
	}
	ids := map[string]bool{}
	for _, part := range []struct {
		name string
		qs   []Question
	}{{"intake question", s.Intake}, {"question", s.Questions}} {
		for i, q := range part.qs {
			if !safeID(q.ID) || ids[q.ID] || len(q.Options) < 2 || len(q.Options) > 9 || q.Text == "" || len(q.Text) > 300 {
				return fmt.Errorf("%s %d (%s): needs a new id (letters, digits, _), a text of at most 300 bytes and 2 to 9 options", part.name, i+1, safeio.ExcerptString(q.ID))
			}
			ids[q.ID] = true
			for _, o := range q.Options {
				if o == "" || len(o) > 40 {
					return fmt.Errorf("%s %s: an option is empty or longer than 40 bytes", part.name, q.ID)
				}
			}
		}
	}
	return nil
}

// safeID accepts question ids usable as CSV column names.
func safeID(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// MaxParticipants bounds participant numbers (codes P01 … P999).
const MaxParticipants = 999

// ParticipantCode is the code of participant number n: P01, P02, …, P100.
func ParticipantCode(n int) string { return fmt.Sprintf("P%02d", n) }

// ParseParticipant reads a participant code ("P07", "p7") or number ("7"). Participants are
// codes, never names: anything else is refused.
func ParseParticipant(s string) (int, error) {
	t := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "P"), "p")
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 || n > MaxParticipants || strings.HasPrefix(t, "+") || strings.HasPrefix(t, "-") {
		return 0, fmt.Errorf("participant %s: give a code P01 … P%d (or its number); participants are codes, never names", safeio.ExcerptString(s), MaxParticipants)
	}
	return n, nil
}

// CheckParticipant refuses anything but a participant code in its canonical form (P07).
func CheckParticipant(code string) error {
	n, err := ParseParticipant(code)
	if err != nil {
		return err
	}
	if ParticipantCode(n) != code {
		return fmt.Errorf("participant %s: write it %s", safeio.ExcerptString(code), ParticipantCode(n))
	}
	return nil
}

// LatinSquare is the balanced Latin square (Williams design) of order n: every level appears
// once in every position, and every level follows every other equally often (first-order
// carry-over balanced). For even n it has n rows; for odd n, 2n (each row and its reverse).
func LatinSquare(n int) [][]int {
	if n <= 0 {
		return nil
	}
	first := make([]int, n)
	lo, hi := 1, n-1
	for j := 1; j < n; j++ {
		if j%2 == 1 {
			first[j] = lo
			lo++
		} else {
			first[j] = hi
			hi--
		}
	}
	rows := make([][]int, 0, 2*n)
	for r := 0; r < n; r++ {
		row := make([]int, n)
		for j := range row {
			row[j] = (first[j] + r) % n
		}
		rows = append(rows, row)
	}
	if n%2 == 1 {
		for r := 0; r < n; r++ {
			row := make([]int, n)
			for j := range row {
				row[j] = rows[r][n-1-j]
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// Order is the order in which participant number n meets the levels: row n−1 (cycling) of
// the balanced Latin square over the playlist, so that orders are counterbalanced across
// participants and the same participant gets the same order on every laptop.
func (s *Session) Order(n int) []int {
	rows := LatinSquare(len(s.Levels))
	if len(rows) == 0 {
		return nil
	}
	return rows[(max(n, 1)-1)%len(rows)]
}

package play

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
)

// Result is how a play session ended.
type Result string

// Results.
const (
	ResultWon    Result = "won"
	ResultLost   Result = "lost"
	ResultQuit   Result = "quit"    // the player left (Esc, closed the window, gave up)
	ResultTimeUp Result = "time up" // the session's time limit passed
)

// MarshalText writes a key by its script name (text:c for letters).
func (k Key) MarshalText() ([]byte, error) {
	if k == KeyNone || k.String() == fmt.Sprintf("Key(%d)", uint8(k)) {
		return nil, fmt.Errorf("play: key %d has no name", uint8(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads a key written by MarshalText.
func (k *Key) UnmarshalText(b []byte) error {
	s := string(b)
	if c, ok := strings.CutPrefix(s, "text:"); ok && len(c) == 1 && c[0] >= 'a' && c[0] <= 'z' {
		*k = Letter(c[0])
		return nil
	}
	if v, ok := namedKeys[s]; ok {
		*k = v
		return nil
	}
	return fmt.Errorf("play: unknown key %s", safeio.Excerpt(b))
}

// TraceEvent is one input of a live session at its tick (ticks count from the session's start,
// 60 a second, restarts included): a key press, or a change of the keys held down (Hold is the
// new set, empty when every key was released). Replayed tick by tick, a trace reproduces the
// session exactly (see Session.SetTrace).
type TraceEvent struct {
	Tick  int   `json:"t"`
	Press Key   `json:"press,omitempty"`
	Hold  *Keys `json:"hold,omitempty"`
}

// Keys is a set of held keys.
type Keys []Key

// Outcome is what a play session reports when it ends: the play window's child process
// writes it as JSON for its parent (the GUI's detail view, a playtest), and playtests record
// it per player and level.
type Outcome struct {
	Problem string  `json:"problem"`
	Level   string  `json:"level,omitempty"`
	Result  Result  `json:"result"`
	Moves   int     `json:"moves"`
	Seconds float64 `json:"seconds"`
	// Ticks is the session's length in ticks (the trace's clock).
	Ticks int          `json:"ticks"`
	Trace []TraceEvent `json:"trace"`
}

// Text is a one-line summary: "won in 12.3 s, 34 moves".
func (o Outcome) Text() string {
	return fmt.Sprintf("%s in %.1f s, %d moves", o.Result, o.Seconds, o.Moves)
}

// MaxOutcomeBytes bounds an outcome file (a long session's trace included).
const MaxOutcomeBytes = 16 << 20

// WriteOutcome writes an outcome file atomically.
func WriteOutcome(path string, o Outcome) error {
	data, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o600)
}

// ReadOutcome reads an outcome file written by WriteOutcome.
func ReadOutcome(path string) (Outcome, error) {
	data, err := safeio.ReadFile(path, MaxOutcomeBytes)
	if err != nil {
		return Outcome{}, err
	}
	return DecodeOutcome(data)
}

// DecodeOutcome parses and checks an outcome.
func DecodeOutcome(data []byte) (Outcome, error) {
	var o Outcome
	if err := json.Unmarshal(data, &o); err != nil {
		return Outcome{}, fmt.Errorf("not a play outcome: %w", err)
	}
	switch o.Result {
	case ResultWon, ResultLost, ResultQuit, ResultTimeUp:
	default:
		return Outcome{}, fmt.Errorf("not a play outcome: result %s", safeio.Excerpt([]byte(o.Result)))
	}
	if o.Moves < 0 || o.Ticks < 0 || o.Seconds < 0 {
		return Outcome{}, errors.New("not a play outcome: negative counts")
	}
	last := 0
	for i, e := range o.Trace {
		if e.Tick < last || e.Tick > o.Ticks || (e.Press == KeyNone) == (e.Hold == nil) {
			return Outcome{}, fmt.Errorf("not a play outcome: trace event %d is out of order or empty", i)
		}
		last = e.Tick
	}
	return o, nil
}

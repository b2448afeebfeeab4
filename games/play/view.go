package play

import "image"

// View is what the play window shows and feeds with keys: a Session, or a playtest's kiosk
// that plays several levels one after another. Its methods are called from one goroutine.
type View interface {
	Press(k Key)
	// Hold tells which keys are held down this tick (games that move with held keys).
	Hold(held []Key)
	Tick()
	Frame() *image.RGBA
	// Quit reports that the view is finished and the window may close.
	Quit() bool
	// Fed reports how many keys of a script or replay were pressed, of how many.
	Fed() (int, int)
	FeedDone() bool
	// Mode is how the keyboard maps to keys right now.
	Mode() Mode
}

// Mode is how the play window maps the keyboard.
type Mode struct {
	// Replay maps the keys to the replay controls (space pauses, → steps, +/- change speed).
	Replay bool
	// TextEntry sends typed letters to the game (restart and undo are not on R and U).
	TextEntry bool
	// Repeat is the number of ticks between two repeats of a held key.
	Repeat int
}

// DefaultRepeat is the key repeat interval of games that do not step in time.
const DefaultRepeat = 6

// Mode is the keyboard mapping of the session's game.
func (s *Session) Mode() Mode {
	m := Mode{Replay: s.replay, Repeat: DefaultRepeat}
	if st, ok := s.game.(Stepper); ok {
		m.Repeat = st.Cadence()
	}
	if te, ok := s.game.(TextEntry); ok {
		m.TextEntry = te.TextEntry()
	}
	return m
}

var _ View = (*Session)(nil)

package play

import "image"

// Key is one input of a game or of the session around it.
type Key uint8

// Keys. Letters follow KeyA in alphabetical order (see Letter).
const (
	KeyNone Key = iota
	KeyLeft
	KeyRight
	KeyUp
	KeyDown
	// KeyAction is the game's action (space): the sword, a jump, dropping a block.
	KeyAction
	// KeyWait lets one step of time pass (gravity acts) without moving.
	KeyWait
	KeyEnter
	KeyBackspace
	// KeyRun is held to run (Mario's speed button).
	KeyRun
	// Session keys: handled by the Session, never passed to the game.
	KeyRestart
	KeyUndo
	KeyQuit
	// Replay controls.
	KeyPause
	KeyStep
	KeyFaster
	KeySlower
	KeyA
	keyZ = KeyA + 25
)

// Letter is the key of a lower-case letter.
func Letter(c byte) Key { return KeyA + Key(c-'a') }

// Letter reports the letter of a letter key.
func (k Key) Letter() (byte, bool) {
	if k >= KeyA && k <= keyZ {
		return byte('a' + k - KeyA), true
	}
	return 0, false
}

// Status is where a game stands.
type Status uint8

const (
	Running Status = iota
	Won
	Lost
)

func (s Status) String() string { return [...]string{"running", "win", "lose"}[s] }

// outcome is the Status of a game state that can be won and lost; a lost state never counts as
// won.
func outcome[S interface {
	Win() bool
	Lose() bool
}](s S) Status {
	switch {
	case s.Lose():
		return Lost
	case s.Win():
		return Won
	}
	return Running
}

// Game is one level of a playable problem. Its methods are called from one goroutine.
type Game interface {
	// Reset restarts the level.
	Reset()
	// Input applies one key press (never a session key).
	Input(k Key)
	// Update advances time by one tick (1/60 s). Turn-based games do nothing.
	Update()
	Status() Status
	// Board draws the current state with the project's sprites (the problem's RenderState).
	Board() image.Image
	// HUD is one line of counters (moves, keys, diamonds, ...).
	HUD() string
	// Controls is a short help line for the game's own keys.
	Controls() string
	// Text is the state as characters, for playthrough transcripts.
	Text() string
	// Solution is the recorded solution of the problem's info (the agents' winning path, the
	// metric's route) as keys from the start of a replay; nil when there is none.
	Solution() []Key
}

// Undoer is a game that can take back its last move.
type Undoer interface {
	Undo() bool
}

// Stepper is a game whose engine steps in time (gravity): while playing live it steps on its
// own every Cadence ticks when no key is pressed. Scripts and replays switch that off
// (SetAuto(false)), so each fed key is exactly one engine step and KeyWait is an idle step,
// which makes them exact whatever their speed.
type Stepper interface {
	Cadence() int
	SetAuto(on bool)
}

// Holder is a game that moves with the keys held down (Talakat's ship), read every tick while
// playing live; scripts and replays press keys instead, one step each.
type Holder interface {
	Hold(held []Key)
}

// TextEntry is a game played by typing: letter keys go to the game, so restart and undo are
// not on R and U.
type TextEntry interface {
	TextEntry() bool
}

// ReplayStarter is a game whose replay starts from another state than play does (Building is
// inspected finished but replayed from the empty lot).
type ReplayStarter interface {
	StartReplay()
}

// Bannered is a game that names its own outcome (shown instead of "YOU WIN" / "GAME OVER").
type Bannered interface {
	Banner() string
}

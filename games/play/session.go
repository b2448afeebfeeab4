package play

import (
	"fmt"
	"image"
	"slices"
	"strings"
)

// TPS is the session's tick rate: Update runs this many times a second.
const TPS = 60

// ScriptInterval is the number of ticks between two keys of a script.
const ScriptInterval = 6

// replaySpeeds are the replay's steps per second (+ and - move along the list).
var replaySpeeds = []int{1, 2, 4, 8, 15, 30, 60}

const defaultReplaySpeed = 2 // index into replaySpeeds: 4 steps a second

// Session drives one game: it routes keys (restart, undo, quit and the replay controls it
// handles itself, the others go to the game), feeds a script or the recorded solution through
// that same Press, counts time, and composes the frames. Every input, from the keyboard, a
// script or a replay, goes through Press.
type Session struct {
	Name string
	game Game
	// replay: the fed keys are the game's solution, with pause, step and speed controls.
	replay bool
	feed   []Key
	fed    int
	// wait counts the ticks to the next fed key.
	wait   int
	paused bool
	speed  int
	ticks  int
	quit   bool
	// OnFeed, when set, is called after each fed key has been played (transcripts).
	OnFeed func(k Key)

	// clock counts every tick since the session started (restarts included): the trace's time.
	clock int
	// moves counts, since the last restart, the moves of a game that does not count its own
	// (see Mover): key presses that changed the game's state (waiting is not a move), and for
	// a game moved by held keys each key pressed down.
	moves int
	trace []TraceEvent
	held  []Key
	// limit is the time limit in ticks of play (0: none); timeUp is set once it has passed.
	limit  int
	timeUp bool
	// playback is a recorded trace being replayed (SetTrace); played is how much of it was.
	playback []TraceEvent
	played   int
	// textScale draws the frame's text this many times as large (1; 2 in a kiosk).
	textScale int
}

// NewSession starts a session on a game; with replay set it plays the game's recorded
// solution.
func NewSession(name string, g Game, replay bool) *Session {
	s := &Session{Name: name, game: g, replay: replay, speed: defaultReplaySpeed}
	if st, ok := g.(Stepper); ok {
		// A game that steps in time replays at its own pace.
		for i, v := range replaySpeeds {
			if v <= TPS/max(1, st.Cadence()) {
				s.speed = i
			}
		}
	}
	s.restart()
	return s
}

// Game is the session's game.
func (s *Session) Game() Game { return s.game }

// SetScript makes the session press keys, one every ScriptInterval ticks, from the next tick
// on (a replay's solution is replaced). Automatic engine steps are off while a script plays,
// so each key is one step.
func (s *Session) SetScript(keys []Key) {
	s.feed, s.fed, s.wait = keys, 0, 1
	s.replay = false
	if st, ok := s.game.(Stepper); ok {
		st.SetAuto(false)
	}
}

// restart resets the game (and the replay to its first step).
func (s *Session) restart() {
	s.game.Reset()
	s.ticks, s.moves = 0, 0
	if st, ok := s.game.(Stepper); ok {
		st.SetAuto(!s.replay && s.feed == nil)
	}
	if s.replay {
		if r, ok := s.game.(ReplayStarter); ok {
			r.StartReplay()
		}
		s.feed, s.fed, s.wait = s.game.Solution(), 0, s.interval()
	}
}

// interval is the number of ticks between two fed keys.
func (s *Session) interval() int {
	if s.replay {
		return max(1, TPS/replaySpeeds[s.speed])
	}
	return ScriptInterval
}

// Press handles one key.
func (s *Session) Press(k Key) {
	if k != KeyNone && !s.quit && !s.timeUp {
		s.trace = append(s.trace, TraceEvent{Tick: s.clock, Press: k})
	}
	switch k {
	case KeyNone:
	case KeyQuit:
		s.quit = true
	case KeyRestart:
		s.restart()
	case KeyUndo:
		if u, ok := s.game.(Undoer); ok {
			u.Undo()
		}
	case KeyPause:
		if s.replay {
			s.paused = !s.paused
		}
	case KeyStep:
		if s.replay {
			s.paused = true
			s.feedNext()
		}
	case KeyFaster, KeySlower:
		if s.replay {
			d := 1
			if k == KeySlower {
				d = -1
			}
			s.speed = min(max(s.speed+d, 0), len(replaySpeeds)-1)
			s.wait = min(s.wait, s.interval())
		}
	default:
		if s.timeUp || s.quit {
			return
		}
		if _, ok := s.game.(Mover); ok || k == KeyWait {
			s.game.Input(k)
			return
		}
		before := s.game.Text()
		s.game.Input(k)
		if s.game.Text() != before {
			s.moves++
		}
	}
}

// Hold tells a game that moves with held keys which keys are down (the window calls it every
// tick before Tick).
func (s *Session) Hold(held []Key) {
	h, ok := s.game.(Holder)
	if !ok {
		return
	}
	if !slices.Equal(held, s.held) {
		for _, k := range held {
			if !slices.Contains(s.held, k) && s.game.Status() == Running && !s.timeUp {
				s.moves++
			}
		}
		s.held = append(s.held[:0], held...)
		hk := append(Keys{}, held...)
		s.trace = append(s.trace, TraceEvent{Tick: s.clock, Hold: &hk})
	}
	h.Hold(held)
}

// feedNext presses the next key of the script or solution.
func (s *Session) feedNext() {
	if s.fed >= len(s.feed) {
		return
	}
	k := s.feed[s.fed]
	s.fed++
	s.Press(k)
	if s.OnFeed != nil {
		s.OnFeed(k)
	}
}

// Tick advances the session by 1/60 s: the next fed key when it is due, then the game.
func (s *Session) Tick() {
	if s.quit || s.timeUp {
		return
	}
	for s.played < len(s.playback) && s.playback[s.played].Tick <= s.clock {
		e := s.playback[s.played]
		s.played++
		if e.Hold != nil {
			s.Hold(*e.Hold)
		} else {
			s.Press(e.Press)
		}
	}
	if !s.paused && s.fed < len(s.feed) {
		s.wait--
		if s.wait <= 0 {
			s.feedNext()
			s.wait = s.interval()
		}
	}
	s.game.Update()
	s.clock++
	if s.game.Status() == Running {
		s.ticks++
		if s.limit > 0 && s.ticks >= s.limit {
			s.timeUp = true
		}
	}
}

// SetTimeLimit ends the session as "time up" after d seconds of play (0: no limit).
func (s *Session) SetTimeLimit(seconds float64) { s.limit = int(seconds * TPS) }

// TimeUp reports that the time limit has passed.
func (s *Session) TimeUp() bool { return s.timeUp }

// SetTrace replays a recorded trace: each event is applied at its tick, as the player's keys
// were, so the session goes through the same states (games that step in time keep stepping on
// their own, as they did live).
func (s *Session) SetTrace(trace []TraceEvent) {
	s.playback, s.played = trace, 0
	s.replay, s.feed = false, nil
	if st, ok := s.game.(Stepper); ok {
		st.SetAuto(true)
	}
}

// TraceDone reports that a replayed trace has been played to its end.
func (s *Session) TraceDone() bool { return s.played >= len(s.playback) }

// Outcome is the session's outcome so far: won or lost once the game is over, time up once the
// limit has passed, else quit (the player left a level still running).
func (s *Session) Outcome(problem, level string) Outcome {
	o := Outcome{Problem: problem, Level: level, Moves: s.Moves(), Seconds: s.Seconds(), Ticks: s.clock,
		Trace: slices.Clone(s.trace)}
	switch {
	case s.game.Status() == Won:
		o.Result = ResultWon
	case s.game.Status() == Lost:
		o.Result = ResultLost
	case s.timeUp:
		o.Result = ResultTimeUp
	default:
		o.Result = ResultQuit
	}
	if o.Trace == nil {
		o.Trace = []TraceEvent{}
	}
	return o
}

// Moves are the moves of the attempt in play (since the last restart): the game's own count
// when it keeps one (Mover), else the key presses that changed its state.
func (s *Session) Moves() int {
	if m, ok := s.game.(Mover); ok {
		return m.Moves()
	}
	return s.moves
}

// Quit reports that the player asked to leave.
func (s *Session) Quit() bool { return s.quit }

// Fed reports how many keys of the script or solution were pressed, of how many.
// A replayed trace counts as fed keys.
func (s *Session) Fed() (int, int) {
	if s.playback != nil {
		return s.played, len(s.playback)
	}
	return s.fed, len(s.feed)
}

// FeedDone reports that the script, solution or trace has been played to its end.
func (s *Session) FeedDone() bool {
	if s.playback != nil {
		return s.TraceDone()
	}
	return s.fed >= len(s.feed)
}

// Status is the game's status.
func (s *Session) Status() Status { return s.game.Status() }

// Seconds is the playing time so far (the clock stops at a win or a loss).
func (s *Session) Seconds() float64 { return float64(s.ticks) / TPS }

// Result is the one-line outcome the CLI prints: "result: win (moves 12, 3.4 s)".
func (s *Session) Result() string {
	return fmt.Sprintf("result: %s (%s, %.1f s)", s.game.Status(), s.game.HUD(), s.Seconds())
}

// Frame composes the current frame: the board, a banner once the game is over, and the HUD.
func (s *Session) Frame() *image.RGBA {
	banner, bannerC := "", textColor
	switch s.game.Status() {
	case Won:
		banner, bannerC = "YOU WIN", winColor
	case Lost:
		banner, bannerC = "GAME OVER", loseColor
	}
	if b, ok := s.game.(Bannered); ok && banner != "" {
		banner = b.Banner()
	}
	title := fmt.Sprintf("%s  %s  %.1f s", s.Name, strings.ToUpper(s.game.Status().String()), s.Seconds())
	lines := []hudLine{{title, textColor}, {s.game.HUD(), textColor}}
	if s.replay {
		state := "playing"
		if s.paused {
			state = "paused"
		}
		if s.FeedDone() {
			state = "done"
		}
		lines = append(lines, hudLine{fmt.Sprintf("replay %d/%d  %d steps/s  %s", s.fed, len(s.feed), replaySpeeds[s.speed], state), winColor})
	}
	lines = append(lines, hudLine{s.Controls(), dimColor})
	return compose(s.game.Board(), banner, bannerC, lines, max(1, s.textScale))
}

// SetLargeText draws the frame's text (banner, counters, keys) twice as large, for a kiosk
// read from a distance.
func (s *Session) SetLargeText(on bool) {
	s.textScale = 1
	if on {
		s.textScale = 2
	}
}

// Controls is the help line: the game's keys, then the session's.
func (s *Session) Controls() string {
	var parts []string
	if s.replay {
		parts = append(parts, "space pause", "Right step", "+/- speed")
	} else if c := s.game.Controls(); c != "" {
		parts = append(parts, c)
	}
	restart := "R restart"
	if te, ok := s.game.(TextEntry); ok && te.TextEntry() {
		restart = "F5 restart"
	}
	parts = append(parts, restart)
	if _, ok := s.game.(Undoer); ok && !s.replay {
		parts = append(parts, "U undo")
	}
	parts = append(parts, "Esc quit")
	return strings.Join(parts, "  ")
}

package playtest

import (
	"fmt"
	"image"

	"pcgwb/games/play"
	"pcgwb/problems"
)

// Kiosk plays a session's levels one after another for one player, in kiosk style: a pause
// screen before each level (Enter plays, Esc takes a break: the window closes and the next
// `playtest play` resumes there), the level itself (Esc gives it up), its outcome until Enter,
// then the questionnaire (←/→ choose, Enter answers). The record is saved when the last
// question is answered, so a kill loses at most the level in play. It is a play.View.
type Kiosk struct {
	s      *Session
	player string
	// save stores a finished level's record (SaveRecord in the session folder).
	save func(Record) error
	// todo are the levels left, in the player's order.
	todo  []int
	state kioskState
	level int // index into s.Levels of the level in play
	game  *play.Session
	// question is the questionnaire's current question and choice the highlighted answer.
	question, choice int
	answers          map[string]string
	outcome          play.Outcome
	// boards are the last pictures of the levels played, for the closing screen.
	boards []image.Image
	err    error
	quit   bool
	// script feeds keys, one every play.ScriptInterval ticks (tests, the smoke test).
	script []play.Key
	fed    int
	wait   int
	played int
}

type kioskState uint8

const (
	statePause kioskState = iota
	statePlaying
	stateOver
	stateQuestions
	stateDone
)

// NewKiosk starts a kiosk for player over the levels the player has no record of (done lists
// the recorded ones). save is called with each finished level's record.
func NewKiosk(s *Session, player string, done []Record, save func(Record) error) (*Kiosk, error) {
	if err := CheckPlayer(player); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, r := range done {
		if r.Player == player {
			seen[r.Level] = true
		}
	}
	k := &Kiosk{s: s, player: player, save: save}
	for _, i := range s.Order(player) {
		if !seen[s.Levels[i].Name] {
			k.todo = append(k.todo, i)
		}
	}
	if len(k.todo) == 0 {
		k.state = stateDone
	}
	return k, nil
}

// Left is the number of levels still to play (the one in play included).
func (k *Kiosk) Left() int { return len(k.todo) }

// Played is the number of levels recorded by this kiosk.
func (k *Kiosk) Played() int { return k.played }

// Err is the error that stopped the kiosk (a record that could not be saved).
func (k *Kiosk) Err() error { return k.err }

// SetScript makes the kiosk press keys, one every play.ScriptInterval ticks.
func (k *Kiosk) SetScript(keys []play.Key) { k.script, k.fed, k.wait = keys, 0, 1 }

// start opens the next level.
func (k *Kiosk) start() error {
	l := k.s.Levels[k.todo[0]]
	p, err := problems.Make(l.Problem)
	if err != nil {
		return err
	}
	g, err := play.New(l.Problem, p, l.Item.Content)
	if err != nil {
		return fmt.Errorf("%s: %w", l.Name, err)
	}
	k.level = k.todo[0]
	k.game = play.NewSession(l.Name, g, false)
	k.game.SetTimeLimit(k.s.TimeLimit)
	k.state = statePlaying
	return nil
}

// finish ends the level in play and shows its outcome.
func (k *Kiosk) finish() {
	k.outcome = k.game.Outcome(k.s.Levels[k.level].Problem, k.s.Levels[k.level].Name)
	k.boards = append(k.boards, k.game.Game().Board())
	k.state = stateOver
}

// Press handles one key.
func (k *Kiosk) Press(key play.Key) {
	switch k.state {
	case statePause:
		switch key {
		case play.KeyEnter, play.KeyAction:
			if err := k.start(); err != nil {
				k.err, k.quit = err, true
			}
		case play.KeyQuit:
			k.quit = true
		}
	case statePlaying:
		if key == play.KeyQuit {
			k.finish()
			return
		}
		k.game.Press(key)
	case stateOver:
		if key == play.KeyEnter || key == play.KeyAction {
			k.state, k.question, k.answers = stateQuestions, 0, map[string]string{}
			k.choice = k.middle()
			if len(k.s.Questions) == 0 {
				k.record()
			}
		}
	case stateQuestions:
		q := k.s.Questions[k.question]
		switch key {
		case play.KeyLeft, play.KeyUp:
			k.choice = max(k.choice-1, 0)
		case play.KeyRight, play.KeyDown:
			k.choice = min(k.choice+1, len(q.Options)-1)
		case play.KeyEnter, play.KeyAction:
			k.answers[q.ID] = q.Options[k.choice]
			k.question++
			if k.question == len(k.s.Questions) {
				k.record()
				return
			}
			k.choice = k.middle()
		}
	case stateDone:
		if key == play.KeyQuit || key == play.KeyEnter {
			k.quit = true
		}
	}
}

// middle is the first highlighted answer of the current question: the middle one.
func (k *Kiosk) middle() int {
	if k.question >= len(k.s.Questions) {
		return 0
	}
	return (len(k.s.Questions[k.question].Options) - 1) / 2
}

// record saves the finished level and moves on.
func (k *Kiosk) record() {
	r := Record{Player: k.player, Level: k.s.Levels[k.level].Name, Outcome: k.outcome, Answers: k.answers}
	if err := k.save(r); err != nil {
		k.err, k.quit = err, true
		return
	}
	k.played++
	k.todo = k.todo[1:]
	k.game = nil
	k.state = statePause
	if len(k.todo) == 0 {
		k.state = stateDone
	}
}

// Hold passes held keys to the level in play.
func (k *Kiosk) Hold(held []play.Key) {
	if k.state == statePlaying {
		k.game.Hold(held)
	}
}

// Tick advances the kiosk by 1/60 s.
func (k *Kiosk) Tick() {
	if k.quit {
		return
	}
	if k.fed < len(k.script) {
		k.wait--
		if k.wait <= 0 {
			k.Press(k.script[k.fed])
			k.fed++
			k.wait = play.ScriptInterval
		}
	}
	if k.state == statePlaying {
		k.game.Tick()
		if k.game.Status() != play.Running || k.game.TimeUp() {
			k.finish()
		}
	}
}

// Quit reports that the window may close: a break, the end, or an error.
func (k *Kiosk) Quit() bool { return k.quit }

// Fed reports the script's progress.
func (k *Kiosk) Fed() (int, int) { return k.fed, len(k.script) }

// FeedDone reports that the script has been played.
func (k *Kiosk) FeedDone() bool { return k.fed >= len(k.script) }

// Mode maps the keyboard: the level's own mapping while playing, arrows and Enter otherwise.
func (k *Kiosk) Mode() play.Mode {
	if k.state == statePlaying {
		m := k.game.Mode()
		m.Replay = false
		return m
	}
	return play.Mode{Repeat: play.DefaultRepeat}
}

// Frame is the current screen.
func (k *Kiosk) Frame() *image.RGBA {
	total := len(k.s.Levels)
	n := total - len(k.todo) + 1
	switch k.state {
	case statePlaying:
		return k.game.Frame()
	case stateOver:
		return play.TextFrame(k.s.Levels[k.level].Name+": "+resultText(k.outcome.Result), []play.TextLine{
			{Text: fmt.Sprintf("%.1f s, %d moves", k.outcome.Seconds, k.outcome.Moves)},
			{Text: ""},
			{Text: fmt.Sprintf("Press Enter to answer %d quick questions.", len(k.s.Questions)), Hi: true},
		}, k.game.Game().Board())
	case stateQuestions:
		q := k.s.Questions[k.question]
		lines := []play.TextLine{{Text: q.Text}, {Text: ""}}
		row := ""
		for i, o := range q.Options {
			if i == k.choice {
				row += "[" + o + "]  "
			} else {
				row += " " + o + "   "
			}
		}
		lines = append(lines, play.TextLine{Text: row, Hi: true}, play.TextLine{Text: ""},
			play.TextLine{Text: fmt.Sprintf("Question %d of %d.  Left/Right choose, Enter answers.", k.question+1, len(k.s.Questions))})
		return play.TextFrame(k.s.Levels[k.level].Name, lines)
	case stateDone:
		return play.TextFrame("Thank you!", []play.TextLine{
			{Text: fmt.Sprintf("You played all %d levels. Your answers are saved.", total)},
			{Text: ""}, {Text: "Press Esc to close.", Hi: true}}, k.boards...)
	}
	return play.TextFrame(k.s.Levels[k.todo[0]].Name, []play.TextLine{
		{Text: fmt.Sprintf("Level %d of %d for %s.", n, total, k.player)},
		{Text: ""},
		{Text: "Press Enter to play.", Hi: true},
		{Text: "Press Esc to take a break: the next start resumes here."},
		{Text: ""},
		{Text: "In a level: Esc gives it up."},
	})
}

var _ play.View = (*Kiosk)(nil)

// resultText is a result as players read it: a level left before its end was given up.
func resultText(r play.Result) string {
	if r == play.ResultQuit {
		return "gave up"
	}
	return string(r)
}

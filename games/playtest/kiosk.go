package playtest

import (
	"fmt"
	"image"
	"strings"
	"time"

	"pcgwb/games/play"
	"pcgwb/problems"
)

// Kiosk plays a session's levels one after another for one participant, in kiosk style: the
// information and consent screen and the intake questions first when the session has them
// (once per participant), then the levels in the participant's row of the balanced Latin
// square, each with a pause screen before it (Enter plays, Esc takes a break: the window closes and the next
// `playtest play` resumes there), the level itself (Esc gives it up), its outcome until Enter,
// then the questionnaire (←/→ choose, Enter answers). The record is saved when the last
// question is answered, so a kill loses at most the level in play. It is a play.View.
type Kiosk struct {
	s      *Session
	player string
	store  KioskStore
	// order is the participant's order of the levels; todo are the levels left, in that order.
	order []int
	todo  []int
	// started and ended are when the level in play was opened and ended.
	started, ended time.Time
	state          kioskState
	level          int // index into s.Levels of the level in play
	game           *play.Session
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
	stateConsent kioskState = iota
	stateIntake
	statePause
	statePlaying
	stateOver
	stateQuestions
	stateDone
)

// KioskStore is where a kiosk finds and keeps its participant's records.
type KioskStore struct {
	// Done are the records already made (of any participant); Intake the participant's own
	// record when consent and intake were given already.
	Done   []Record
	Intake *ParticipantRecord
	// Save stores a finished level's record, SaveParticipant the consent and intake answers.
	Save            func(Record) error
	SaveParticipant func(ParticipantRecord) error
	// Now is the clock of the records' start and end times (time.Now).
	Now func() time.Time
}

// NewKiosk starts a kiosk for participant number n over the levels the participant has no
// record of.
func NewKiosk(s *Session, n int, store KioskStore) (*Kiosk, error) {
	if n < 1 || n > MaxParticipants {
		return nil, fmt.Errorf("participant number %d: give 1 to %d", n, MaxParticipants)
	}
	if store.Now == nil {
		store.Now = time.Now
	}
	code := ParticipantCode(n)
	seen := map[string]bool{}
	for _, r := range store.Done {
		if r.Participant == code {
			seen[r.Level] = true
		}
	}
	k := &Kiosk{s: s, player: code, store: store, order: s.Order(n), state: statePause}
	for _, i := range k.order {
		if !seen[s.Levels[i].Name] {
			k.todo = append(k.todo, i)
		}
	}
	switch {
	case len(k.todo) == 0:
		k.state = stateDone
	case store.Intake != nil:
	case s.Consent != "":
		k.state = stateConsent
	case len(s.Intake) > 0:
		k.startIntake()
	}
	return k, nil
}

// Participant is the kiosk's participant code.
func (k *Kiosk) Participant() string { return k.player }

// startIntake asks the intake questions (or, without any, records the consent).
func (k *Kiosk) startIntake() {
	k.state, k.question, k.answers = stateIntake, 0, map[string]string{}
	if len(k.s.Intake) == 0 {
		k.saveIntake()
		return
	}
	k.choice = middleOf(k.s.Intake, 0)
}

// saveIntake records the consent and intake answers, then shows the first level's pause.
func (k *Kiosk) saveIntake() {
	r := ParticipantRecord{Participant: k.player, Consented: k.s.Consent != "", At: k.store.Now().UTC(), Answers: k.answers}
	if k.store.SaveParticipant != nil {
		if err := k.store.SaveParticipant(r); err != nil {
			k.err, k.quit = err, true
			return
		}
	}
	k.state = statePause
}

// position is the place of level i in the participant's order (1 = first).
func (k *Kiosk) position(i int) int {
	for j, x := range k.order {
		if x == i {
			return j + 1
		}
	}
	return 0
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
	k.started = k.store.Now().UTC()
	k.game = play.NewSession(l.Name, g, false)
	k.game.SetLargeText(true) // read from a distance
	k.game.SetTimeLimit(k.s.TimeLimit)
	k.state = statePlaying
	return nil
}

// finish ends the level in play and shows its outcome.
func (k *Kiosk) finish() {
	k.outcome = k.game.Outcome(k.s.Levels[k.level].Problem, k.s.Levels[k.level].Name)
	k.ended = k.store.Now().UTC()
	k.boards = append(k.boards, k.game.Game().Board())
	k.state = stateOver
}

// Press handles one key.
func (k *Kiosk) Press(key play.Key) {
	switch k.state {
	case stateConsent:
		switch key {
		case play.KeyEnter:
			k.startIntake()
		case play.KeyQuit:
			k.quit = true // declined: nothing is recorded
		}
	case stateIntake:
		if key == play.KeyQuit {
			k.quit = true // left before the first level: asked again next time
			return
		}
		k.answer(k.s.Intake, key, k.saveIntake)
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
		k.answer(k.s.Questions, key, k.record)
	case stateDone:
		if key == play.KeyQuit || key == play.KeyEnter {
			k.quit = true
		}
	}
}

// middle is the first highlighted answer of the current question: the middle one.
func (k *Kiosk) middle() int { return middleOf(k.s.Questions, k.question) }

// middleOf is the middle answer of question i of qs (0 past the last).
func middleOf(qs []Question, i int) int {
	if i >= len(qs) {
		return 0
	}
	return (len(qs[i].Options) - 1) / 2
}

// answer handles a key on a questionnaire screen over qs (the current one is k.question):
// ←/→ choose, Enter answers and moves on; done is called after the last answer.
func (k *Kiosk) answer(qs []Question, key play.Key, done func()) {
	q := qs[k.question]
	switch key {
	case play.KeyLeft, play.KeyUp:
		k.choice = max(k.choice-1, 0)
	case play.KeyRight, play.KeyDown:
		k.choice = min(k.choice+1, len(q.Options)-1)
	case play.KeyEnter, play.KeyAction:
		k.answers[q.ID] = q.Options[k.choice]
		k.question++
		if k.question == len(qs) {
			done()
			return
		}
		k.choice = middleOf(qs, k.question)
	}
}

// record saves the finished level and moves on.
func (k *Kiosk) record() {
	r := Record{Participant: k.player, Level: k.s.Levels[k.level].Name, Position: k.position(k.level),
		Start: k.started, End: k.ended, Outcome: k.outcome, Answers: k.answers}
	if err := k.store.Save(r); err != nil {
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
		lines = append(lines, play.TextLine{Text: optionRow(q, k.choice), Hi: true}, play.TextLine{Text: ""},
			play.TextLine{Text: fmt.Sprintf("Question %d of %d.  Left/Right choose, Enter answers.", k.question+1, len(k.s.Questions))})
		return play.TextFrame(k.s.Levels[k.level].Name, lines)
	case stateConsent:
		lines := []play.TextLine{}
		for _, l := range strings.Split(k.s.Consent, "\n") {
			lines = append(lines, play.TextLine{Text: l})
		}
		lines = append(lines, play.TextLine{}, play.TextLine{Text: "Enter: I agree and take part.   Esc: I do not take part.", Hi: true})
		return play.TextFrame("Information and consent ("+k.player+")", lines)
	case stateIntake:
		q := k.s.Intake[k.question]
		return play.TextFrame("About you ("+k.player+")", []play.TextLine{{Text: q.Text}, {},
			{Text: optionRow(q, k.choice), Hi: true}, {},
			{Text: fmt.Sprintf("Question %d of %d.  Left/Right choose, Enter answers.", k.question+1, len(k.s.Intake))}})
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

// optionRow is a question's options on one line, the chosen one in brackets.
func optionRow(q Question, choice int) string {
	row := ""
	for i, o := range q.Options {
		if i == choice {
			row += "[" + o + "]  "
		} else {
			row += " " + o + "   "
		}
	}
	return row
}

// resultText is a result as players read it: a level left before its end was given up.
func resultText(r play.Result) string {
	if r == play.ResultQuit {
		return "gave up"
	}
	return string(r)
}

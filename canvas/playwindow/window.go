// Package playwindow shows a play.View (a play.Session, a playtest kiosk) in an Ebiten window;
// with canvas/birdsview/window it is one of the two packages that import Ebiten, both run in a
// child process of their own. It turns keystrokes into play.Keys (the same Press a script or a replay
// uses), ticks the session at 60 Hz, and draws the session's frames scaled by whole factors.
//
// Ebiten wants the main thread and runs once per process, so the workbench opens this window
// in a child process (`workbench play ...`), never inside the Fyne GUI.
package playwindow

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"pcgwb/assets"
	"pcgwb/games/play"
)

// Options of a play window.
type Options struct {
	Title string
	// Screenshot, when set, saves the window's pixels (read back from the GPU) as a PNG once
	// the session's script or replay has been played (or after a second without one), then
	// closes the window.
	Screenshot string
	// ExitAfter closes the window after this long (0: never).
	ExitAfter time.Duration
	// Fullscreen fills the screen (playtest kiosks).
	Fullscreen bool
	// Done, when closed, closes the window (the command's context: Ctrl-C, SIGTERM).
	Done <-chan struct{}
}

// Key repeat: a held key presses again after repeatDelay ticks, then every repeat interval
// (the game's cadence for games that step in time).
const (
	repeatDelay = 15
	// shotSettle is the number of ticks between the end of the script and the screenshot,
	// so the last frames (banner included) are on screen.
	shotSettle = 20
	// shotWithout is when a session without a script is captured.
	shotWithout = 60
)

// Run opens the window and plays the session until the player quits (Esc), ExitAfter passes
// or the screenshot is taken.
func Run(s play.View, opt Options) error {
	f := s.Frame()
	fw, fh := f.Rect.Dx(), f.Rect.Dy()
	scale := max(1, int(assets.PixelScale(fw, fh, 1200, 760)))
	ebiten.SetWindowSize(fw*scale, fh*scale)
	ebiten.SetWindowTitle(opt.Title)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetFullscreen(opt.Fullscreen)
	ebiten.SetRunnableOnUnfocused(true)
	ebiten.SetTPS(play.TPS)
	l := &loop{s: s, opt: opt, start: time.Now()}
	err := ebiten.RunGame(l)
	if err != nil {
		err = fmt.Errorf("cannot open the play window: %w", err)
	}
	if err == nil {
		err = l.shotErr
	}
	if err == nil && opt.Screenshot != "" && !l.shotTaken {
		err = errors.New("the window closed before the screenshot was taken")
	}
	return err
}

type loop struct {
	s     play.View
	opt   Options
	start time.Time
	mode  play.Mode

	frame         *ebiten.Image
	ticks         int
	shotCountdown int
	wantShot      bool
	shotTaken     bool
	shotErr       error
	runes         []rune
	held          []play.Key
}

type binding struct {
	key    ebiten.Key
	play   play.Key
	repeat bool
}

// bindings are the keyboard's keys in the current mode.
func (l *loop) bindings() []binding {
	b := []binding{{ebiten.KeyEscape, play.KeyQuit, false}, {ebiten.KeyF5, play.KeyRestart, false}}
	if l.mode.Replay {
		return append(b,
			binding{ebiten.KeySpace, play.KeyPause, false},
			binding{ebiten.KeyArrowRight, play.KeyStep, true},
			binding{ebiten.KeyEqual, play.KeyFaster, false},
			binding{ebiten.KeyNumpadAdd, play.KeyFaster, false},
			binding{ebiten.KeyMinus, play.KeySlower, false},
			binding{ebiten.KeyNumpadSubtract, play.KeySlower, false},
			binding{ebiten.KeyR, play.KeyRestart, false},
		)
	}
	b = append(b,
		binding{ebiten.KeyArrowLeft, play.KeyLeft, true},
		binding{ebiten.KeyArrowRight, play.KeyRight, true},
		binding{ebiten.KeyArrowUp, play.KeyUp, true},
		binding{ebiten.KeyArrowDown, play.KeyDown, true},
		binding{ebiten.KeyEnter, play.KeyEnter, false},
		binding{ebiten.KeyNumpadEnter, play.KeyEnter, false},
		binding{ebiten.KeyBackspace, play.KeyBackspace, true},
	)
	if !l.mode.TextEntry {
		b = append(b,
			binding{ebiten.KeySpace, play.KeyAction, false},
			binding{ebiten.KeyPeriod, play.KeyWait, true},
			binding{ebiten.KeyR, play.KeyRestart, false},
			binding{ebiten.KeyU, play.KeyUndo, true},
		)
	}
	return b
}

// pressed lists the keys pressed this tick, held keys repeating.
func (l *loop) pressed() []play.Key {
	var out []play.Key
	for _, b := range l.bindings() {
		d := inpututil.KeyPressDuration(b.key)
		if d == 1 || b.repeat && d > repeatDelay && (d-repeatDelay)%max(1, l.mode.Repeat) == 0 {
			out = append(out, b.play)
		}
	}
	if l.mode.TextEntry && !l.mode.Replay {
		l.runes = ebiten.AppendInputChars(l.runes[:0])
		for _, r := range l.runes {
			if r >= 'A' && r <= 'Z' {
				r += 'a' - 'A'
			}
			if r >= 'a' && r <= 'z' {
				out = append(out, play.Letter(byte(r)))
			}
		}
	}
	return out
}

func (l *loop) Update() error {
	select {
	case <-l.opt.Done:
		return ebiten.Termination
	default:
	}
	if l.s.Quit() || l.shotTaken || l.shotErr != nil || l.opt.ExitAfter > 0 && time.Since(l.start) > l.opt.ExitAfter {
		return ebiten.Termination
	}
	l.mode = l.s.Mode()
	for _, k := range l.pressed() {
		l.s.Press(k)
	}
	if !l.mode.Replay {
		l.held = l.held[:0]
		for _, b := range [...]binding{{ebiten.KeyArrowLeft, play.KeyLeft, false}, {ebiten.KeyArrowRight, play.KeyRight, false},
			{ebiten.KeyArrowUp, play.KeyUp, false}, {ebiten.KeyArrowDown, play.KeyDown, false},
			{ebiten.KeySpace, play.KeyAction, false}, {ebiten.KeyShiftLeft, play.KeyRun, false},
			{ebiten.KeyShiftRight, play.KeyRun, false}} {
			if ebiten.IsKeyPressed(b.key) {
				l.held = append(l.held, b.play)
			}
		}
		l.s.Hold(l.held)
	}
	l.s.Tick()
	l.ticks++
	if l.opt.Screenshot != "" && !l.wantShot {
		if _, total := l.s.Fed(); total > 0 && l.s.FeedDone() || total == 0 && l.ticks >= shotWithout {
			l.shotCountdown++
			l.wantShot = l.shotCountdown >= shotSettle || total == 0
		}
	}
	return nil
}

func (l *loop) Draw(screen *ebiten.Image) {
	f := l.s.Frame()
	if l.frame == nil || l.frame.Bounds().Size() != f.Rect.Size() {
		if l.frame != nil {
			l.frame.Deallocate()
		}
		l.frame = ebiten.NewImage(f.Rect.Dx(), f.Rect.Dy())
	}
	l.frame.WritePixels(f.Pix)
	sw, sh := screen.Bounds().Dx(), screen.Bounds().Dy()
	scale := assets.PixelScale(f.Rect.Dx(), f.Rect.Dy(), float64(sw), float64(sh))
	screen.Fill(assets.Palette['k'])
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Scale(scale, scale)
	op.GeoM.Translate((float64(sw)-scale*float64(f.Rect.Dx()))/2, (float64(sh)-scale*float64(f.Rect.Dy()))/2)
	screen.DrawImage(l.frame, op)
	if l.wantShot && !l.shotTaken && l.shotErr == nil {
		l.shotErr = l.capture(screen)
		l.shotTaken = l.shotErr == nil
	}
}

// capture reads the screen back from the GPU and saves it.
func (l *loop) capture(screen *ebiten.Image) error {
	b := screen.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	screen.ReadPixels(img.Pix)
	out, err := os.Create(l.opt.Screenshot)
	if err != nil {
		return err
	}
	if err := png.Encode(out, img); err != nil {
		out.Close()
		return fmt.Errorf("screenshot: %w", err)
	}
	return out.Close()
}

func (l *loop) Layout(outsideWidth, outsideHeight int) (int, int) {
	return outsideWidth, outsideHeight
}

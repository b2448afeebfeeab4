// Package window shows a birdsview.View in an Ebiten window. Like canvas/playwindow it is
// opened in a child process (`workbench birds animate LEVEL`), never inside the Fyne GUI:
// Ebiten wants the main thread of a process of its own.
package window

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"pcgwb/canvas/birdsview"
)

// Options of an animation window.
type Options struct {
	// Screenshot, when set, saves the window's pixels (read back from the GPU) once the
	// animation has ended and the verdict is on screen, then closes the window.
	Screenshot string
	// ExitAfter closes the window after this long (0: never).
	ExitAfter time.Duration
}

// Held → steps again after repeatDelay ticks, then every repeatInterval ticks.
const (
	repeatDelay    = 15
	repeatInterval = 3
	shotSettle     = 10
)

// Run opens the window and animates the level until the user quits (Esc), ExitAfter passes or
// the screenshot is taken.
func Run(v *birdsview.View, opt Options) error {
	ebiten.SetWindowSize(birdsview.FrameWidth, birdsview.FrameHeight)
	ebiten.SetWindowTitle("Science Birds - " + v.Title)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetRunnableOnUnfocused(true)
	ebiten.SetTPS(birdsview.TPS)
	l := &loop{v: v, opt: opt, start: time.Now()}
	if err := ebiten.RunGame(l); err != nil {
		return fmt.Errorf("cannot open the animation window: %w", err)
	}
	if l.shotErr != nil {
		return l.shotErr
	}
	if opt.Screenshot != "" && !l.shotTaken {
		return errors.New("the window closed before the screenshot was taken")
	}
	return nil
}

type loop struct {
	v         *birdsview.View
	opt       Options
	start     time.Time
	quit      bool
	frame     *ebiten.Image
	settle    int
	wantShot  bool
	shotTaken bool
	shotErr   error
}

func (l *loop) Update() error {
	if l.quit || l.shotTaken || l.shotErr != nil || l.opt.ExitAfter > 0 && time.Since(l.start) > l.opt.ExitAfter {
		return ebiten.Termination
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyEscape):
		l.quit = true
		return nil
	case inpututil.IsKeyJustPressed(ebiten.KeySpace):
		l.v.TogglePause()
	case inpututil.IsKeyJustPressed(ebiten.KeyS):
		l.v.ToggleSlow()
	case inpututil.IsKeyJustPressed(ebiten.KeyR):
		l.v.Restart()
	}
	if d := inpututil.KeyPressDuration(ebiten.KeyArrowRight); d == 1 || d > repeatDelay && (d-repeatDelay)%repeatInterval == 0 {
		l.v.StepOnce()
	}
	l.v.Tick()
	if l.opt.Screenshot != "" && l.v.Done() && !l.wantShot {
		l.settle++
		l.wantShot = l.settle >= shotSettle
	}
	return nil
}

func (l *loop) Draw(screen *ebiten.Image) {
	f := l.v.Frame()
	if l.frame == nil {
		l.frame = ebiten.NewImage(f.Rect.Dx(), f.Rect.Dy())
	}
	l.frame.WritePixels(f.Pix)
	screen.DrawImage(l.frame, nil)
	if l.wantShot && !l.shotTaken && l.shotErr == nil {
		l.shotErr = capture(screen, l.opt.Screenshot)
		l.shotTaken = l.shotErr == nil
	}
}

// Layout keeps the frame's size: Ebiten scales it to the window.
func (l *loop) Layout(int, int) (int, int) { return birdsview.FrameWidth, birdsview.FrameHeight }

// capture reads the screen back from the GPU and saves it.
func capture(screen *ebiten.Image, path string) error {
	b := screen.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	screen.ReadPixels(img.Pix)
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(out, img); err != nil {
		out.Close()
		return fmt.Errorf("screenshot: %w", err)
	}
	return out.Close()
}

// Package birdsview animates a Science Birds level: the evaluator's own physics (games/birds)
// stepped at real time, drawn in software into an image. It has no Ebiten dependency, so the
// frames can be composed and tested headless; the window lives in birdsview/window.
package birdsview

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"pcgwb/games/birds"
)

// TPS is the view's tick rate: one tick per simulation step plays the level at Unity's speed.
const TPS = 50

// SlowFactor is the speed of slow motion.
const SlowFactor = 0.25

// Frame size in pixels: the window scales it.
const (
	FrameWidth  = 960
	FrameHeight = 600
	hudHeight   = 64
)

// View is the state of an animation window: the stepping simulation and the playback controls.
type View struct {
	Title string
	anim  *birds.Animation
	// Speed multiplies real time (1: one step per tick); tests use more.
	Speed  float64
	paused bool
	slow   bool
	acc    float64

	camera  camera
	bodies  []birds.BodyState
	ground  []birds.AABB
	frame   *image.RGBA
	drawnAt int // step of the last composed frame; -1: compose again
}

// New prepares a view of a level. It fails on levels the simulation rejects.
func New(title string, lv *birds.Level) (*View, error) {
	a, err := birds.NewAnimation(lv)
	if err != nil {
		return nil, err
	}
	v := &View{Title: title, anim: a, Speed: 1, drawnAt: -1}
	v.bodies = a.Bodies(v.bodies)
	v.ground = a.Ground()
	v.camera = frameCamera(v.bodies, FrameWidth, FrameHeight-hudHeight)
	return v, nil
}

// Animation gives access to the simulation (for tests and the verdict).
func (v *View) Animation() *birds.Animation { return v.anim }

// Paused and Slow report the playback mode.
func (v *View) Paused() bool { return v.paused }
func (v *View) Slow() bool   { return v.slow }

// TogglePause pauses or resumes.
func (v *View) TogglePause() { v.paused = !v.paused; v.drawnAt = -1 }

// ToggleSlow switches slow motion on or off.
func (v *View) ToggleSlow() { v.slow = !v.slow; v.drawnAt = -1 }

// StepOnce advances one step and pauses.
func (v *View) StepOnce() {
	v.paused = true
	v.advance()
	v.drawnAt = -1
}

// Restart puts the level back to its start, keeping the playback mode.
func (v *View) Restart() {
	v.anim.Restart()
	v.acc = 0
	v.bodies = v.anim.Bodies(v.bodies)
	v.drawnAt = -1
}

func (v *View) advance() {
	if v.anim.Done() {
		return
	}
	_ = v.anim.Advance() // an engine failure ends the animation; Err shows it
	v.bodies = v.anim.Bodies(v.bodies)
}

// Tick is one 1/TPS s of real time.
func (v *View) Tick() {
	if v.paused || v.anim.Done() {
		return
	}
	speed := v.Speed
	if speed <= 0 {
		speed = 1
	}
	if v.slow {
		speed *= SlowFactor
	}
	v.acc += speed
	for v.acc >= 1 && !v.anim.Done() {
		v.acc--
		v.advance()
	}
}

// Done reports whether the animation has reached its end.
func (v *View) Done() bool { return v.anim.Done() }

// Frame returns the current picture, composed again only when something changed.
func (v *View) Frame() *image.RGBA {
	if v.frame != nil && v.drawnAt == v.anim.Step() {
		return v.frame
	}
	if v.frame == nil {
		v.frame = image.NewRGBA(image.Rect(0, 0, FrameWidth, FrameHeight))
	}
	v.compose(v.frame)
	v.drawnAt = v.anim.Step()
	return v.frame
}

// Colours.
var (
	skyColor      = color.RGBA{0xd4, 0xec, 0xff, 0xff}
	groundColor   = color.RGBA{0x8a, 0x6a, 0x3e, 0xff}
	grassColor    = color.RGBA{0x6c, 0xa8, 0x3a, 0xff}
	hudColor      = color.RGBA{0x20, 0x24, 0x2c, 0xff}
	textColor     = color.RGBA{0xf0, 0xf0, 0xf0, 0xff}
	dimTextColor  = color.RGBA{0xa0, 0xa8, 0xb4, 0xff}
	stableColor   = color.RGBA{0x7c, 0xe0, 0x7c, 0xff}
	unstableColor = color.RGBA{0xff, 0x80, 0x70, 0xff}
	edgeColor     = color.RGBA{0x30, 0x24, 0x18, 0xff}
	movingColor   = color.RGBA{0xff, 0x20, 0x60, 0xff}
)

// MaterialColor is the fill of an object: blocks by material, pigs, TNT and platforms by kind.
func MaterialColor(o birds.Object) color.RGBA {
	switch o.Kind {
	case birds.KindPig:
		return color.RGBA{0x70, 0xc8, 0x40, 0xff}
	case birds.KindTNT:
		return color.RGBA{0xd8, 0x3a, 0x22, 0xff}
	case birds.KindPlatform:
		return color.RGBA{0x5a, 0x50, 0x48, 0xff}
	}
	switch o.Material {
	case "stone":
		return color.RGBA{0x9a, 0x9a, 0xa2, 0xff}
	case "ice":
		return color.RGBA{0xa6, 0xe4, 0xf6, 0xff}
	}
	return color.RGBA{0xc8, 0x8a, 0x46, 0xff} // wood, the converter's material
}

// camera maps world units to frame pixels: x right, y up in the world, down on screen.
type camera struct {
	scale, left, top float64
}

func (c camera) toScreen(x, y float64) (float64, float64) {
	return (x - c.left) * c.scale, (c.top - y) * c.scale
}

// frameCamera fits the level's objects at their start, with the ground line and head room for
// what falls, into w×h pixels; the camera stays put during the animation.
func frameCamera(bodies []birds.BodyState, w, h int) camera {
	const groundTop = -3.5
	minX, maxX := math.Inf(1), math.Inf(-1)
	minY, maxY := groundTop, math.Inf(-1)
	for _, b := range bodies {
		r := b.Outline.Radius
		for _, p := range b.Outline.Points {
			r = math.Max(r, math.Hypot(p.X, p.Y))
		}
		minX, maxX = math.Min(minX, b.Pose.X-r), math.Max(maxX, b.Pose.X+r)
		minY, maxY = math.Min(minY, b.Pose.Y-r), math.Max(maxY, b.Pose.Y+r)
	}
	if math.IsInf(minX, 0) {
		minX, maxX, maxY = -5, 5, 3
	}
	// Room on both sides for blocks that topple, and below the ground line for the ground.
	const pad = 1.5
	minX, maxX = minX-pad, maxX+pad
	minY, maxY = minY-1, maxY+pad
	scale := math.Min(float64(w)/(maxX-minX), float64(h)/(maxY-minY))
	scale = math.Min(scale, 160) // a single tiny block should not fill the window
	cx, cy := (minX+maxX)/2, (minY+maxY)/2
	return camera{scale: scale, left: cx - float64(w)/2/scale, top: cy + float64(h)/2/scale}
}

func (v *View) compose(img *image.RGBA) {
	sceneH := FrameHeight - hudHeight
	fillRect(img, image.Rect(0, 0, FrameWidth, sceneH), skyColor)
	for _, g := range v.ground {
		x0, y0 := v.camera.toScreen(g.MinX, g.MaxY)
		x1, y1 := v.camera.toScreen(g.MaxX, g.MinY)
		r := image.Rect(int(math.Round(x0)), int(math.Round(y0)), int(math.Round(x1)), int(math.Round(y1))).Intersect(image.Rect(0, 0, FrameWidth, sceneH))
		fillRect(img, r, groundColor)
		fillRect(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, min(r.Min.Y+4, r.Max.Y)), grassColor)
	}
	clip := image.Rect(0, 0, FrameWidth, sceneH)
	// Still objects first, so that the highlighted ones are never hidden behind them.
	for pass := 0; pass < 2; pass++ {
		for _, b := range v.bodies {
			if b.Dead || b.Moving() != (pass == 1) {
				continue
			}
			fill, edge, width := MaterialColor(b.Object), edgeColor, 1.0
			if b.Moving() {
				edge, width = movingColor, 3
			}
			v.drawBody(img, clip, b, fill, edge, width)
		}
	}
	v.drawHUD(img, image.Rect(0, sceneH, FrameWidth, FrameHeight))
}

// drawBody fills the pixels whose centres lie inside the collider, with an edge band of the
// given width in pixels.
func (v *View) drawBody(img *image.RGBA, clip image.Rectangle, b birds.BodyState, fill, edge color.RGBA, width float64) {
	cx, cy := v.camera.toScreen(b.Pose.X, b.Pose.Y)
	s := v.camera.scale
	if r := b.Outline.Radius; r > 0 {
		rp := r * s
		box := image.Rect(int(cx-rp)-1, int(cy-rp)-1, int(cx+rp)+2, int(cy+rp)+2).Intersect(clip)
		for y := box.Min.Y; y < box.Max.Y; y++ {
			for x := box.Min.X; x < box.Max.X; x++ {
				d := rp - math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
				if d >= 0 {
					img.SetRGBA(x, y, pick(d < width, edge, fill))
				}
			}
		}
		// A spoke shows the rotation of round objects.
		c, sn := math.Cos(b.Pose.Angle), math.Sin(b.Pose.Angle)
		for t := 0.0; t < rp; t++ {
			x, y := int(cx+c*t), int(cy-sn*t)
			if image.Pt(x, y).In(clip) {
				img.SetRGBA(x, y, edge)
			}
		}
		return
	}
	n := len(b.Outline.Points)
	if n < 3 {
		return
	}
	c, sn := math.Cos(b.Pose.Angle), math.Sin(b.Pose.Angle)
	xs, ys := make([]float64, n), make([]float64, n)
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i, p := range b.Outline.Points {
		wx, wy := b.Pose.X+c*p.X-sn*p.Y, b.Pose.Y+sn*p.X+c*p.Y
		xs[i], ys[i] = v.camera.toScreen(wx, wy)
		minX, maxX = math.Min(minX, xs[i]), math.Max(maxX, xs[i])
		minY, maxY = math.Min(minY, ys[i]), math.Max(maxY, ys[i])
	}
	// Screen y points down, which turns the world's counter-clockwise outlines clockwise; the
	// sign of the area tells which side of each edge is inside.
	area := 0.0
	for i := range n {
		j := (i + 1) % n
		area += xs[i]*ys[j] - xs[j]*ys[i]
	}
	sign := 1.0
	if area < 0 {
		sign = -1
	}
	box := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1).Intersect(clip)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		py := float64(y) + 0.5
		for x := box.Min.X; x < box.Max.X; x++ {
			px := float64(x) + 0.5
			// Distance to the nearest edge line; negative outside (the outlines are convex).
			d := math.Inf(1)
			for i := range n {
				j := (i + 1) % n
				ex, ey := xs[j]-xs[i], ys[j]-ys[i]
				l := math.Hypot(ex, ey)
				if l == 0 {
					continue
				}
				d = math.Min(d, sign*(ex*(py-ys[i])-ey*(px-xs[i]))/l)
			}
			if d >= 0 {
				img.SetRGBA(x, y, pick(d < width, edge, fill))
			}
		}
	}
}

func pick(cond bool, a, b color.RGBA) color.RGBA {
	if cond {
		return a
	}
	return b
}

func fillRect(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// Status is the HUD's text: time, step, moving blocks and mode on the first line, the verdict
// (at the end) or the keys on the second.
func (v *View) Status() (line1, line2 string, verdictColor color.RGBA) {
	a := v.anim
	moving, total := 0, 0
	for _, b := range v.bodies {
		if b.Static {
			continue
		}
		total++
		if b.Moving() {
			moving++
		}
	}
	line1 = fmt.Sprintf("t = %5.2f s   step %3d/%d   moving %d of %d", float64(a.Step())*birds.StepSeconds, a.Step(), a.TotalSteps(), moving, total)
	switch {
	case v.paused:
		line1 += "   PAUSED"
	case v.slow:
		line1 += "   SLOW x1/4"
	}
	if err := a.Err(); err != nil {
		return line1, "physics failure: " + err.Error(), unstableColor
	}
	if a.Step() >= a.StabilityStep() {
		r := a.Verdict()
		verdict, c := "STABLE", stableColor
		if r.Moving > 0 {
			verdict, c = "UNSTABLE", unstableColor
		}
		return line1, fmt.Sprintf("%s: stability %.4f (%d of %d blocks moved >= %.1f; legacy %.4f)", verdict, r.Score, r.Moving, r.Total, birds.MovementThreshold, r.Legacy), c
	}
	return line1, "space pause   -> step   S slow motion   R restart   Esc quit", dimTextColor
}

func (v *View) drawHUD(img *image.RGBA, r image.Rectangle) {
	fillRect(img, r, hudColor)
	l1, l2, c := v.Status()
	drawText(img, l1, r.Min.X+12, r.Min.Y+8, textColor, 1)
	drawText(img, l2, r.Min.X+12, r.Min.Y+32, c, 1)
	if v.Title != "" {
		w := 7 * len([]rune(v.Title))
		drawText(img, v.Title, r.Max.X-12-w, r.Min.Y+8, dimTextColor, 1)
	}
}

// drawText writes s with its top-left corner at (x, y) in the 7×13 pixel font.
func drawText(dst *image.RGBA, s string, x, y int, c color.RGBA, _ int) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y+11)}
	d.DrawString(s)
}

// LevelFromText reads a level as `workbench birds level` does: a level XML, a drop_block
// program, or an answer whose last fenced block holds the program. The second value names
// which it was.
func LevelFromText(data []byte) (*birds.Level, string, error) { return birds.ParseLevelText(data) }

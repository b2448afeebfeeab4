package talakat

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"pcgwb/problems/shape"
)

// Engine constants of the reference (parameters.json and the world's fixed layout).
const (
	MaxBullets  = 250 // more than this and the fight stops ("too many bullets")
	MaxSpawners = 50  // more than this after a frame and the fight stops
	// PlayerRadius and PlayerSpeed are the player's collider radius and pixels per frame.
	PlayerRadius = 3
	PlayerSpeed  = 4
)

// Pattern entries that are not spawner indices.
const (
	entryBullet = -1
	entryWait   = -2
)

// Bounds behaviours of a value modifier.
const (
	boundsClamp = iota
	boundsReverse
	boundsCircle
)

// modifier is the reference's ValueModifier: a value that steps by rate every timeBetween
// frames and is clamped, reflected ("reverse") or wrapped ("circle") at its bounds.
type modifier struct {
	min, max, rate, timeBetween float64
	bounds                      uint8
	value, curRate, timer       float64
}

func newModifier(min, max float64) modifier { return modifier{min: min, max: max} }

func (m *modifier) start() { m.value, m.curRate, m.timer = m.min, m.rate, 0 }

func (m *modifier) update() {
	if m.curRate == 0 {
		return
	}
	m.timer--
	if m.timer <= 0 {
		m.value += m.curRate
		m.timer = m.timeBetween
	}
	if m.value > m.max {
		switch m.bounds {
		case boundsReverse:
			m.value = m.max
			m.curRate = -m.curRate
		case boundsCircle:
			m.value = m.value - m.max + m.min
		default:
			m.value = m.max
		}
	}
	if m.value < m.min {
		switch m.bounds {
		case boundsReverse:
			m.value = m.min
			m.curRate = -m.curRate
		case boundsCircle:
			m.value = m.value + m.max - m.min
		default:
			m.value = m.min
		}
	}
}

// parse reads "min, max, rate, timeBetween, bounds" (any prefix) over the defaults.
// The comma-separated parts are cut one by one (strings.Split's parts, without its slice).
func (m *modifier) parse(s string) error {
	rest, more := s, true
	for i := 0; more; i++ {
		var p string
		p, rest, more = strings.Cut(rest, ",")
		if i == 4 {
			switch strings.ToLower(strings.TrimSpace(p)) {
			case "reverse":
				m.bounds = boundsReverse
			case "circle":
				m.bounds = boundsCircle
			default:
				m.bounds = boundsClamp
			}
			break
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return fmt.Errorf("modifier %q: %v", s, err)
		}
		switch i {
		case 0:
			m.min = v
		case 1:
			m.max = v
		case 2:
			m.rate = v
		case 3:
			m.timeBetween = v
		}
	}
	return nil
}

// spawnerDef is one spawner of the script, as the reference's Spawner.initialize reads it.
type spawnerDef struct {
	pattern       []int // entryBullet, entryWait or a spawner index
	patternTime   int
	patternRepeat int
	// The six modifiers in the order a spawner updates them.
	phase, radius, bulletRadius, number, speed, angle modifier
	aimAtPlayer                                       bool
}

// parseSpawner reads a spawner's text; scratch (may be nil) is reused for its fields.
func parseSpawner(text string, scratch *[]field) (*spawnerDef, error) {
	var buf []field
	if scratch != nil {
		buf = *scratch
	}
	fields, err := parseFlatObject(text, buf)
	if scratch != nil && fields != nil {
		*scratch = fields
	}
	if err != nil {
		return nil, err
	}
	d := &spawnerDef{
		phase:        newModifier(0, 360),
		radius:       newModifier(0, 0),
		bulletRadius: newModifier(5, 0),
		speed:        newModifier(2, 0),
		number:       newModifier(1, 0),
		angle:        newModifier(360, 0),
	}
	for _, f := range fields {
		switch f.key {
		case "pattern":
			for _, p := range f.list {
				switch p = strings.ToLower(p); {
				case p == "bullet":
					d.pattern = append(d.pattern, entryBullet)
				case p == "wait":
					d.pattern = append(d.pattern, entryWait)
				case strings.HasPrefix(p, "spawner_"):
					i, err := strconv.Atoi(p[len("spawner_"):])
					if err != nil {
						return nil, fmt.Errorf("pattern entry %q", p)
					}
					d.pattern = append(d.pattern, i)
				default:
					return nil, fmt.Errorf("pattern entry %q", p)
				}
			}
		case "patternTime", "patternRepeat":
			v, err := strconv.Atoi(strings.TrimSpace(f.value))
			if err != nil {
				return nil, fmt.Errorf("%s %q: %v", f.key, f.value, err)
			}
			if f.key == "patternTime" {
				d.patternTime = v
			} else {
				d.patternRepeat = v
			}
		case "spawnerPhase":
			err = d.phase.parse(f.value)
		case "spawnerRadius":
			err = d.radius.parse(f.value)
		case "bulletRadius":
			err = d.bulletRadius.parse(f.value)
		case "spawnedSpeed":
			err = d.speed.parse(f.value)
		case "spawnedNumber":
			err = d.number.parse(f.value)
		case "spawnedAngle":
			if strings.ToLower(strings.TrimSpace(f.value)) == "player" {
				d.aimAtPlayer = true
			} else {
				err = d.angle.parse(f.value)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if len(d.pattern) == 0 {
		d.pattern = []int{entryBullet}
	}
	for _, m := range []*modifier{&d.phase, &d.radius, &d.bulletRadius, &d.speed, &d.number, &d.angle} {
		m.start()
	}
	return d, nil
}

type field struct {
	key   string
	value string
	list  []string
}

// parseFlatObject reads the one-level JSON object a spawner rule expands to: string values or
// lists of strings, no escapes.
// The fields are appended to out[:0], whose lists are reused too.
func parseFlatObject(s string, out []field) ([]field, error) {
	out = out[:0]
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == ',' || s[i] == '\n' || s[i] == '\t') {
			i++
		}
	}
	str := func() (string, error) {
		skip()
		if i >= len(s) || s[i] != '"' {
			return "", fmt.Errorf("talakat script: expected a string at %d in %q", i, s)
		}
		j := strings.IndexByte(s[i+1:], '"')
		if j < 0 {
			return "", fmt.Errorf("talakat script: unterminated string in %q", s)
		}
		v := s[i+1 : i+1+j]
		i += j + 2
		return v, nil
	}
	skip()
	if i >= len(s) || s[i] != '{' {
		return nil, fmt.Errorf("talakat script: %q is not an object", s)
	}
	i++
	for {
		skip()
		if i < len(s) && s[i] == '}' {
			return out, nil
		}
		k, err := str()
		if err != nil {
			return nil, err
		}
		skip()
		if i >= len(s) || s[i] != ':' {
			return nil, fmt.Errorf("talakat script: expected ':' after %q", k)
		}
		i++
		skip()
		f := field{key: k}
		if len(out) < cap(out) {
			f.list = out[:len(out)+1][len(out)].list[:0]
		}
		if i < len(s) && s[i] == '[' {
			i++
			for {
				skip()
				if i < len(s) && s[i] == ']' {
					i++
					break
				}
				v, err := str()
				if err != nil {
					return nil, err
				}
				f.list = append(f.list, v)
			}
		} else if f.value, err = str(); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
}

// Bullet is one bullet: position, collider radius and velocity per frame.
type Bullet struct {
	X, Y, Radius float64
	VX, VY       float64
}

// Spawner is a live spawner: it moves in a straight line and emits its pattern.
type Spawner struct {
	def  *spawnerDef
	X, Y float64
	// Direction (degrees, or the radians of an aimed shot read as degrees) and the velocity it
	// gives; spawned bullets and spawners are placed relative to Direction.
	Direction, vx, vy                     float64
	patternIndex, patternLeft, repeatLeft int
	phase, radius, bulletRadius           modifier
	number, speed, angle                  modifier
	removed                               bool
}

// Player is the player's ship. In the benchmark's pattern run it is invulnerable and never
// moves; a play view moves it with Step.
type Player struct {
	X, Y, Radius float64
	Lives        int
	Invulnerable bool
}

// Boss holds the fight's clock: it loses one health point per frame and the fight is won at 0.
type Boss struct {
	X, Y              float64
	Health, MaxHealth int
	scriptFired       bool
}

// World is the bullet-hell simulation of one script, steppable frame by frame.
type World struct {
	Width, Height float64
	Player        Player
	Boss          Boss
	Bullets       []Bullet
	Spawners      []Spawner
	// Frame counts the updates so far.
	Frame int
	// TooManyBullets is set by the update that found more than MaxBullets bullets.
	TooManyBullets bool

	defs       []*spawnerDef
	newBullets []Bullet
	newSpawner []Spawner
	trig       *trigCache
	scratch    infoScratch
	fields     []field // parseFlatObject's reused result
}

// NewWorld builds the world of a script at the start of the fight. The player starts at
// (width/2, 0.8·height), the boss at (width/2, height/4).
func NewWorld(s Script, width, height, maxHealth int) (*World, error) {
	return resetWorld(&World{trig: newTrigCache()}, s, width, height, maxHealth)
}

// worldPool recycles the worlds of Info runs: their bullet and spawner buffers, and the trig
// cache, whose entries depend only on the angle and stay valid from one content to the next.
var worldPool = sync.Pool{New: func() any { return &World{trig: newTrigCache()} }}

// trigCacheLimit bounds a pooled cache; past it the cache starts afresh.
const trigCacheLimit = 1 << 14

// resetWorld turns w into the start of the fight of a script, keeping its buffers.
func resetWorld(w *World, s Script, width, height, maxHealth int) (*World, error) {
	*w = World{
		Width: float64(width), Height: float64(height),
		Bullets: w.Bullets[:0], Spawners: w.Spawners[:0],
		defs: w.defs[:0], newBullets: w.newBullets[:0], newSpawner: w.newSpawner[:0],
		trig: w.trig, scratch: w.scratch, fields: w.fields,
	}
	if len(w.trig.aims) > trigCacheLimit {
		w.trig = newTrigCache()
	}
	for _, text := range s.Spawners {
		d, err := parseSpawner(text, &w.fields)
		if err != nil {
			return nil, err
		}
		w.defs = append(w.defs, d)
	}
	for _, d := range w.defs {
		for _, e := range d.pattern {
			if e >= len(w.defs) {
				return nil, fmt.Errorf("talakat script: spawner_%d is not defined", e)
			}
		}
	}
	w.Player = Player{X: w.Width / 2, Y: 0.8 * w.Height, Radius: PlayerRadius, Lives: 1}
	w.Boss = Boss{X: w.Width / 2, Y: w.Height / 4, Health: maxHealth, MaxHealth: maxHealth}
	return w, nil
}

// Won reports that the boss's health ran out: the pattern survived the whole fight.
func (w *World) Won() bool { return float64(w.Boss.Health)/float64(w.Boss.MaxHealth) <= 0 }

// Lost reports that the player has no lives left.
func (w *World) Lost() bool { return w.Player.Lives <= 0 }

// Over reports the end of the pattern run: won, lost, too many bullets, or too many spawners.
func (w *World) Over() bool {
	return w.Won() || w.Lost() || w.TooManyBullets || len(w.Spawners) > MaxSpawners
}

func (w *World) inWorld(x, y, r float64) bool {
	return !(x+r < 0 || y+r < 0 || x-r > w.Width || y-r > w.Height)
}

// Step advances one frame with the player moving by (dx, dy)·PlayerSpeed; it reports false
// when the frame found more than MaxBullets bullets (the reference's "too many bullets").
func (w *World) Step(dx, dy int) bool {
	if w.Lost() || w.Won() {
		return true
	}
	w.Frame++
	p := &w.Player
	if p.Lives >= 0 {
		p.X += float64(dx * PlayerSpeed)
		p.Y += float64(dy * PlayerSpeed)
	}
	if p.X-p.Radius < 0 {
		p.X = p.Radius
	}
	if p.Y-p.Radius < 0 {
		p.Y = p.Radius
	}
	if p.X+p.Radius > w.Width {
		p.X = w.Width - p.Radius
	}
	if p.Y+p.Radius > w.Height {
		p.Y = w.Height - p.Radius
	}

	b := &w.Boss
	b.Health = max(b.Health-1, 0)
	// The script's single event (threshold 100 %) spawns spawner_0 on the first frame.
	if !b.scriptFired && 100*float64(b.Health)/float64(b.MaxHealth) <= 100 {
		b.scriptFired = true
		if len(w.defs) > 0 {
			w.spawn(0, b.X, b.Y, 0, 0)
		}
	}

	// Each loop below updates in place and keeps the survivors at the front of the same
	// array, in order, so that the frame's new spawners and bullets follow them as before.
	sp, kept := w.Spawners, 0
	for i := range sp {
		w.updateSpawner(&sp[i])
		if !sp[i].removed {
			if kept != i {
				sp[kept] = sp[i]
			}
			kept++
		}
	}
	w.Spawners = append(sp[:kept], w.newSpawner...)
	w.newSpawner = w.newSpawner[:0]

	bs := w.Bullets
	extra := max(len(bs)-MaxBullets, 0)
	w.TooManyBullets = extra > 0
	kept = 0
	for i := extra; i < len(bs); i++ {
		// Field by field, through locals: copying the struct right after storing its moved
		// position read back two fresh 8-byte stores with one 16-byte load, which the CPU
		// cannot forward (a stall per bullet).
		bl := &bs[i]
		x, y, r, vx, vy := bl.X+bl.VX, bl.Y+bl.VY, bl.Radius, bl.VX, bl.VY
		if !p.Invulnerable {
			// sqrt(fl(dx²+dy²)) is at least |dx| and |dy| (a correctly rounded square root of a
			// correctly rounded square gives |dx| back), so a bullet that far away on one axis
			// cannot hit: the square root is only taken for the near ones.
			dx, dy, reach := x-p.X, y-p.Y, r+p.Radius
			if math.Abs(dx) < reach && math.Abs(dy) < reach && math.Sqrt(dx*dx+dy*dy) < reach {
				p.Lives--
			}
		}
		if w.inWorld(x, y, r) {
			d := &bs[kept]
			d.X, d.Y, d.Radius, d.VX, d.VY = x, y, r, vx, vy
			kept++
		}
	}
	w.Bullets = append(bs[:kept], w.newBullets...)
	w.newBullets = w.newBullets[:0]
	return !w.TooManyBullets
}

// spawn queues a fresh copy of spawner i (modifiers at their start values) at (x, y).
func (w *World) spawn(i int, x, y, speed, direction float64) {
	cos, sin := w.trig.cosSin(direction)
	w.spawnAt(i, x, y, speed, direction, cos, sin)
}

// spawnAt is spawn with the cosine and sine of direction already looked up.
func (w *World) spawnAt(i int, x, y, speed, direction, cos, sin float64) {
	d := w.defs[i]
	w.newSpawner = append(w.newSpawner, Spawner{
		def: d, X: x, Y: y,
		Direction: direction, vx: speed * cos, vy: speed * sin,
		patternLeft: 0, repeatLeft: d.patternRepeat,
		phase: d.phase, radius: d.radius, bulletRadius: d.bulletRadius,
		number: d.number, speed: d.speed, angle: d.angle,
	})
}

func (w *World) updateSpawner(s *Spawner) {
	if s.patternLeft > 0 {
		s.patternLeft--
	}
	s.phase.update()
	s.radius.update()
	s.bulletRadius.update()
	s.number.update()
	s.speed.update()
	s.angle.update()
	s.X += s.vx
	s.Y += s.vy
	if !w.inWorld(s.X, s.Y, s.radius.value) {
		s.removed = true
	}
	if s.patternLeft != 0 {
		return
	}
	d := s.def
	s.patternIndex = (s.patternIndex + 1) % len(d.pattern)
	s.patternLeft = d.patternTime
	entry := d.pattern[s.patternIndex]
	if entry == entryWait {
		return
	}
	n := math.Floor(s.number.value)
	for i := 0; float64(i) < n; i++ {
		x, y := s.X, s.Y
		var a float64
		if d.aimAtPlayer {
			// Radians, which the movement below reads as degrees (a reference quirk).
			a = w.trig.atan2(w.Player.Y-s.Y, w.Player.X-s.X)
		} else {
			a = s.Direction + s.phase.value + float64(i)*s.angle.value/n
		}
		// One look-up serves the offset, the bullet's velocity or the spawner's direction.
		cos, sin := w.trig.cosSin(a)
		if !d.aimAtPlayer {
			// float64() rounds the product first, as the reference does: no fused multiply-add.
			x += float64(s.radius.value * cos)
			y += float64(s.radius.value * sin)
		}
		if entry == entryBullet {
			w.newBullets = append(w.newBullets, Bullet{
				X: x, Y: y, Radius: s.bulletRadius.value,
				VX: s.speed.value * cos, VY: s.speed.value * sin,
			})
		} else {
			w.spawnAt(entry, x, y, s.speed.value, a, cos, sin)
		}
	}
	if s.repeatLeft > 0 {
		s.repeatLeft--
		if s.repeatLeft == 0 {
			s.removed = true
		}
	}
}

// trigCache memoises cos and sin of degree angles (and atan2 of aimed shots): the same few
// angles recur all fight long, and the correctly rounded functions are slower than Go's. The
// angles are looked up by their bits in a direct-mapped table (a map's hashing of float keys
// cost more than the look-ups saved); an angle that lands on an occupied slot replaces it. The
// values are functions of the bits, so what the table holds never changes a result.
type trigCache struct {
	deg  []trigEntry // trigSlots entries, keyed by the bits of the angle
	aims map[[2]float64]float64
}

// trigSlots is the size of the direct-mapped table (a power of two; 192 KB, which keeps about
// as many of a run's angles as the map it replaced).
const (
	trigSlots = 1 << 13
	trigShift = 64 - 13
	// trigEmpty marks an empty slot: a NaN whose angle is never looked up in the table.
	trigEmpty = 0x7ff8_dead_beef_0001
)

type trigEntry struct {
	bits     uint64
	cos, sin float64
}

func newTrigCache() *trigCache {
	c := &trigCache{deg: make([]trigEntry, trigSlots), aims: make(map[[2]float64]float64, 16)}
	for i := range c.deg {
		c.deg[i].bits = trigEmpty
	}
	return c
}

// cosSin is (cos, sin) of deg·π/180, evaluated as the reference does: (deg·π)/180, then glibc.
func (c *trigCache) cosSin(deg float64) (float64, float64) {
	b := math.Float64bits(deg)
	e := &c.deg[(b*0x9e3779b97f4a7c15)>>trigShift]
	if e.bits == b && b != trigEmpty {
		return e.cos, e.sin
	}
	r := deg * math.Pi / 180
	cos, sin := shape.Cos(r), shape.Sin(r)
	if b != trigEmpty {
		*e = trigEntry{bits: b, cos: cos, sin: sin}
	}
	return cos, sin
}

func (c *trigCache) atan2(y, x float64) float64 {
	k := [2]float64{y, x}
	if v, ok := c.aims[k]; ok {
		return v
	}
	v := shape.Atan2(y, x)
	c.aims[k] = v
	return v
}

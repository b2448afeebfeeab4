package engine

// Actions are the buttons held during a frame, as a bit set. The bit values are the
// reference's action encoding (Σ action[i]·2^i), used as is in the benchmark's info.
type Actions uint8

// The five buttons, in the framework's order.
const (
	Left Actions = 1 << iota
	Right
	Down
	Speed
	Jump
)

// Status is the state of a game.
type Status uint8

// Game statuses, with the framework's values.
const (
	Running Status = iota
	Win
	Lose
	TimeOut
)

func (s Status) String() string {
	switch s {
	case Running:
		return "running"
	case Win:
		return "win"
	case Lose:
		return "lose"
	case TimeOut:
		return "time out"
	}
	return "unknown"
}

// EventType is what happened during a frame, with the framework's values.
type EventType uint8

// Event types.
const (
	EventBump EventType = iota + 1
	EventStompKill
	EventFireKill
	EventShellKill
	EventFallKill
	EventJump
	EventLand
	EventCollect
	EventHurt
	EventKick
	EventLose
	EventWin
)

// Event is one game event; Param is the framework's parameter (an enemy type, a tile id).
type Event struct {
	Type  EventType
	Param int
}

// Bump event parameters: the framework's observation codes of a question block and a brick.
const (
	bumpQuestion = 16 + 8
	bumpBrick    = 16 + 6
)

// Physics constants of the framework.
const (
	groundInertia  = 0.89
	airInertia     = 0.89
	enemySideSpeed = 1.75
	marioJumpSpeed = -1.9
	frameMillis    = 30
	powerUpTime    = 3
)

type mario struct {
	x, y, xa, ya  float64
	width, height float64
	facing        int
	alive         bool
	large, fire   bool
	onGround      bool
	wasOnGround   bool
	ducking       bool
	canShoot      bool
	mayJump       bool
	actions       Actions
	jumpTime      int
	xJumpSpeed    float64
	yJumpSpeed    float64
	invulnerable  int
	xJumpStart    float64
}

type enemy struct {
	x, y, xa, ya  float64
	width, height float64
	facing        int
	typ           SpriteType
	// template is the index of the level template the enemy spawned from (the framework's
	// initialCode "x_y_type").
	template    int32
	alive       bool
	onGround    bool
	winged      bool
	avoidCliffs bool
}

// World is one running level: the framework's MarioWorld.
type World struct {
	level *Level
	// tiles starts as the level's own slice and is copied on the first change, so clones
	// share it until one of them takes a coin or bumps a block.
	tiles    []uint8
	ownTiles bool
	// lastSpawn[i] is the last tick template i was in view (the framework starts at -40).
	lastSpawn []int32

	mario   mario
	enemies []enemy
	// added are the enemies spawned during the current frame; they join enemies at its end.
	added []enemy

	cameraX, cameraY float64
	status           Status
	pauseTimer       int
	timer            int
	tick             int
	coins, lives     int
	events           []Event
}

// NewWorld starts a level with timerMillis of game time (the framework's initializeLevel).
// Mario stands on his start tile; nothing has moved yet.
func NewWorld(l *Level, timerMillis int) *World {
	w := &World{
		level:     l,
		tiles:     l.tiles,
		lastSpawn: make([]int32, len(l.templates)),
		timer:     timerMillis,
	}
	for i := range w.lastSpawn {
		w.lastSpawn[i] = -40
	}
	w.mario = newMario(float64(l.MarioX*TileSize), float64(l.MarioY*TileSize))
	w.mario.alive = true
	return w
}

func newMario(x, y float64) mario {
	return mario{
		x: x + 8, y: y + 15,
		width: 4, height: 24,
		facing: 1, alive: true,
		xJumpStart: -100,
	}
}

// Clone copies the world the way the framework's clone does, which the agents rely on:
// Mario is rebuilt at (x-8)+8, (y-15)+15 (these round for small coordinates), every sprite is
// alive again, and the frame's events are dropped.
func (w *World) Clone() *World {
	c := &World{
		level:      w.level,
		tiles:      w.tiles,
		lastSpawn:  append([]int32(nil), w.lastSpawn...),
		mario:      w.mario,
		enemies:    append([]enemy(nil), w.enemies...),
		cameraX:    w.cameraX,
		cameraY:    w.cameraY,
		status:     w.status,
		pauseTimer: w.pauseTimer,
		timer:      w.timer,
		tick:       w.tick,
		coins:      w.coins,
		lives:      w.lives,
	}
	// Both now share the tiles: whichever changes a tile first copies them.
	w.ownTiles = false
	m := &c.mario
	m.x = (m.x - 8) + 8
	m.y = (m.y - 15) + 15
	m.alive = true
	for i := range c.enemies {
		c.enemies[i].alive = true
	}
	return c
}

func (w *World) block(x, y int) int {
	if x < 0 {
		x = 0
	}
	if x > w.level.W-1 {
		x = w.level.W - 1
	}
	if y < 0 || y > w.level.H-1 {
		return 0
	}
	return int(w.tiles[x*w.level.H+y])
}

func (w *World) setBlock(x, y, tile int) {
	if x < 0 || y < 0 || x > w.level.W-1 || y > w.level.H-1 {
		return
	}
	if !w.ownTiles {
		w.tiles = append([]uint8(nil), w.tiles...)
		w.ownTiles = true
	}
	w.tiles[x*w.level.H+y] = uint8(tile)
}

func (w *World) isBlocking(x, y int, xa, ya float64) bool {
	f := features[w.block(x, y)]
	return f&blockAll != 0 || (ya < 0 && f&blockUpper != 0) || (ya > 0 && f&blockLower != 0)
}

func (w *World) addEvent(t EventType, param int) {
	w.events = append(w.events, Event{t, param})
}

func (w *World) win() {
	w.addEvent(EventWin, 0)
	w.status = Win
}

func (w *World) lose() {
	w.addEvent(EventLose, 0)
	w.status = Lose
	w.mario.alive = false
}

func (w *World) timeout() {
	w.status = TimeOut
	w.mario.alive = false
}

// Update plays one frame with the given buttons held (the framework's MarioWorld.update).
func (w *World) Update(a Actions) {
	if w.status != Running {
		return
	}
	if w.pauseTimer > 0 {
		w.pauseTimer--
		return
	}
	if w.timer > 0 {
		w.timer -= frameMillis
		if w.timer <= 0 {
			w.timer = 0
			w.timeout()
			return
		}
	}
	w.tick++
	widthPx, heightPx := float64(w.level.WidthPx()), float64(w.level.HeightPx())
	w.cameraX = w.mario.x - ScreenWidth/2
	if w.cameraX+ScreenWidth > widthPx {
		w.cameraX = widthPx - ScreenWidth
	}
	if w.cameraX < 0 {
		w.cameraX = 0
	}
	w.cameraY = w.mario.y - ScreenHeight/2
	if w.cameraY+ScreenHeight > heightPx {
		w.cameraY = heightPx - ScreenHeight
	}
	if w.cameraY < 0 {
		w.cameraY = 0
	}
	w.events = w.events[:0]

	// Sprites that left the camera's reach (or fell below the level) are removed; an enemy
	// that fell counts as killed.
	out := func(x, y float64) bool {
		return x < w.cameraX-64 || x > w.cameraX+ScreenWidth+64 || y > heightPx+32
	}
	if out(w.mario.x, w.mario.y) {
		w.lose()
	}
	for i := range w.enemies {
		e := &w.enemies[i]
		if out(e.x, e.y) {
			e.alive = false
			if e.y > ScreenHeight+32 {
				w.addEvent(EventFallKill, int(e.typ))
			}
		}
	}

	w.spawn()

	w.mario.actions = a
	w.updateMario()
	for i := range w.enemies {
		if w.enemies[i].alive {
			w.updateEnemy(&w.enemies[i])
		}
	}
	for i := range w.enemies {
		if w.enemies[i].alive {
			w.collide(&w.enemies[i])
		}
	}

	live := w.enemies[:0]
	for _, e := range w.enemies {
		if e.alive {
			live = append(live, e)
		}
	}
	w.enemies = append(live, w.added...)
	w.added = w.added[:0]
}

// spawn brings the templates in view to life: a template spawns when no sprite from it is in
// the world and it was not in view on the previous tick.
func (w *World) spawn() {
	l := w.level
	x0, x1 := int(w.cameraX/16)-1, int((w.cameraX+ScreenWidth)/16)+1
	y0, y1 := int(w.cameraY/16)-1, int((w.cameraY+ScreenHeight)/16)+1
	for x := max(x0, 0); x <= x1 && x < l.W; x++ {
		for t := l.colStart[x]; t < l.colStart[x+1]; t++ {
			tp := l.templates[t]
			if tp.Y < y0 || tp.Y > y1 {
				continue
			}
			dir := 0
			if float64(x*16+8) > w.mario.x+16 {
				dir = -1
			}
			if float64(x*16+8) < w.mario.x-16 {
				dir = 1
			}
			found := false
			for i := range w.enemies {
				if w.enemies[i].template == t {
					found = true
					break
				}
			}
			if !found && int(w.lastSpawn[t]) != w.tick-1 {
				e := newEnemy(float64(x*16+8), float64(tp.Y*16+15), dir, tp.Type)
				e.template = t
				// The framework updates a new sprite once as it is added.
				w.updateEnemy(&e)
				w.added = append(w.added, e)
			}
			w.lastSpawn[t] = int32(w.tick)
		}
	}
}

func newEnemy(x, y float64, dir int, t SpriteType) enemy {
	e := enemy{x: x, y: y, typ: t, width: 4, height: 24, facing: dir, alive: true}
	if t != RedKoopa && t != GreenKoopa && t != RedKoopaWinged && t != GreenKoopaWinged {
		e.height = 12
	}
	e.winged = t%2 == 1
	e.avoidCliffs = t == RedKoopa || t == RedKoopaWinged
	if e.facing == 0 {
		e.facing = 1
	}
	return e
}

func (w *World) collectCoin() {
	if !w.mario.alive {
		return
	}
	w.coins++
	if w.coins%100 == 0 {
		w.lives++
	}
}

// bump is Mario hitting a block from below.
func (w *World) bump(x, y int, canBreakBricks bool) {
	f := features[w.block(x, y)]
	if f&bumpable != 0 {
		w.bumpInto(x, y-1)
		w.addEvent(EventBump, bumpQuestion)
		w.setBlock(x, y, TileUsed)
		// Mushroom, fire-flower and 1-up blocks are refused by the parser, so a bumpable
		// block here always holds a coin.
		w.collectCoin()
	}
	if f&breakable != 0 {
		w.bumpInto(x, y-1)
		if canBreakBricks {
			w.addEvent(EventBump, bumpBrick)
			w.setBlock(x, y, 0)
		}
	}
}

// bumpInto hits what stands on a bumped block: a coin is taken and enemies are knocked off
// (removed without a kill event).
func (w *World) bumpInto(x, y int) {
	if b := w.block(x, y); features[b]&pickable != 0 {
		w.addEvent(EventCollect, b)
		w.collectCoin()
		w.setBlock(x, y, 0)
	}
	for i := range w.enemies {
		e := &w.enemies[i]
		if !e.alive {
			continue
		}
		if e.x+e.width > float64(x*16) && e.x-e.width < float64(x*16+16) && y == int((e.y-1)/16) {
			e.xa = float64(-w.mario.facing * 2)
			e.ya = -5
			e.alive = false
		}
	}
}

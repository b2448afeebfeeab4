package engine

// SpriteState is a read-only snapshot of Mario or an enemy. (X, Y) is the bottom centre of
// the sprite in level pixels; it spans X±Width and Y-Height..Y.
type SpriteState struct {
	Type          SpriteType
	X, Y          float64
	XA, YA        float64
	Width, Height float64
	Facing        int
	OnGround      bool
	Alive         bool
	Winged        bool
}

// Mario is Mario's current state.
func (w *World) Mario() SpriteState {
	m := &w.mario
	return SpriteState{
		Type: MarioSprite, X: m.x, Y: m.y, XA: m.xa, YA: m.ya, Width: m.width, Height: m.height,
		Facing: m.facing, OnGround: m.onGround, Alive: m.alive,
	}
}

// Enemies appends the live enemies, in update order, to dst.
func (w *World) Enemies(dst []SpriteState) []SpriteState {
	for i := range w.enemies {
		e := &w.enemies[i]
		if !e.alive {
			continue
		}
		dst = append(dst, SpriteState{
			Type: e.typ, X: e.x, Y: e.y, XA: e.xa, YA: e.ya, Width: e.width, Height: e.height,
			Facing: e.facing, OnGround: e.onGround, Alive: true, Winged: e.winged,
		})
	}
	return dst
}

// Level is the level being played.
func (w *World) Level() *Level { return w.level }

// Tile is the current tile id at (x, y): coins taken and blocks bumped show.
func (w *World) Tile(x, y int) int {
	if x < 0 || y < 0 || x >= w.level.W || y >= w.level.H {
		return 0
	}
	return int(w.tiles[x*w.level.H+y])
}

// Status is the game's status.
func (w *World) Status() Status { return w.status }

// Coins is the number of coins collected.
func (w *World) Coins() int { return w.coins }

// TimeLeft is the remaining game time in milliseconds (each frame takes 30).
func (w *World) TimeLeft() int { return w.timer }

// Tick counts the frames played.
func (w *World) Tick() int { return w.tick }

// Camera is the top-left corner of the 256×256 screen, in level pixels.
func (w *World) Camera() (x, y float64) { return w.cameraX, w.cameraY }

// Events are the events of the last full frame.
func (w *World) Events() []Event { return w.events }

// MayJump reports whether pressing jump now starts a jump; OnGround whether Mario stands.
func (w *World) MayJump() bool  { return w.mario.mayJump }
func (w *World) OnGround() bool { return w.mario.onGround }

// CanJumpHigher reports whether holding jump still lifts Mario.
func (w *World) CanJumpHigher() bool { return w.mario.jumpTime > 0 }

// Completion is how far Mario got, as a fraction of the distance to the flag (1 on a win).
func (w *World) Completion() float64 {
	return w.mario.x / float64(w.level.ExitX*TileSize)
}

// Step is one agent step of a game: the buttons held and where Mario was after the frame.
type Step struct {
	Actions Actions
	X, Y    float64
}

// Game is a level being played step by step, the framework's game loop: the world is created,
// one frame is played with no button held, and then each Step plays one frame.
type Game struct {
	world  *World
	events []Event
	steps  []Step
}

// NewGame starts a level with a timer in seconds.
func NewGame(l *Level, timerSeconds int) *Game {
	w := NewWorld(l, 1000*timerSeconds)
	w.Update(0)
	return &Game{world: w}
}

// World is the game's world (read it; do not update it directly).
func (g *Game) World() *World { return g.world }

// Over reports whether the game has ended (win, lose or time out).
func (g *Game) Over() bool { return g.world.status != Running }

// Step plays one frame with the given buttons. Like the framework's loop it records the frame's
// events, and a frame that does not run fully (time out, pause) records the previous frame's
// events again. Stepping an ended game does nothing.
func (g *Game) Step(a Actions) {
	if g.Over() {
		return
	}
	g.world.Update(a)
	g.events = append(g.events, g.world.events...)
	g.steps = append(g.steps, Step{a, g.world.mario.x, g.world.mario.y})
}

// Steps are the steps played so far.
func (g *Game) Steps() []Step { return g.steps }

// Result summarises the game so far.
func (g *Game) Result() Result {
	r := Result{
		Status:     g.world.status,
		Completion: g.world.Completion(),
		Coins:      g.world.coins,
		Steps:      g.steps,
		Events:     g.events,
	}
	for _, e := range g.events {
		switch e.Type {
		case EventStompKill, EventFireKill, EventShellKill:
			r.Kills++
		case EventFallKill:
			r.Kills++
			r.FallKills++
		case EventJump:
			r.Jumps++
		}
	}
	return r
}

// Result is a played game, with the framework's MarioResult statistics.
type Result struct {
	Status     Status
	Completion float64
	Coins      int
	// Kills counts every kill event (stomp, fire, shell, fall); FallKills the enemies that
	// fell out of the level. Jumps counts jump events.
	Kills, FallKills, Jumps int
	Steps                   []Step
	Events                  []Event
}

// Agent chooses the buttons for the next frame of a running world. It must not change it.
type Agent interface {
	Act(w *World) Actions
}

// Run plays a level to its end with an agent (the framework's runGame).
func Run(l *Level, timerSeconds int, agent Agent) Result {
	g := NewGame(l, timerSeconds)
	for !g.Over() {
		g.Step(agent.Act(g.world))
	}
	return g.Result()
}

// Replay plays recorded buttons on a level and returns the game, which is then at the end of
// the recording (a game that ends earlier ignores the rest).
func Replay(l *Level, timerSeconds int, actions []Actions) *Game {
	g := NewGame(l, timerSeconds)
	for _, a := range actions {
		g.Step(a)
	}
	return g
}

package engine

// The physics below follow the framework statement by statement. Every product that feeds a
// sum is wrapped in float64(...) so that no platform fuses it into an FMA: the reference
// rounds each operation, and positions are compared with tile boundaries after thousands of
// frames.

func (w *World) updateMario() {
	m := &w.mario
	if !m.alive {
		return
	}
	if m.invulnerable > 0 {
		m.invulnerable--
	}
	m.wasOnGround = m.onGround
	side := 0.6
	if m.actions&Speed != 0 {
		side = 1.2
	}
	if m.onGround {
		m.ducking = m.actions&Down != 0 && m.large
	}
	if m.large && !m.ducking {
		m.height = 24
	} else {
		m.height = 12
	}
	if m.xa > 2 {
		m.facing = 1
	}
	if m.xa < -2 {
		m.facing = -1
	}

	if m.actions&Jump != 0 || (m.jumpTime < 0 && !m.onGround) {
		switch {
		case m.jumpTime < 0:
			m.xa = m.xJumpSpeed
			m.ya = float64(-m.jumpTime) * m.yJumpSpeed
			m.jumpTime++
		case m.onGround && m.mayJump:
			m.xJumpSpeed = 0
			m.yJumpSpeed = marioJumpSpeed
			m.jumpTime = 7
			m.ya = float64(m.jumpTime) * m.yJumpSpeed
			m.onGround = false
			// The head probes have the side effects of any probe: a block overhead is bumped
			// and the jump is then not counted.
			py := m.y - 4 - m.height
			if !(w.marioBlocking(m.x, py, 0, -4) ||
				w.marioBlocking(m.x-m.width, py, 0, -4) ||
				w.marioBlocking(m.x+m.width, py, 0, -4)) {
				m.xJumpStart = m.x
				w.addEvent(EventJump, 0)
			}
		case m.jumpTime > 0:
			m.xa += m.xJumpSpeed
			m.ya = float64(m.jumpTime) * m.yJumpSpeed
			m.jumpTime--
		}
	} else {
		m.jumpTime = 0
	}

	if m.actions&Left != 0 && !m.ducking {
		m.xa -= side
		if m.jumpTime >= 0 {
			m.facing = -1
		}
	}
	if m.actions&Right != 0 && !m.ducking {
		m.xa += side
		if m.jumpTime >= 0 {
			m.facing = 1
		}
	}
	// Fireballs need fire Mario, which no benchmark level can make.
	m.canShoot = m.actions&Speed == 0
	m.mayJump = m.onGround && m.actions&Jump == 0
	if m.xa < 0.5 && m.xa > -0.5 {
		m.xa = 0
	}

	m.onGround = false
	w.marioMove(m.xa, 0)
	w.marioMove(0, m.ya)
	if !m.wasOnGround && m.onGround && m.xJumpStart >= 0 {
		w.addEvent(EventLand, 0)
		m.xJumpStart = -100
	}
	if m.x < 0 {
		m.x = 0
		m.xa = 0
	}
	if exit := float64(w.level.ExitX * TileSize); m.x > exit {
		m.x = exit
		m.xa = 0
		w.win()
	}
	m.ya = float64(m.ya * 0.85)
	if m.onGround {
		m.xa = float64(m.xa * groundInertia)
	} else {
		m.xa = float64(m.xa * airInertia)
	}
	if !m.onGround {
		m.ya += 3
	}
}

// marioMove is Mario's _move: steps of at most 8 px, probes with side effects, and snapping to
// the tile edge on a collision. It reports whether the whole move was made.
func (w *World) marioMove(xa, ya float64) bool {
	for xa > 8 {
		if !w.marioMove(8, 0) {
			return false
		}
		xa -= 8
	}
	for xa < -8 {
		if !w.marioMove(-8, 0) {
			return false
		}
		xa += 8
	}
	for ya > 8 {
		if !w.marioMove(0, 8) {
			return false
		}
		ya -= 8
	}
	for ya < -8 {
		if !w.marioMove(0, -8) {
			return false
		}
		ya += 8
	}
	m := &w.mario
	collide := false
	if ya > 0 {
		switch {
		case w.marioBlocking(m.x+xa-m.width, m.y+ya, xa, 0):
			collide = true
		case w.marioBlocking(m.x+xa+m.width, m.y+ya, xa, 0):
			collide = true
		case w.marioBlocking(m.x+xa-m.width, m.y+ya+1, xa, ya):
			collide = true
		case w.marioBlocking(m.x+xa+m.width, m.y+ya+1, xa, ya):
			collide = true
		}
	}
	if ya < 0 {
		switch {
		case w.marioBlocking(m.x+xa, m.y+ya-m.height, xa, ya):
			collide = true
		case w.marioBlocking(m.x+xa-m.width, m.y+ya-m.height, xa, ya):
			collide = true
		case w.marioBlocking(m.x+xa+m.width, m.y+ya-m.height, xa, ya):
			collide = true
		}
	}
	// Sideways all three probes run (each may take a coin).
	if xa > 0 {
		if w.marioBlocking(m.x+xa+m.width, m.y+ya-m.height, xa, ya) {
			collide = true
		}
		if w.marioBlocking(m.x+xa+m.width, m.y+ya-m.height/2, xa, ya) {
			collide = true
		}
		if w.marioBlocking(m.x+xa+m.width, m.y+ya, xa, ya) {
			collide = true
		}
	}
	if xa < 0 {
		if w.marioBlocking(m.x+xa-m.width, m.y+ya-m.height, xa, ya) {
			collide = true
		}
		if w.marioBlocking(m.x+xa-m.width, m.y+ya-m.height/2, xa, ya) {
			collide = true
		}
		if w.marioBlocking(m.x+xa-m.width, m.y+ya, xa, ya) {
			collide = true
		}
	}
	if collide {
		if xa < 0 {
			m.x = float64(int((m.x-m.width)/16)*16) + m.width
			m.xa = 0
		}
		if xa > 0 {
			m.x = float64(int((m.x+m.width)/16+1)*16) - m.width - 1
			m.xa = 0
		}
		if ya < 0 {
			m.y = float64(int((m.y-m.height)/16)*16) + m.height
			m.jumpTime = 0
			m.ya = 0
		}
		if ya > 0 {
			m.y = float64(int((m.y-1)/16+1)*16 - 1)
			m.onGround = true
		}
		return false
	}
	m.x += xa
	m.y += ya
	return true
}

// marioBlocking is Mario's _isBlocking: his own tile never blocks; a coin touched by any probe
// is taken; a blocking tile probed upwards is bumped.
func (w *World) marioBlocking(px, py, xa, ya float64) bool {
	m := &w.mario
	x, y := int(px/16), int(py/16)
	if x == int(m.x/16) && y == int(m.y/16) {
		return false
	}
	blocking := w.isBlocking(x, y, xa, ya)
	if b := w.block(x, y); features[b]&pickable != 0 {
		w.addEvent(EventCollect, b)
		w.collectCoin()
		w.setBlock(x, y, 0)
	}
	if blocking && ya < 0 {
		w.bump(x, y, m.large)
	}
	return blocking
}

func (w *World) marioStomp(targetY float64) {
	m := &w.mario
	if !m.alive {
		return
	}
	w.marioMove(0, targetY-m.y)
	m.xJumpSpeed = 0
	m.yJumpSpeed = marioJumpSpeed
	m.jumpTime = 8
	m.ya = float64(m.jumpTime) * m.yJumpSpeed
	m.onGround = false
	m.invulnerable = 1
}

func (w *World) marioHurt() {
	m := &w.mario
	if m.invulnerable > 0 || !m.alive {
		return
	}
	if m.large {
		w.pauseTimer = 3 * powerUpTime
		if m.fire {
			m.fire = false
		} else {
			m.large = false
		}
		m.invulnerable = 32
		return
	}
	w.lose()
}

func (w *World) updateEnemy(e *enemy) {
	if !e.alive {
		return
	}
	if e.xa > 2 {
		e.facing = 1
	}
	if e.xa < -2 {
		e.facing = -1
	}
	e.xa = float64(e.facing) * enemySideSpeed
	if !w.enemyMove(e, e.xa, 0) {
		e.facing = -e.facing
	}
	e.onGround = false
	w.enemyMove(e, 0, e.ya)
	if e.winged {
		e.ya = float64(e.ya * 0.95)
	} else {
		e.ya = float64(e.ya * 0.85)
	}
	if e.onGround {
		e.xa = float64(e.xa * groundInertia)
	} else {
		e.xa = float64(e.xa * airInertia)
	}
	if !e.onGround {
		if e.winged {
			e.ya += 0.6
		} else {
			e.ya += 2
		}
	} else if e.winged {
		e.ya = -10
	}
}

func (w *World) enemyMove(e *enemy, xa, ya float64) bool {
	for xa > 8 {
		if !w.enemyMove(e, 8, 0) {
			return false
		}
		xa -= 8
	}
	for xa < -8 {
		if !w.enemyMove(e, -8, 0) {
			return false
		}
		xa += 8
	}
	for ya > 8 {
		if !w.enemyMove(e, 0, 8) {
			return false
		}
		ya -= 8
	}
	for ya < -8 {
		if !w.enemyMove(e, 0, -8) {
			return false
		}
		ya += 8
	}
	// Enemy probes have no side effects, so they may stop at the first hit.
	collide := false
	if ya > 0 {
		collide = w.enemyBlocking(e, e.x+xa-e.width, e.y+ya, xa, 0) ||
			w.enemyBlocking(e, e.x+xa+e.width, e.y+ya, xa, 0) ||
			w.enemyBlocking(e, e.x+xa-e.width, e.y+ya+1, xa, ya) ||
			w.enemyBlocking(e, e.x+xa+e.width, e.y+ya+1, xa, ya)
	}
	if ya < 0 {
		collide = w.enemyBlocking(e, e.x+xa, e.y+ya-e.height, xa, ya) ||
			w.enemyBlocking(e, e.x+xa-e.width, e.y+ya-e.height, xa, ya) ||
			w.enemyBlocking(e, e.x+xa+e.width, e.y+ya-e.height, xa, ya)
	}
	if xa > 0 {
		if w.enemyBlocking(e, e.x+xa+e.width, e.y+ya-e.height, xa, ya) ||
			w.enemyBlocking(e, e.x+xa+e.width, e.y+ya-e.height/2, xa, ya) ||
			w.enemyBlocking(e, e.x+xa+e.width, e.y+ya, xa, ya) {
			collide = true
		}
		// A red koopa on the ground turns at a cliff edge.
		if e.avoidCliffs && e.onGround && !w.isBlocking(int((e.x+xa+e.width)/16), int(e.y/16+1), xa, 1) {
			collide = true
		}
	}
	if xa < 0 {
		if w.enemyBlocking(e, e.x+xa-e.width, e.y+ya-e.height, xa, ya) ||
			w.enemyBlocking(e, e.x+xa-e.width, e.y+ya-e.height/2, xa, ya) ||
			w.enemyBlocking(e, e.x+xa-e.width, e.y+ya, xa, ya) {
			collide = true
		}
		if e.avoidCliffs && e.onGround && !w.isBlocking(int((e.x+xa-e.width)/16), int(e.y/16+1), xa, 1) {
			collide = true
		}
	}
	if collide {
		if xa < 0 {
			e.x = float64(int((e.x-e.width)/16)*16) + e.width
			e.xa = 0
		}
		if xa > 0 {
			e.x = float64(int((e.x+e.width)/16+1)*16) - e.width - 1
			e.xa = 0
		}
		if ya < 0 {
			e.y = float64(int((e.y-e.height)/16)*16) + e.height
			e.ya = 0
		}
		if ya > 0 {
			e.y = float64(int(e.y/16+1)*16 - 1)
			e.onGround = true
		}
		return false
	}
	e.x += xa
	e.y += ya
	return true
}

func (w *World) enemyBlocking(e *enemy, px, py, xa, ya float64) bool {
	x, y := int(px/16), int(py/16)
	if x == int(e.x/16) && y == int(e.y/16) {
		return false
	}
	return w.isBlocking(x, y, xa, ya)
}

// collide is the enemy's collideCheck against Mario: a stomp from above kills it (a winged
// enemy loses its wings), anything else hurts Mario. The reference compares Python's builtin
// `type` instead of the sprite type for the shell and winged-spiky cases, so a stomped koopa
// leaves no shell and a winged spiky can be stomped.
func (w *World) collide(e *enemy) {
	if !e.alive {
		return
	}
	m := &w.mario
	dx, dy := m.x-e.x, m.y-e.y
	if dx > -e.width*2-4 && dx < e.width*2+4 && dy > -e.height && dy < m.height {
		if e.typ != Spiky && m.ya > 0 && dy <= 0 && (!m.onGround || !m.wasOnGround) {
			w.marioStomp(e.y - e.height/2)
			if e.winged {
				e.winged = false
				e.ya = 0
			} else {
				w.addEvent(EventStompKill, int(e.typ))
				e.alive = false
			}
			return
		}
		w.addEvent(EventHurt, int(e.typ))
		w.marioHurt()
	}
}

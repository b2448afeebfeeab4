package smb

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"pcgwb/assets"
	"pcgwb/problems/smb/engine"
)

// Sky is the background colour of Mario levels.
var Sky = color.RGBA{109, 143, 252, 255}

// charSprites are the sprites of the level characters; pipes and the flag are decoded from
// their neighbours first.
var charSprites = map[byte]string{
	'M': "smb_mario",
	'y': "smb_spiky",
	'g': "smb_goomba",
	'k': "smb_koopa",
	'r': "smb_red_koopa",
	'X': "smb_ground",
	'#': "smb_solid",
	'Q': "smb_question",
	'S': "smb_brick",
	'o': "smb_coin",
	'<': "smb_pipe_top_left",
	'>': "smb_pipe_top_right",
	'[': "smb_pipe_left",
	']': "smb_pipe_right",
	'O': "smb_pipe_top",
	'H': "smb_pipe",
	'^': "smb_flag_top",
	'f': "smb_flag",
	'I': "smb_pole",
}

// RenderRows draws level rows at 16 px a tile on the sky, as the reference lays them out:
// pipes get their rims and sides from their neighbours, and the flag pole rises from the exit
// with the flag hanging half a tile left of it.
func RenderRows(rows []string) image.Image {
	h := len(rows)
	w := 0
	if h > 0 {
		w = len(rows[0])
	}
	at := func(x, y int) byte {
		if y < 0 || y >= h || x < 0 || x >= len(rows[y]) {
			return 0
		}
		return rows[y][x]
	}
	decoded := make([][]byte, h)
	exitX, exitY := -1, -1
	for y := range decoded {
		decoded[y] = make([]byte, w)
		for x := 0; x < w; x++ {
			c := at(x, y)
			if c == 'F' {
				exitX, exitY = x, y
				c = '-'
			}
			if c == 't' {
				single := at(x+1, y) != 't' && at(x-1, y) != 't'
				top := at(x, y-1) != 't'
				switch {
				case single && top:
					c = 'O'
				case single:
					c = 'H'
				case top && at(x-1, y) == 't':
					c = '>'
				case top:
					c = '<'
				case at(x-1, y) == 't':
					c = ']'
				default:
					c = '['
				}
			}
			decoded[y][x] = c
		}
	}
	if exitX > 1 && h > 2 {
		decoded[1][exitX] = '^'
		decoded[2][exitX-1] = 'f'
	}
	for y := 2; y <= exitY; y++ {
		decoded[y][exitX] = 'I'
	}
	img := image.NewRGBA(image.Rect(0, 0, w*assets.TileSize, h*assets.TileSize))
	draw.Draw(img, img.Bounds(), &image.Uniform{Sky}, image.Point{}, draw.Src)
	// Right to left, so the flag (shifted half a tile right) lies over the pole.
	for y := 0; y < h; y++ {
		for x := w - 1; x >= 0; x-- {
			name, ok := charSprites[decoded[y][x]]
			if !ok {
				continue
			}
			shift := 0
			if decoded[y][x] == 'f' {
				shift = assets.TileSize / 2
			}
			assets.DrawSprite(img, name, x*assets.TileSize+shift, y*assets.TileSize)
		}
	}
	return img
}

// tileSprites are the sprites of the engine's tile ids.
var tileSprites = map[int]string{
	engine.TileGround:        "smb_ground",
	engine.TileSolid:         "smb_solid",
	engine.TileBrick:         "smb_brick",
	engine.TileCoinBrick:     "smb_brick",
	engine.TileCoinBlock:     "smb_question",
	engine.TileUsed:          "smb_used",
	engine.TileCoin:          "smb_coin",
	engine.TilePipeTopLeft:   "smb_pipe_top_left",
	engine.TilePipeTopRight:  "smb_pipe_top_right",
	engine.TilePipeLeft:      "smb_pipe_left",
	engine.TilePipeRight:     "smb_pipe_right",
	engine.TileSinglePipeTop: "smb_pipe_top",
	engine.TileSinglePipe:    "smb_pipe",
	engine.TileFlagTop:       "smb_flag_top",
	engine.TileFlagPole:      "smb_pole",
}

var enemySprites = map[engine.SpriteType]string{
	engine.Goomba:           "smb_goomba",
	engine.GoombaWinged:     "smb_goomba",
	engine.GreenKoopa:       "smb_koopa",
	engine.GreenKoopaWinged: "smb_koopa",
	engine.RedKoopa:         "smb_red_koopa",
	engine.RedKoopaWinged:   "smb_red_koopa",
	engine.Spiky:            "smb_spiky",
	engine.SpikyWinged:      "smb_spiky",
}

// RenderWorld draws what the game shows now: the 256×256 screen at the camera, with the
// level's current tiles, the enemies and Mario (a frame of a replay or of a hand-played game).
func RenderWorld(w *engine.World) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, engine.ScreenWidth, engine.ScreenHeight))
	draw.Draw(img, img.Bounds(), &image.Uniform{Sky}, image.Point{}, draw.Src)
	cx, cy := w.Camera()
	ox, oy := int(math.Floor(cx)), int(math.Floor(cy))
	l := w.Level()
	for tx := ox / engine.TileSize; tx <= (ox+engine.ScreenWidth)/engine.TileSize; tx++ {
		for ty := oy / engine.TileSize; ty <= (oy+engine.ScreenHeight)/engine.TileSize && ty < l.H; ty++ {
			if name, ok := tileSprites[w.Tile(tx, ty)]; ok {
				assets.DrawSprite(img, name, tx*engine.TileSize-ox, ty*engine.TileSize-oy)
			}
		}
	}
	// A sprite's position is its bottom centre.
	sprite := func(name string, s engine.SpriteState) {
		assets.DrawSprite(img, name, int(math.Floor(s.X))-8-ox, int(math.Floor(s.Y))-15-oy)
	}
	for _, e := range w.Enemies(nil) {
		sprite(enemySprites[e.Type], e)
	}
	m := w.Mario()
	switch {
	case !m.Alive && w.Status() != engine.Win:
		sprite("smb_mario_dead", m)
	case !m.OnGround:
		sprite("smb_mario_jump", m)
	default:
		sprite("smb_mario", m)
	}
	return img
}

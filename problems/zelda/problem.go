package zelda

import (
	"fmt"
	"image"
	"strconv"

	"pcgwb/problems"
	"pcgwb/problems/shape"
	"pcgwb/problems/space"
)

// Tile values of the content.
const (
	Wall = iota
	Empty
	Player
	Key
	Door
	Enemy
)

var (
	anyOpen = shape.TileRange(Empty, Enemy)
	// The player may not walk through the door on the way to the key.
	toKey = shape.TilesOf(Empty, Player, Key, Enemy)
	// Measuring key→door needs the door passable; the reference's key→door *path* does not
	// include it, which is why that path is always empty (see Info.KDPath).
	toDoor = shape.TilesOf(Empty, Player, Key, Door, Enemy)
)

func init() {
	problems.MustRegister("zelda-v0", problems.Params{"width": 11, "height": 7, "enemies": 3}, New)
	problems.MustRegister("zelda-enemies-v0", problems.Params{"width": 11, "height": 7, "enemies": 12}, New)
	problems.MustRegister("zelda-large-v0", problems.Params{"width": 18, "height": 12, "enemies": 8}, New)
}

var (
	_ problems.Problem   = (*Zelda)(nil)
	_ problems.Describer = (*Zelda)(nil)
)

// Zelda is one variant of the problem.
type Zelda struct {
	width, height, enemies int
	// erange is the tolerance on the enemy count.
	erange int
	// target is the wanted player→key→door length; the reference's parameter is spelt
	// "sol_legnth".
	target int
	// cerror is the half-width of the controllability plateaus.
	cerror    int
	diversity float64
	content   space.Space
	control   space.Space
}

// Info is what quality, diversity and controllability read; its JSON is the reference's info.
type Info struct {
	Regions   int `json:"regions"`
	Players   int `json:"players"`
	Keys      int `json:"keys"`
	Doors     int `json:"doors"`
	Enemies   int `json:"enemies"`
	PlayerKey int `json:"player_key"`
	KeyDoor   int `json:"key_door"`
	// PKPath is the BFS route from the first player to the first key, as [x, y] pairs.
	PKPath [][2]int `json:"pk_path"`
	// KDPath is always empty: the reference searches it with the door impassable.
	KDPath [][2]int `json:"kd_path"`

	// route is the diversity string of PKPath+KDPath, mirrored toward the top-left corner.
	route string
}

// New builds a variant from its registry parameters (width, height, enemies; optional
// diversity, sol_legnth).
func New(p problems.Params) (problems.Problem, error) {
	w, h := p.Int("width", 0), p.Int("height", 0)
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("zelda: width and height must be positive (got %d×%d)", w, h)
	}
	z := &Zelda{
		width:     w,
		height:    h,
		enemies:   p.Int("enemies", 0),
		diversity: p.Float("diversity", 0.3),
		target:    p.Int("sol_legnth", w+h),
	}
	z.erange = max(int(float64(z.enemies)*0.25), 1)
	z.cerror = max(int(float64(z.target)/2*0.25), 1)
	z.content = space.Grid(h, w, 6)
	lo, hi := int(float64(z.target)/2+float64(z.cerror)), w*h/4
	z.control = space.Dict{
		{Key: "player_key", Space: space.Int{Min: lo, Max: hi}},
		{Key: "key_door", Space: space.Int{Min: lo, Max: hi}},
	}
	return z, nil
}

func (z *Zelda) ContentSpace() space.Space { return z.content }
func (z *Zelda) ControlSpace() space.Space { return z.control }

func (z *Zelda) Description() string {
	return fmt.Sprintf("A %d×%d dungeon room: walls, floor, one player, one key, one door and "+
		"about %d enemies (bats). Quality rewards a single connected area with exactly one "+
		"player, key and door, %d±%d enemies, a walkable player→key→door route, and a route of "+
		"at least %d steps. Diversity compares the player→key routes. The controls "+
		"\"player_key\" and \"key_door\" ask for those two distances (±%d).",
		z.width, z.height, z.enemies, z.enemies, z.erange, z.target, z.cerror)
}

func (z *Zelda) grid(c problems.Content) (shape.Grid, error) {
	return shape.GridSized("zelda", c, z.width, z.height)
}

func (z *Zelda) Info(c problems.Content) (problems.Info, error) {
	g, err := z.grid(c)
	if err != nil {
		return nil, err
	}
	in := &Info{
		Regions:   shape.Regions(g, anyOpen),
		PlayerKey: -1,
		KeyDoor:   -1,
		PKPath:    [][2]int{},
		KDPath:    [][2]int{},
	}
	for _, t := range g.Cells {
		switch t {
		case Player:
			in.Players++
		case Key:
			in.Keys++
		case Door:
			in.Doors++
		case Enemy:
			in.Enemies++
		}
	}
	player, hasPlayer := shape.First(g, shape.TilesOf(Player))
	key, hasKey := shape.First(g, shape.TilesOf(Key))
	door, hasDoor := shape.First(g, shape.TilesOf(Door))
	if hasPlayer && hasKey {
		// One BFS serves both the distance and the path: same source, same passable tiles.
		dist := shape.BFS(g, player.X, player.Y, toKey)
		in.PlayerKey = dist[key.Y*g.W+key.X]
		for _, pt := range shape.Backtrack(g.W, g.H, dist, key.X, key.Y) {
			in.PKPath = append(in.PKPath, [2]int{pt.X, pt.Y})
		}
	}
	if hasKey && hasDoor {
		in.KeyDoor = shape.BFS(g, key.X, key.Y, toDoor)[door.Y*g.W+door.X]
	}
	in.route = z.route(in.PKPath, in.KDPath)
	return in, nil
}

// route is the reference's diversity string: "x,y|" per point, with x (and y) mirrored when
// the path starts in the right (bottom) half, so mirrored routes compare as equal.
func (z *Zelda) route(paths ...[][2]int) string {
	var pts [][2]int
	for _, p := range paths {
		pts = append(pts, p...)
	}
	if len(pts) == 0 {
		return ""
	}
	flipX, flipY := 2*pts[0][0] > z.width, 2*pts[0][1] > z.height
	buf := make([]byte, 0, len(pts)*6)
	for _, p := range pts {
		x, y := p[0], p[1]
		if flipX {
			x = z.width - x - 1
		}
		if flipY {
			y = z.height - y - 1
		}
		buf = strconv.AppendInt(buf, int64(x), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(y), 10)
		buf = append(buf, '|')
	}
	return string(buf)
}

func (z *Zelda) area() float64 { return float64(z.width * z.height) }

func (z *Zelda) Quality(info problems.Info) float64 {
	in := info.(*Info)
	a := z.area()
	regions := shape.Reward(float64(in.Regions), 0, 1, 1, a/10)
	player := shape.Reward(float64(in.Players), 0, 1, 1, a)
	key := shape.Reward(float64(in.Keys), 0, 1, 1, a)
	door := shape.Reward(float64(in.Doors), 0, 1, 1, a)
	enemies := shape.Reward(float64(in.Enemies), 0, float64(z.enemies-z.erange), float64(z.enemies+z.erange), a)
	stats := (player + key + door + enemies) / 4.0
	added := 0.0
	if player >= 1 && key >= 1 && door >= 1 {
		playable := (shape.B2F(in.PlayerKey > 0) + shape.B2F(in.KeyDoor > 0)) / 2.0
		added += playable
		if playable == 1 {
			added += shape.Reward4(float64(in.PlayerKey+in.KeyDoor), 0, float64(z.target), a)
		}
	}
	return (regions + stats + added) / 4.0
}

func (z *Zelda) Diversity(x, y problems.Info) float64 {
	ratio := shape.Ratio(x.(*Info).route, y.(*Info).route)
	return shape.Reward4(1-ratio, 0, z.diversity, 1.0)
}

// DiversityKernel prepares the routes' difflib indexes once for a set (problems.DiversityKerneler).
func (z *Zelda) DiversityKernel(infos []problems.Info) func() func(i, j int) float64 {
	routes := make([]string, len(infos))
	for i, in := range infos {
		routes[i] = in.(*Info).route
	}
	return problems.RatioKernel(routes, func(_, _ int, ratio float64) float64 { return shape.Reward4(1-ratio, 0, z.diversity, 1.0) })
}

func (z *Zelda) Controllability(info problems.Info, control problems.Control) float64 {
	in := info.(*Info)
	limit := float64(z.width * z.height / 4)
	pk, kd := problems.ControlInt(control, "player_key"), problems.ControlInt(control, "key_door")
	playerKey := shape.Reward(float64(in.PlayerKey), 0, float64(pk-z.cerror), float64(pk+z.cerror), limit)
	keyDoor := shape.Reward(float64(in.KeyDoor), 0, float64(kd-z.cerror), float64(kd+z.cerror), limit)
	return (playerKey + keyDoor) / 2
}

func (z *Zelda) Render(c problems.Content) (image.Image, error) {
	g, err := z.grid(c)
	if err != nil {
		return nil, err
	}
	return render(g), nil
}

// DiversityKey is what Diversity compares: the route (problems.DiversityKeyer).
func (z *Zelda) DiversityKey(info problems.Info) string { return info.(*Info).route }

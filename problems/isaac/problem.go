package isaac

import (
	"fmt"
	"image"
	"math/bits"

	"pcgwb/problems"
	"pcgwb/problems/shape"
	"pcgwb/problems/space"
)

var rooms = shape.TileRange(1, 15)

func init() {
	// The reference registers a "rooms" parameter that its constructor never reads: every
	// variant targets map_size 6.
	problems.MustRegister("isaac-v0", problems.Params{"width": 4, "height": 4, "rooms": 6}, New)
	problems.MustRegister("isaac-medium-v0", problems.Params{"width": 6, "height": 6, "rooms": 12}, New)
	problems.MustRegister("isaac-large-v0", problems.Params{"width": 8, "height": 8, "rooms": 24}, New)
}

var (
	_ problems.Problem   = (*Isaac)(nil)
	_ problems.Describer = (*Isaac)(nil)
)

// Isaac is one variant of the problem.
type Isaac struct {
	width, height int
	// target is the wanted number of rooms (parameter map_size, default 6).
	target int
	// cerror is the tolerance of the room-count control (a float: 0.2 × width × height).
	cerror    float64
	diversity float64
	content   space.Space
	control   space.Space
}

// Content is the typed form of a content.
type Content struct {
	Layout                      []int
	Start, Boss, Shop, Treasure int
}

// Info is what quality, diversity and controllability read; its JSON is the reference's info.
type Info struct {
	MapSize          int `json:"map_size"`
	NumRegions       int `json:"num_regions"`
	ConnectRegions   int `json:"connect_regions"`
	LooseConnections int `json:"loose_connections"`
	// Locations is the number of distinct existing rooms among start, boss, treasure and shop.
	Locations          int `json:"locations"`
	PlayerBossDistance int `json:"player_boss_distance"`
	// Flat is the 3× expanded maze (0 wall, 1 room, 2 door) in row-major order.
	Flat []int `json:"flat"`
	// DeadEnd counts boss/treasure/shop rooms with a single door; the reference computes it
	// but no score uses it.
	DeadEnd int `json:"dead_end"`
}

// New builds a variant from its registry parameters (width, height; optional map_size,
// diversity).
func New(p problems.Params) (problems.Problem, error) {
	w, h := p.Int("width", 0), p.Int("height", 0)
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("isaac: width and height must be positive (got %d×%d)", w, h)
	}
	is := &Isaac{
		width:     w,
		height:    h,
		target:    p.Int("map_size", 6),
		diversity: p.Float("diversity", 0.6),
	}
	// Same operand order as the reference: (0.2 * width) * height.
	is.cerror = 0.2 * float64(w) * float64(h)
	cell := space.Int{Min: 0, Max: w * h}
	is.content = space.Dict{
		{Key: "layout", Space: space.Array{Dims: []int{w * h}, Leaf: space.Int{Min: 0, Max: 16}}},
		{Key: "start", Space: cell},
		{Key: "boss", Space: cell},
		{Key: "shop", Space: cell},
		{Key: "treasure", Space: cell},
	}
	is.control = space.Dict{{Key: "map_size", Space: space.Int{Min: is.target, Max: w * h}}}
	return is, nil
}

func (is *Isaac) ContentSpace() space.Space { return is.content }
func (is *Isaac) ControlSpace() space.Space { return is.control }

func (is *Isaac) Description() string {
	return fmt.Sprintf("A %d×%d dungeon floor plan: each cell is empty or a room with doors on "+
		"some of its sides, plus the start, boss, shop and treasure rooms. Quality rewards, in "+
		"order, at least %d rooms, all rooms connected through doors, four distinct special "+
		"rooms with a long start→boss walk, and no doors leading nowhere. Diversity compares "+
		"the rooms and doors. The control \"map_size\" asks for that many rooms (±%.1f).",
		is.width, is.height, is.target, is.cerror)
}

// Decode reads a normalized content into its typed form, checking sizes and indices.
func (is *Isaac) Decode(c problems.Content) (Content, error) {
	var out Content
	m, ok := c.(map[string]any)
	if !ok {
		return out, fmt.Errorf("isaac: content is not an object")
	}
	raw, ok := m["layout"].([]any)
	if !ok || len(raw) != is.width*is.height {
		return out, fmt.Errorf("isaac: layout must be a list of %d rooms", is.width*is.height)
	}
	out.Layout = make([]int, len(raw))
	for i, v := range raw {
		n, ok := asInt(v)
		if !ok || n < 0 || n > 15 {
			return out, fmt.Errorf("isaac: layout[%d] is not a door mask 0..15", i)
		}
		out.Layout[i] = n
	}
	for _, f := range []struct {
		key string
		dst *int
	}{{"start", &out.Start}, {"boss", &out.Boss}, {"shop", &out.Shop}, {"treasure", &out.Treasure}} {
		n, ok := asInt(m[f.key])
		if !ok || n < 0 || n >= len(raw) {
			return out, fmt.Errorf("isaac: %s must be a room index in [0, %d)", f.key, len(raw))
		}
		*f.dst = n
	}
	return out, nil
}

func (is *Isaac) Info(c problems.Content) (problems.Info, error) {
	ct, err := is.Decode(c)
	if err != nil {
		return nil, err
	}
	w, h := is.width, is.height
	layout := shape.Grid{W: w, H: h, Cells: ct.Layout}
	m := maze(ct.Layout, w, h)
	in := &Info{
		MapSize:            shape.Count(layout, rooms),
		NumRegions:         shape.Regions(layout, rooms),
		ConnectRegions:     shape.Regions(m, shape.TilesOf(mazeRoom, mazeDoor)),
		LooseConnections:   looseConnections(m),
		PlayerBossDistance: startBossDistance(m, ct.Start, ct.Boss, w),
		Flat:               m.Cells,
	}
	var seen [4]int
	for _, idx := range [...]int{ct.Start, ct.Boss, ct.Treasure, ct.Shop} {
		if ct.Layout[idx] == 0 {
			continue
		}
		dup := false
		for _, s := range seen[:in.Locations] {
			dup = dup || s == idx
		}
		if !dup {
			seen[in.Locations] = idx
			in.Locations++
		}
	}
	for _, idx := range [...]int{ct.Boss, ct.Treasure, ct.Shop} {
		switch ct.Layout[idx] {
		case DoorLeft, DoorUp, DoorRight, DoorDown:
			in.DeadEnd++
		}
	}
	return in, nil
}

func (is *Isaac) area() float64 { return float64(is.width * is.height) }

// Quality is a gated chain: each group only counts once the previous one is perfect.
func (is *Isaac) Quality(info problems.Info) float64 {
	in := info.(*Info)
	a := is.area()
	mapSize := shape.Reward4(float64(in.MapSize), 0, float64(is.target), a)
	regions := 0.0
	if mapSize >= 1 {
		regions += shape.Reward(float64(in.NumRegions), 0, 1, 1, a)
		regions += shape.Reward(float64(in.ConnectRegions), 0, 1, 1, a)
	}
	regions /= 2.0
	functional := 0.0
	if regions >= 1 {
		functional += shape.Reward3(float64(in.Locations), 0, 4)
		functional += shape.Reward4(float64(in.PlayerBossDistance), 0, float64(is.width+is.height), 9*a)
		functional /= 2.0
	}
	loose := 0.0
	if functional >= 1 {
		loose = shape.Reward(float64(in.LooseConnections), 0, 0, 0, a)
	}
	return 0.9*(mapSize+regions+functional)/3 + 0.1*loose
}

// Diversity counts maze cells that differ by one (room vs wall, or door vs room) and by two
// (door vs wall). Each count is scored with a single-point reward that is 1 only at exactly
// width×height differences and 0 above, as the reference does.
func (is *Isaac) Diversity(x, y problems.Info) float64 {
	a, b := x.(*Info).Flat, y.(*Info).Flat
	ones, twos := 0, 0
	for i := range a {
		switch d := a[i] - b[i]; d {
		case 1, -1:
			ones++
		case 2, -2:
			twos++
		}
	}
	area := is.area()
	normRooms := shape.Reward3(float64(ones), 0, area)
	normDoors := shape.Reward3(float64(twos), 0, area)
	return shape.Reward4(0.25*normRooms+0.75*normDoors, 0, is.diversity, 1)
}

// DiversityKernel keeps a set's mazes as one bitset per cell value (problems.DiversityKerneler):
// with values 0, 1 and 2 a difference of 2 is a wall facing a door and every other difference
// is 1, so both counts are word operations.
func (is *Isaac) DiversityKernel(infos []problems.Info) func() func(i, j int) float64 {
	if len(infos) == 0 {
		return nil
	}
	length := len(infos[0].(*Info).Flat)
	planes := shape.NewValuePlanes(len(infos), length, 3)
	for i, in := range infos {
		if f := in.(*Info).Flat; len(f) != length || !shape.PlaneRow(planes, i, f) {
			return nil
		}
	}
	area := is.area()
	return func() func(i, j int) float64 {
		return func(i, j int) float64 {
			a, b := planes.Row(i), planes.Row(j)
			ones, twos := 0, 0
			for k := 0; k+2 < len(a) && k+2 < len(b); k += 3 {
				a0, a1, a2 := a[k], a[k+1], a[k+2]
				b0, b1, b2 := b[k], b[k+1], b[k+2]
				t := a0&b2 | a2&b0
				twos += bits.OnesCount64(t)
				ones += bits.OnesCount64(((a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2)) &^ t)
			}
			normRooms := shape.Reward3(float64(ones), 0, area)
			normDoors := shape.Reward3(float64(twos), 0, area)
			return shape.Reward4(0.25*normRooms+0.75*normDoors, 0, is.diversity, 1)
		}
	}
}

// Controllability: the lower edge is at target−cerror and the plateau runs from target+cerror
// up to width×height (the reference passes the bounds in that order).
func (is *Isaac) Controllability(info problems.Info, control problems.Control) float64 {
	target := float64(problems.ControlInt(control, "map_size"))
	return shape.Reward4(float64(info.(*Info).MapSize), target-is.cerror, target+is.cerror, is.area())
}

func (is *Isaac) Render(c problems.Content) (image.Image, error) {
	ct, err := is.Decode(c)
	if err != nil {
		return nil, err
	}
	return render(ct, is.width, is.height), nil
}

func asInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case float64:
		return int(n), n == float64(int(n))
	}
	return 0, false
}

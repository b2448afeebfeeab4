package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"sync/atomic"
	"time"

	"pcgwb/assets"
	"pcgwb/problems"
	"pcgwb/problems/space"
)

// Problems registered only in this test binary. Names are unique to the package so they can
// never clash with real problems.
const (
	fakeName     = "apptest-rooms-v0"
	brokenName   = "apptest-broken-v0"
	noPicName    = "apptest-nopicture-v0"
	slowName     = "apptest-slow-v0"
	missingName  = "apptest-missing-v0"
	fakeRows     = 7
	fakeCols     = 11
	fakeMaxWalls = fakeRows * fakeCols
)

func init() {
	problems.MustRegister(fakeName, problems.Params{}, func(problems.Params) (problems.Problem, error) { return &rooms{}, nil })
	problems.MustRegister(brokenName, problems.Params{}, func(problems.Params) (problems.Problem, error) { return &rooms{failInfo: true}, nil })
	problems.MustRegister(noPicName, problems.Params{}, func(problems.Params) (problems.Problem, error) { return &rooms{failRender: true}, nil })
	problems.MustRegister(slowName, problems.Params{}, func(problems.Params) (problems.Problem, error) {
		return &rooms{delay: 40 * time.Millisecond}, nil
	})
	if err := problems.RegisterEntry(problems.Entry{Name: missingName, Available: func() error { return errors.New("needs the test data set") },
		New: func(problems.Params) (problems.Problem, error) { return &rooms{}, nil }}); err != nil {
		panic(err)
	}
}

// rooms is a tiny tile problem: 0 floor, 1 wall, 2 player. Good levels have one player and a
// wall share between 20 % and 50 %; the control asks for a wall count.
type rooms struct {
	failInfo, failRender bool
	delay                time.Duration
	infoCalls            atomic.Int64
}

type roomsInfo struct {
	cells   []int
	walls   int
	players int
}

// MarshalJSON gives the info the numeric fields the expressive range and exports read.
func (i *roomsInfo) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"walls": i.walls, "players": i.players, "floor": len(i.cells) - i.walls - i.players,
		"room": map[string]any{"closed": i.walls >= 2*(fakeRows+fakeCols)-4}})
}

func (r *rooms) Description() string {
	return "A test problem: rooms of walls and floor with one player."
}

func (r *rooms) ContentSpace() space.Space { return space.Grid(fakeRows, fakeCols, 3) }
func (r *rooms) ControlSpace() space.Space {
	return space.Dict{{Key: "walls", Space: space.Int{Min: 0, Max: fakeMaxWalls}}}
}

func (r *rooms) Info(c problems.Content) (problems.Info, error) {
	r.infoCalls.Add(1)
	if r.failInfo {
		return nil, errors.New("this problem always fails")
	}
	time.Sleep(r.delay)
	info := &roomsInfo{}
	for _, row := range c.([]any) {
		for _, v := range row.([]any) {
			t := v.(int)
			info.cells = append(info.cells, t)
			switch t {
			case 1:
				info.walls++
			case 2:
				info.players++
			}
		}
	}
	return info, nil
}

func (r *rooms) Quality(i problems.Info) float64 {
	info := i.(*roomsInfo)
	q := 0.5
	if info.players >= 1 {
		q += 0.25
	}
	if share := float64(info.walls) / fakeMaxWalls; share >= 0.2 && share <= 0.5 {
		q += 0.25
	}
	return q
}

func (r *rooms) Diversity(a, b problems.Info) float64 {
	x, y := a.(*roomsInfo), b.(*roomsInfo)
	diff := 0
	for i := range x.cells {
		if x.cells[i] != y.cells[i] {
			diff++
		}
	}
	return min(1, 3*float64(diff)/float64(len(x.cells)))
}

func (r *rooms) Controllability(i problems.Info, c problems.Control) float64 {
	want := c.(map[string]any)["walls"].(int)
	d := float64(i.(*roomsInfo).walls - want)
	if d < 0 {
		d = -d
	}
	return max(0, 1-max(0, d-4)/20)
}

func (r *rooms) Render(c problems.Content) (image.Image, error) {
	if r.failRender {
		return nil, fmt.Errorf("no sprites for this problem")
	}
	var names [][]string
	for _, row := range c.([]any) {
		var line []string
		for _, v := range row.([]any) {
			line = append(line, [...]string{"floor", "wall", "player"}[v.(int)])
		}
		names = append(names, line)
	}
	return assets.TileMap(names), nil
}

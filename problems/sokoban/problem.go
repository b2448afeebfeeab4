package sokoban

import (
	"fmt"
	"image"
	"strings"

	"pcgwb/problems"
	"pcgwb/problems/shape"
	"pcgwb/problems/solver"
	"pcgwb/problems/space"
)

// Tile values of the content.
const (
	Solid  = 0
	Empty  = 1
	Player = 2
	Crate  = 3
	Target = 4
)

var (
	playerTiles = shape.TilesOf(Player)
	crateTiles  = shape.TilesOf(Crate)
	targetTiles = shape.TilesOf(Target)
)

func init() {
	problems.MustRegister("sokoban-v0", problems.Params{"width": 5, "height": 5, "difficulty": 1, "solver": 5000}, New)
	problems.MustRegister("sokoban-complex-v0", problems.Params{"width": 5, "height": 5, "difficulty": 4, "solver": 20000}, New)
	problems.MustRegister("sokoban-large-v0", problems.Params{"width": 8, "height": 8, "difficulty": 3, "solver": 10000}, New)
}

// Sokoban is one variant of the problem.
type Sokoban struct {
	// width is the number of content rows and height the number of columns: the reference's
	// content space is ArraySpace((width, height)). All registered variants are square.
	width, height int
	// difficulty scales the solution length quality asks for: (width+height)*difficulty moves.
	difficulty int
	// power is the iteration budget of each of the four agents.
	power int
	// diversity is the solution-string distance at which two levels count as fully diverse.
	diversity float64
	content   space.Space
	control   space.Space
}

// Info is what quality, diversity and controllability read; its JSON is the reference's info.
type Info struct {
	Players int `json:"players"`
	Crates  int `json:"crates"`
	Targets int `json:"targets"`
	// Content is the analysed level (rows of tiles).
	Content [][]int `json:"content"`
	// Heuristic is -1 when the level was not played (not exactly one player, or no crates, or
	// crates != targets), 0 when the agents solved it, else the remaining crate-target distance
	// of the last A* agent's best node.
	Heuristic int `json:"heuristic"`
	// Solution is the winning move list (empty unless solved).
	Solution []solver.Dir `json:"solution"`
	// signature is the solution's normalised move string that diversity compares.
	signature string
}

// New builds a variant from its registry parameters (width, height, difficulty, solver;
// optional diversity).
func New(p problems.Params) (problems.Problem, error) {
	w, h := p.Int("width", 0), p.Int("height", 0)
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("sokoban: width and height must be positive (got %d×%d)", w, h)
	}
	// A playable level has one player and as many targets as crates, so at most (w*h-1)/2
	// crates reach the solver.
	if (w+2)*(h+2) > MaxCells || (w*h-1)/2 > MaxCrates {
		return nil, fmt.Errorf("sokoban: a %d×%d level is too large for the solver's state encoding", w, h)
	}
	s := &Sokoban{
		width:      w,
		height:     h,
		difficulty: p.Int("difficulty", 1),
		power:      p.Int("solver", 5000),
		diversity:  p.Float("diversity", 0.5),
	}
	s.content = space.Grid(w, h, 5)
	s.control = space.Dict{{Key: "crates", Space: space.Int{Min: 1, Max: max(w+1, h+1)}}}
	return s, nil
}

func (s *Sokoban) ContentSpace() space.Space { return s.content }
func (s *Sokoban) ControlSpace() space.Space { return s.control }

func (s *Sokoban) Description() string {
	return fmt.Sprintf("Sokoban on a %d×%d floor: push every crate onto a target. Quality asks for one "+
		"player, as many targets as crates, and a level the built-in agents (breadth-first, then "+
		"A*, %d steps each) can solve in at least %d moves. Diversity compares the solutions' "+
		"move patterns (the same whichever way the level is mirrored or turned). The control \"crates\" asks for that many "+
		"crates (±1).",
		s.height, s.width, s.power, (s.width+s.height)*s.difficulty)
}

func (s *Sokoban) grid(c problems.Content) (shape.Grid, error) {
	g, err := shape.GridFromContent(c)
	if err != nil {
		return g, err
	}
	if g.H != s.width || g.W != s.height {
		return g, fmt.Errorf("sokoban: content is %d rows × %d columns, want %d × %d", g.H, g.W, s.width, s.height)
	}
	return g, nil
}

func (s *Sokoban) Info(c problems.Content) (problems.Info, error) {
	g, err := s.grid(c)
	if err != nil {
		return nil, err
	}
	info := &Info{
		Players:   shape.Count(g, playerTiles),
		Crates:    shape.Count(g, crateTiles),
		Targets:   shape.Count(g, targetTiles),
		Content:   g.Rows(),
		Heuristic: -1,
		Solution:  []solver.Dir{},
	}
	if info.Players == 1 && info.Crates > 0 && info.Crates == info.Targets {
		start, err := NewGame(g)
		if err != nil {
			return nil, err
		}
		h, r := Solve(start, s.power)
		info.Heuristic = h
		if r.Won {
			info.Solution = r.Actions
			info.signature = Signature(start, r.Actions)
		}
	}
	return info, nil
}

func (s *Sokoban) area() float64 { return float64(s.width * s.height) }

func (s *Sokoban) Quality(info problems.Info) float64 {
	in := info.(*Info)
	a := s.area()
	player := shape.Reward(float64(in.Players), 0, 1, 1, a)
	crates := shape.Reward4(float64(in.Crates), 0, 1, a)
	balance := shape.Reward(float64(shape.Abs(in.Crates-in.Targets)), 0, 0, 0, a)
	stats := (player + crates + balance) / 3.0
	added := 0.0
	if in.Heuristic >= 0 {
		heuristic := shape.Reward(float64(in.Heuristic), 0, 0, 0, float64((s.width+s.height)*in.Crates))
		length := shape.Reward4(float64(len(in.Solution)), 0, float64((s.width+s.height)*s.difficulty), a*a)
		added = (heuristic + length) / 2.0
	}
	return (stats + added) / 2.0
}

// Diversity compares the two solutions' signatures with difflib's ratio, which is not
// symmetric, so neither is this.
func (s *Sokoban) Diversity(a, b problems.Info) float64 {
	ratio := shape.Ratio(a.(*Info).signature, b.(*Info).signature)
	return shape.Reward4(1-ratio, 0, s.diversity, 1.0)
}

// DiversityKernel prepares the signatures' difflib indexes once for a set
// (problems.DiversityKerneler).
func (s *Sokoban) DiversityKernel(infos []problems.Info) func() func(i, j int) float64 {
	sigs := make([]string, len(infos))
	for i, in := range infos {
		sigs[i] = in.(*Info).signature
	}
	return problems.RatioKernel(sigs, func(_, _ int, ratio float64) float64 { return shape.Reward4(1-ratio, 0, s.diversity, 1.0) })
}

func (s *Sokoban) Controllability(info problems.Info, control problems.Control) float64 {
	in := info.(*Info)
	c := problems.ControlInt(control, "crates")
	return shape.Reward(float64(in.Crates), 0, float64(max(c-1, 1)), float64(c+1), s.area())
}

func (s *Sokoban) Render(c problems.Content) (image.Image, error) {
	g, err := s.grid(c)
	if err != nil {
		return nil, err
	}
	return renderContent(g), nil
}

// Signature is the move string diversity compares: the solution is replayed from start to
// learn which moves push a crate, then normalised so that mirrored and rotated solutions read
// the same — transposed if the first move is vertical, mirrored so the first move goes right
// and the first vertical move goes down — and spelled one letter per move (r l d u for walks,
// e k s y for pushes) with repeated letters collapsed.
func Signature(start State, actions []solver.Dir) string {
	if len(actions) == 0 {
		return ""
	}
	state := start
	pushes := make([]bool, len(actions))
	for i, a := range actions {
		_, pushes[i] = state.Move(a)
	}
	moves := append([]solver.Dir(nil), actions...)
	if moves[0].X == 0 {
		for i := range moves {
			moves[i].X, moves[i].Y = moves[i].Y, moves[i].X
		}
	}
	if moves[0].X < 0 {
		for i := range moves {
			moves[i].X = -moves[i].X
		}
	}
	for _, m := range moves {
		if m.Y != 0 {
			if m.Y < 0 {
				for i := range moves {
					moves[i].Y = -moves[i].Y
				}
			}
			break
		}
	}
	var b strings.Builder
	var last byte
	for i, m := range moves {
		letters := "rldueksy"
		if pushes[i] {
			letters = letters[4:]
		}
		// The reference appends one letter per matching test; unit moves match exactly one.
		for j, hit := range [4]bool{m.X == 1, m.X == -1, m.Y == 1, m.Y == -1} {
			if hit && letters[j] != last {
				last = letters[j]
				b.WriteByte(last)
			}
		}
	}
	return b.String()
}

// DiversityKey is what Diversity compares: the solution's signature (problems.DiversityKeyer).
func (s *Sokoban) DiversityKey(info problems.Info) string { return info.(*Info).signature }

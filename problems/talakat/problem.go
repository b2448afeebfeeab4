package talakat

import (
	"fmt"
	"image"
	"math"
	"math/bits"

	"pcgwb/problems"
	"pcgwb/problems/shape"
	"pcgwb/problems/space"
)

func init() {
	base := func(extra problems.Params) problems.Params {
		p := problems.Params{"width": 200, "height": 300}
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	problems.MustRegister("talakat-v0", base(problems.Params{"spawnerComplexity": 10, "maxHealth": 150}), New)
	problems.MustRegister("talakat-simple-v0", base(problems.Params{"spawnerComplexity": 5,
		"min_bullets": 15, "coverage": 0.75, "maxHealth": 150}), New)
	problems.MustRegister("talakat-complex-v0", base(problems.Params{"spawnerComplexity": 20,
		"min_bullets": 60, "maxHealth": 150}), New)
	problems.MustRegister("talakat-long-v0", base(problems.Params{"spawnerComplexity": 20, "maxHealth": 300}), New)
}

var (
	_ problems.Problem   = (*Talakat)(nil)
	_ problems.Describer = (*Talakat)(nil)
)

// Frames per section: the fight is cut into sections of 30 frames (boss health points).
const sectionFrames = 30

// Talakat is one variant of the problem.
type Talakat struct {
	width, height int
	// complexity is the number of spawners (content rows).
	complexity int
	maxHealth  int
	// sections = max(1, maxHealth/30): the per-section bullet statistics.
	sections int
	// bucketsX × bucketsY is the coverage grid (cells of 20 px).
	bucketsX, bucketsY int
	diversity          float64
	renderSampling     int
	empty              float64
	minBullets         int
	coverage           float64
	// cerror is the half-width of the controllability plateau (half of minBullets).
	cerror  int
	content space.Space
	control space.Space
}

// Info is what quality, diversity and controllability read; its JSON is the reference's info.
type Info struct {
	// ScriptConnectivity is the fraction of spawners reachable from spawner_0 (itself included).
	ScriptConnectivity float64 `json:"script_connectivity"`
	// Percentage is the fraction of the fight the pattern lasted (1 when the boss ran out of
	// health before the pattern broke the bullet or spawner limit).
	Percentage float64 `json:"percentage"`
	// Bullets is the mean number of bullets on screen per section.
	Bullets []float64 `json:"bullets"`
	// BulletCoverage is the normalised entropy of the coverage grid over the whole fight.
	BulletCoverage float64 `json:"bullet_coverage"`
	// BulletLocations is, per section, the mean share of the bullets in each coverage cell.
	BulletLocations [][]float64 `json:"bullet_locations"`
}

// New builds a variant from its registry parameters (width, height, spawnerComplexity,
// maxHealth; optional diversity, renderSampling, empty, min_bullets, coverage).
func New(p problems.Params) (problems.Problem, error) {
	t := &Talakat{
		width:          p.Int("width", 200),
		height:         p.Int("height", 300),
		complexity:     p.Int("spawnerComplexity", 10),
		maxHealth:      p.Int("maxHealth", 150),
		diversity:      p.Float("diversity", 0.5),
		renderSampling: p.Int("renderSampling", 5),
		empty:          p.Float("empty", 0.4),
		minBullets:     p.Int("min_bullets", 50),
		coverage:       p.Float("coverage", 0.95),
	}
	if t.width <= 0 || t.height <= 0 || t.complexity <= 0 || t.maxHealth <= 0 {
		return nil, fmt.Errorf("talakat: width, height, spawnerComplexity and maxHealth must be positive")
	}
	t.sections = max(1, t.maxHealth/sectionFrames)
	if t.maxHealth > t.sections*sectionFrames {
		// The reference indexes section int(frame/30) of max(1, int(maxHealth/30)) sections and
		// fails (IndexError) on the frames past the last full section.
		return nil, fmt.Errorf("talakat: maxHealth %d must be at most 30 or a multiple of 30", t.maxHealth)
	}
	t.bucketsX = max(1, t.width/20)
	t.bucketsY = max(1, t.height/20)
	t.cerror = int(0.5 * float64(t.minBullets))
	t.content = space.Grid(t.complexity, 100, 100)
	lo, hi := t.minBullets+t.cerror, MaxBullets/2-t.cerror
	if lo >= hi {
		return nil, fmt.Errorf("talakat: min_bullets %d leaves an empty control range", t.minBullets)
	}
	t.control = space.Dict{{Key: "bullets", Space: space.Array{Dims: []int{t.sections}, Leaf: space.Int{Min: lo, Max: hi}}}}
	return t, nil
}

func (t *Talakat) ContentSpace() space.Space { return t.content }
func (t *Talakat) ControlSpace() space.Space { return t.control }

func (t *Talakat) Description() string {
	return fmt.Sprintf("A bullet-hell boss fight on a %d×%d screen. Each of the %d content rows is a "+
		"sequence of grammar choices that defines one bullet spawner (pattern, timing, angles, speeds, "+
		"radii); spawner_0 starts the fight and may launch the others. The fight lasts %d frames "+
		"and stops early with more than %d bullets or %d spawners. Quality asks for a pattern that "+
		"lasts the whole fight, covers the screen evenly (entropy ≥ %.2f), keeps at least %d bullets "+
		"on screen and leaves %.0f%% of the screen empty in each %d-frame section. Diversity compares "+
		"where the bullets are, section by section. The control \"bullets\" asks for a number of bullets "+
		"per section (±%d).",
		t.width, t.height, t.complexity, t.maxHealth, MaxBullets, MaxSpawners, t.coverage, t.minBullets,
		t.empty*100, sectionFrames, t.cerror)
}

func (t *Talakat) rows(c problems.Content) ([][]int, error) {
	g, err := shape.GridFromContent(c)
	if err != nil {
		return nil, err
	}
	if g.H != t.complexity || g.W != 100 {
		return nil, fmt.Errorf("talakat: content is %d rows × %d values, want %d × 100", g.H, g.W, t.complexity)
	}
	return g.Rows(), nil
}

// Script expands a content into its spawner script.
func (t *Talakat) Script(c problems.Content) (Script, error) {
	rows, err := t.rows(c)
	if err != nil {
		return Script{}, err
	}
	return expandScript(rows)
}

// NewWorld builds the world of a content at the start of the fight; the benchmark's player is
// invulnerable (set Player.Invulnerable = false to play it).
func (t *Talakat) NewWorld(c problems.Content) (*World, error) {
	s, err := t.Script(c)
	if err != nil {
		return nil, err
	}
	w, err := NewWorld(s, t.width, t.height, t.maxHealth)
	if err != nil {
		return nil, err
	}
	w.Player.Invulnerable = true
	return w, nil
}

func (t *Talakat) Info(c problems.Content) (problems.Info, error) {
	w := worldPool.Get().(*World)
	defer worldPool.Put(w)
	sc := &w.scratch
	rows, ok := sc.readRows(c, t.complexity, 100)
	if !ok {
		// Not a well-formed grid of this size: the general reader says why.
		var err error
		if rows, err = t.rows(c); err != nil {
			return nil, err
		}
	}
	script, err := expandScript(rows)
	if err != nil {
		return nil, err
	}
	if _, err := resetWorld(w, script, t.width, t.height, t.maxHealth); err != nil {
		return nil, err
	}
	w.Player.Invulnerable = true
	nb := t.bucketsX * t.bucketsY
	// The sections' maps share one array: one allocation for the whole result.
	locs := make([]float64, t.sections*nb)
	info := &Info{
		ScriptConnectivity: float64(connectivity(w.defs)+1) / float64(t.complexity),
		Bullets:            make([]float64, t.sections),
		BulletLocations:    make([][]float64, t.sections),
	}
	for i := range info.BulletLocations {
		info.BulletLocations[i] = locs[i*nb : (i+1)*nb : (i+1)*nb]
	}
	coverage := sc.zeroed(nb)
	cells := &sc.cells
	cells.init(t)
	snapshots := 0
	for !w.Won() && !w.Lost() {
		// Snapshot i is the world before update i+1.
		cells.count(w.Bullets)
		s := float64(max(1, cells.total))
		sec := info.BulletLocations[snapshots/sectionFrames]
		for _, b := range cells.touched {
			v := float64(cells.counts[b]) / s
			sec[b] += v
			coverage[b] += v
		}
		info.Bullets[snapshots/sectionFrames] += float64(len(w.Bullets))
		snapshots++
		if !w.Step(0, 0) || len(w.Spawners) > MaxSpawners {
			break
		}
	}
	info.Percentage = float64(snapshots) / float64(t.maxHealth)
	for i := range info.Bullets {
		info.Bullets[i] /= sectionFrames
		for b := range info.BulletLocations[i] {
			info.BulletLocations[i][b] /= sectionFrames
		}
	}
	for b := range coverage {
		coverage[b] /= float64(t.maxHealth)
	}
	info.BulletCoverage = entropy(coverage)
	return info, nil
}

// infoScratch is the buffers an Info run reuses (kept in the pooled World).
type infoScratch struct {
	cells    cellCounter
	coverage []float64
	rows     [][]int
	values   []int
}

// zeroed is the coverage buffer of n zeros.
func (sc *infoScratch) zeroed(n int) []float64 {
	if cap(sc.coverage) < n {
		sc.coverage = make([]float64, n)
	}
	sc.coverage = sc.coverage[:n]
	clear(sc.coverage)
	return sc.coverage
}

// readRows reads a content of h rows of w values (ints, or floats truncated, as
// shape.GridFromContent reads them) into the scratch rows; false when it is anything else.
func (sc *infoScratch) readRows(c problems.Content, h, w int) ([][]int, bool) {
	list, ok := c.([]any)
	if !ok || len(list) != h {
		return nil, false
	}
	if cap(sc.values) < h*w {
		sc.values, sc.rows = make([]int, h*w), make([][]int, h)
	}
	sc.values, sc.rows = sc.values[:h*w], sc.rows[:h]
	for y, r := range list {
		row, ok := r.([]any)
		if !ok || len(row) != w {
			return nil, false
		}
		out := sc.values[y*w : (y+1)*w : (y+1)*w]
		for x, v := range row {
			switch n := v.(type) {
			case int:
				out[x] = n
			case float64:
				out[x] = int(n)
			default:
				return nil, false
			}
		}
		sc.rows[y] = out
	}
	return sc.rows, true
}

// connectivity counts the distinct spawners reachable from spawner_0 through pattern entries
// (spawner_0 itself only if a pattern reaches it back, which the grammar cannot).
func connectivity(defs []*spawnerDef) int {
	if len(defs) == 0 {
		return 0
	}
	seen := make([]bool, len(defs))
	n := 0
	queue := []int{0}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, e := range defs[cur].pattern {
			if e >= 0 && !seen[e] {
				seen[e] = true
				n++
				queue = append(queue, e)
			}
		}
	}
	return n
}

// cellCounter counts, per coverage cell, the bullets whose circle reaches it. A bullet spans
// cells ceil(round(4(x-r)/bw)/4) … floor(round(4(x+r)/bw)/4) with Python's half-even round,
// clamped to the grid (rows likewise).
type cellCounter struct {
	cols, rows int
	bw, bh     float64
	counts     []int
	// touched lists the cells with a non-zero count, total sums the counts.
	touched []int
	total   int
}

func (c *cellCounter) init(t *Talakat) {
	c.cols, c.rows = t.bucketsX, t.bucketsY
	c.bw = float64(t.width) / float64(t.bucketsX)
	c.bh = float64(t.height) / float64(t.bucketsY)
	n := c.cols * c.rows
	if cap(c.counts) < n {
		c.counts, c.touched = make([]int, n), make([]int, 0, n)
	}
	c.counts, c.touched = c.counts[:n], c.touched[:0]
	clear(c.counts)
}

// count sets counts to the bullets' histogram and touched to its non-zero cells, in ascending
// order. A bullet spans at most 2×2 cells unless it is larger than a cell: those are added
// without branches on the span (which no predictor guesses: most of count's time went into
// mispredicted span loops), through masks that are 0 for an empty row or column of the span.
func (c *cellCounter) count(bullets []Bullet) {
	counts := c.counts
	for _, i := range c.touched {
		counts[i] = 0
	}
	total := 0
	cols, rows := c.cols, c.rows
	bw, bh := c.bw, c.bh
	for k := range bullets {
		b := &bullets[k]
		x, y, r := b.X, b.Y, b.Radius
		// ceil(q/4) of an integer q is floor((q+3)/4); the shifts floor negative values too.
		sx := clampInt((int(math.RoundToEven(4*(x-r)/bw))+3)>>2, cols)
		ex := clampInt(int(math.RoundToEven(4*(x+r)/bw))>>2, cols)
		sy := clampInt((int(math.RoundToEven(4*(y-r)/bh))+3)>>2, rows)
		ey := clampInt(int(math.RoundToEven(4*(y+r)/bh))>>2, rows)
		w, h := ex-sx+1, ey-sy+1
		if uint(w) > 2 || uint(h) > 2 {
			for y := sy; y <= ey; y++ {
				for x := sx; x <= ex; x++ {
					counts[y*cols+x]++
					total++
				}
			}
			continue
		}
		// w, h ∈ {0, 1, 2}: the first column counts when w ≥ 1, the second when w = 2 (it is
		// then inside the grid, and otherwise the mask is 0 and the index stays in the span).
		x1, y1 := w>>1, h>>1
		x0, y0 := (w+1)>>1, (h+1)>>1
		i := sy*cols + sx
		counts[i] += x0 & y0
		counts[i+x1] += x1 & y0
		counts[i+y1*cols] += x0 & y1
		counts[i+x1+y1*cols] += x1 & y1
		total += w * h
	}
	touched := c.touched[:len(counts)]
	n := 0
	for i, v := range counts {
		touched[n] = i
		if v != 0 {
			n++
		}
	}
	c.touched, c.total = touched[:n], total
}

func clampInt(v, n int) int {
	if v < 0 {
		return 0
	}
	if v >= n {
		return n - 1
	}
	return v
}

// entropy is the reference's calculateEntropy: -Σ p·ln p / ln n over 0 < p < 1, summed in
// order.
func entropy(p []float64) float64 {
	lnN := shape.Log(float64(len(p)))
	e := 0.0
	for _, v := range p {
		if v > 0 && v < 1 {
			e += v * shape.Log(v) / lnN
		}
	}
	return -e
}

func (t *Talakat) Quality(info problems.Info) float64 {
	in := info.(*Info)
	playable := in.Percentage
	coverage, minBullets, empty := 0.0, 0.0, 0.0
	if playable >= 1 {
		coverage = shape.Reward4(in.BulletCoverage, 0, t.coverage, 1)
		for _, b := range in.Bullets {
			minBullets += shape.Reward(b, 0, float64(t.minBullets), MaxBullets, 100*MaxBullets)
		}
		minBullets /= float64(len(in.Bullets))
		for _, locs := range in.BulletLocations {
			zeros := 0
			for _, v := range locs {
				if v == 0 {
					zeros++
				}
			}
			empty += shape.Reward4(float64(zeros)/float64(t.bucketsX*t.bucketsY), 0, t.empty, 1)
		}
		empty /= float64(max(1, len(in.BulletLocations)))
	}
	return (playable + coverage + minBullets + empty) / 4.0
}

// Diversity is the smallest per-section distance between the bullet location maps (half the
// L1 distance, summed the numpy way), the shorter fight's last section standing in for missing
// ones.
func (t *Talakat) Diversity(a, b problems.Info) float64 {
	l1, l2 := a.(*Info).BulletLocations, b.(*Info).BulletLocations
	n := max(len(l1), len(l2))
	if n == 0 {
		return 0
	}
	minD := math.Inf(1)
	for i := 0; i < n; i++ {
		x, y := l1[min(i, len(l1)-1)], l2[min(i, len(l2)-1)]
		if v := absDiffSum(x, y) / 2.0; v < minD {
			minD = v
		}
	}
	return shape.Reward4(minD, 0, t.diversity, 1)
}

// sparseSection is a section's bullet locations without its zero cells, with its sum and
// absolute sum (for a lower bound of a distance).
type sparseSection struct {
	dense    []float64 // the info's own slice
	mask     []uint64  // bit c: cell c is not +0
	held     int       // the number of bits of mask
	sum, abs float64
}

// sectionBoundSlack is the relative allowance for rounding in the section bound (sums of at
// most a few hundred terms are within 1e-13 of the true value).
const sectionBoundSlack = 1e-12

// denseShare: two sections holding together at least 1/denseShare of the cells are compared
// cell by cell (absDiffSum), which is cheaper than merging their masks when few cells are
// zero in both; both ways give the same bits.
const denseShare = 8

// DiversityKernel keeps a set's bullet locations without their zero cells
// (problems.DiversityKerneler): most cells of a section hold no bullet, and cells where both
// sections are zero add +0 to numpy's partial sums, so the sum over the cells where either has
// bullets, in numpy's blocking (shape.SparsePairwiseSum), has the same bits. Diversity is the
// minimum over sections, which does not depend on their order, and a section's distance is
// at least |Σx − Σy|/2: the section with the least bound is computed first, and a section
// whose bound is not below the minimum so far cannot change it. A section both levels leave
// empty is at distance 0 and ends the scan, and so does a level paired with itself.
func (t *Talakat) DiversityKernel(infos []problems.Info) func() func(i, j int) float64 {
	secs := make([][]sparseSection, len(infos))
	empty := make([]uint64, len(infos)) // bit s: section s holds no bullet
	exact := make([]bool, len(infos))   // a sum is not finite: no bounds, every section in order
	// first[i] is the first index holding the same info as i (a search's duplicates share
	// their info): it shares i's sections, and the pair is at distance 0.
	first := make([]int32, len(infos))
	seen := make(map[*Info]int32, len(infos))
	cells := -1
	for i, in := range infos {
		if f, ok := seen[in.(*Info)]; ok {
			first[i], secs[i], empty[i], exact[i] = f, secs[f], empty[f], exact[f]
			continue
		}
		first[i] = int32(i)
		seen[in.(*Info)] = int32(i)
		locs := in.(*Info).BulletLocations
		secs[i] = make([]sparseSection, len(locs))
		for s, l := range locs {
			if cells < 0 {
				cells = len(l)
			}
			if len(l) != cells {
				return nil // Diversity pairs sections of different lengths by the first's length
			}
			sec := &secs[i][s]
			sec.dense = l
			sec.mask = make([]uint64, (cells+63)/64)
			held := false
			for c, v := range l {
				if v != 0 || math.Signbit(v) {
					sec.mask[c/64] |= 1 << (c % 64)
					sec.sum += v
					sec.abs += math.Abs(v)
					sec.held++
					held = true
				}
			}
			if math.IsNaN(sec.abs) || math.IsInf(sec.abs, 0) {
				exact[i] = true
			}
			if !held && s < 64 {
				empty[i] |= 1 << s
			}
		}
	}
	return func() func(i, j int) float64 {
		k := &sectionKernel{cells: cells, pos: make([]int32, 0, max(cells, 0)), val: make([]float64, 0, max(cells, 0))}
		return func(i, j int) float64 {
			l1, l2 := secs[i], secs[j]
			n := max(len(l1), len(l2))
			if n == 0 {
				return 0
			}
			if len(l1) == len(l2) && empty[i]&empty[j] != 0 {
				return shape.Reward4(0, 0, t.diversity, 1)
			}
			if first[i] == first[j] && !exact[i] {
				// The same finite sections: every |x − x| is +0, so the first section
				// computed below would already be at distance 0 and end the scan.
				return shape.Reward4(0, 0, t.diversity, 1)
			}
			minD := math.Inf(1)
			if exact[i] || exact[j] {
				for s := 0; s < n; s++ {
					if v := k.dist(&l1[min(s, len(l1)-1)], &l2[min(s, len(l2)-1)]); v < minD {
						minD = v
					}
				}
				return shape.Reward4(minD, 0, t.diversity, 1)
			}
			first, least := 0, math.Inf(1)
			for s := 0; s < n; s++ {
				if b := bound(&l1[min(s, len(l1)-1)], &l2[min(s, len(l2)-1)]); b < least {
					first, least = s, b
				}
			}
			minD = k.dist(&l1[min(first, len(l1)-1)], &l2[min(first, len(l2)-1)])
			for s := 0; s < n && minD != 0; s++ {
				x, y := &l1[min(s, len(l1)-1)], &l2[min(s, len(l2)-1)]
				if s == first || bound(x, y) >= minD {
					continue
				}
				if v := k.dist(x, y); v < minD {
					minD = v
				}
			}
			return shape.Reward4(minD, 0, t.diversity, 1)
		}
	}
}

// SymmetricDiversityKernel declares the kernel symmetric (problems.SymmetricDiversityKerneler),
// so a set's first pass computes each unordered pair once. Proof, by reading the kernel with
// its arguments swapped: n, the empty-section test, the same-info test and the exact flags are
// symmetric in i and j; bound is, since |a−b| = |b−a| and a+b = b+a exactly in IEEE arithmetic,
// so the section with the least bound ("first", strict < in section order) and every skip are
// the same; dist chooses the dense sum by x.held+y.held, symmetric too, and either sums
// |x−y| = |y−x| over all cells or visits the union of the two masks, in ascending cells, in
// the same order; and the minimum takes a value only when v < minD, which a NaN never is, so no NaN
// (whose payload could depend on the operand order) can reach the result. TestKernelIsSymmetric
// checks it on random pairs with NaN, ±Inf, −0 and sections of different counts.
func (t *Talakat) SymmetricDiversityKernel() bool { return true }

// bound is a lower bound of the distance of two sections: |Σx − Σy| ≤ Σ|x − y|, less an
// allowance for rounding.
func bound(x, y *sparseSection) float64 {
	d := math.Abs(x.sum-y.sum) - (x.abs+y.abs)*sectionBoundSlack
	return max(d, 0) * (1 - sectionBoundSlack) / 2
}

// sectionKernel is one goroutine's scratch for section distances.
type sectionKernel struct {
	cells int
	pos   []int32
	val   []float64
}

// dist is the reference's PairwiseSum(|x - y|)/2 of two sections: over every cell when they
// hold many cells together (denseShare), else over the cells where either has bullets (the
// union of their masks, in ascending order).
func (k *sectionKernel) dist(x, y *sparseSection) float64 {
	if x.held+y.held >= k.cells/denseShare {
		return absDiffSum(x.dense, y.dense) / 2.0
	}
	pos, val := k.pos[:0], k.val[:0]
	for w, mx := range x.mask {
		for u := mx | y.mask[w]; u != 0; u &= u - 1 {
			c := w*64 + bits.TrailingZeros64(u)
			if d := math.Abs(x.dense[c] - y.dense[c]); d != 0 {
				pos, val = append(pos, int32(c)), append(val, d)
			}
		}
	}
	k.pos, k.val = pos, val
	return shape.SparsePairwiseSum(pos, val, k.cells) / 2.0
}

func (t *Talakat) Controllability(info problems.Info, control problems.Control) float64 {
	in := info.(*Info)
	targets := controlInts(control, "bullets")
	if len(targets) == 0 {
		return 0
	}
	sum := 0.0
	for i, c := range targets {
		if i >= len(in.Bullets) {
			break
		}
		sum += shape.Reward(in.Bullets[i], 0, float64(c-t.cerror), float64(c+t.cerror), MaxBullets)
	}
	return sum / float64(len(targets))
}

func controlInts(control problems.Control, key string) []int {
	m, _ := control.(map[string]any)
	list, _ := m[key].([]any)
	out := make([]int, len(list))
	for i, v := range list {
		switch x := v.(type) {
		case int:
			out[i] = x
		case float64:
			out[i] = int(x)
		}
	}
	return out
}

func (t *Talakat) Render(c problems.Content) (image.Image, error) {
	w, err := t.NewWorld(c)
	if err != nil {
		return nil, err
	}
	return renderFight(w, t.renderSampling), nil
}

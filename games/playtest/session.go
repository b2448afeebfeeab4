package playtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"pcgwb/games/play"
	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/levelio"
)

// SessionFile is the playlist's file name in a session folder.
const SessionFile = "session.json"

// Format is the version of session.json.
const Format = 1

// Question is one question of the questionnaire shown after each level.
type Question struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	// Options are the answers, in the order shown ("1" … "5", or "yes" "no" "unsure").
	Options []string `json:"options"`
}

// DefaultQuestions are fun and difficulty on 1–5.
func DefaultQuestions() []Question {
	scale := []string{"1", "2", "3", "4", "5"}
	return []Question{
		{ID: "fun", Text: "How much fun was this level? (1 = none, 5 = a lot)", Options: scale},
		{ID: "difficulty", Text: "How difficult was it? (1 = very easy, 5 = very hard)", Options: scale},
	}
}

// HandMadeQuestion is the optional "looks hand-made?" question.
func HandMadeQuestion() Question {
	return Question{ID: "handmade", Text: "Does this level look hand-made?", Options: []string{"yes", "no", "unsure"}}
}

// Level is one level of the playlist.
type Level struct {
	// Name is what players see: "Level 7".
	Name    string `json:"name"`
	Problem string `json:"problem"`
	// Source is the run folder (as given) and Generator its generator: for the report, never
	// shown while playing.
	Source    string        `json:"source"`
	Generator string        `json:"generator"`
	Index     int           `json:"index"`
	Item      problems.Item `json:"item"`
	// The benchmark's view of the level.
	Quality  float64 `json:"quality"`
	Playable bool    `json:"playable"`
	// SolverMoves is the length of the recorded solution (0: none).
	SolverMoves int `json:"solver_moves"`
}

// Session is session.json.
type Session struct {
	Format    int        `json:"format"`
	Seed      uint64     `json:"seed"`
	TimeLimit float64    `json:"time_limit_seconds,omitempty"`
	Questions []Question `json:"questions"`
	Levels    []Level    `json:"levels"`
}

// Pick is how levels are chosen from a source.
type Pick string

// Picks.
const (
	PickBest   Pick = "best"
	PickRandom Pick = "random"
)

// Source is one RUN_DIR[:N][:best|random|#I+J+K] of `playtest new --from`, or
// PROBLEM=FILE[:N][:...] for levels in a file (hand-made levels as text, a Tiled map, an item
// file: see levelio.LoadLevels), which join the playtest under the file's base name.
type Source struct {
	Dir string
	// Problem is set for a file source.
	Problem string
	N       int
	Pick    Pick
	// Indices are hand-picked population indices (0 is the best), when Pick is empty.
	Indices []int
}

// DefaultPerSource is N when a source does not say.
const DefaultPerSource = 5

// ParseSources reads a --from list: sources separated by commas, each
// RUN_DIR[:N][:best|random|#I+J+K] (hand-picked indices, 0 = the best individual; a count
// beside them must be theirs).
func ParseSources(s string) ([]Source, error) {
	var out []Source
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		fields := strings.Split(part, ":")
		src := Source{Dir: fields[0], N: DefaultPerSource, Pick: PickBest}
		count := 0 // a count the part gives, if any
		if prob, file, ok := strings.Cut(src.Dir, "="); ok {
			if prob == "" {
				return nil, fmt.Errorf("--from %s: PROBLEM=FILE needs a problem", safeio.ExcerptString(part))
			}
			src.Problem, src.Dir = prob, file
		}
		if src.Dir == "" {
			return nil, fmt.Errorf("--from %s: empty folder", safeio.ExcerptString(part))
		}
		for _, f := range fields[1:] {
			switch {
			case f == string(PickBest) || f == string(PickRandom):
				src.Pick = Pick(f)
			case strings.HasPrefix(f, "#"):
				src.Pick, src.Indices = "", nil
				for _, x := range strings.Split(f[1:], "+") {
					i, err := strconv.Atoi(x)
					if err != nil || i < 0 {
						return nil, fmt.Errorf("--from %s: %q is not an index", safeio.ExcerptString(part), safeio.ExcerptString(x))
					}
					src.Indices = append(src.Indices, i)
				}
				src.N = len(src.Indices)
			default:
				n, err := strconv.Atoi(f)
				if err != nil || n < 1 || n > 1000 {
					return nil, fmt.Errorf("--from %s: %q is neither a count (1-1000) nor best, random or #I+J", safeio.ExcerptString(part), safeio.ExcerptString(f))
				}
				src.N, count = n, n
			}
		}
		if src.Pick == "" && count != 0 && count != len(src.Indices) {
			return nil, fmt.Errorf("--from %s: a count of %d with %d hand-picked indices", safeio.ExcerptString(part), count, len(src.Indices))
		}
		out = append(out, src)
	}
	if len(out) == 0 {
		return nil, errors.New("--from names no run folder")
	}
	return out, nil
}

// Options configure a new session.
type Options struct {
	Sources   []Source
	Seed      uint64
	HandMade  bool
	TimeLimit float64
}

// New builds a session: the levels of each source's final population (read through
// problems/experiment), chosen as asked, shuffled with the seed and named by their place.
func New(opt Options) (*Session, error) {
	rng := problems.NewRand(opt.Seed)
	s := &Session{Format: Format, Seed: opt.Seed, TimeLimit: opt.TimeLimit, Questions: DefaultQuestions()}
	if opt.HandMade {
		s.Questions = append(s.Questions, HandMadeQuestion())
	}
	for _, src := range opt.Sources {
		from := fromRun
		if src.Problem != "" {
			from = fromFile
		}
		levels, err := from(src, rng)
		if err != nil {
			return nil, err
		}
		s.Levels = append(s.Levels, levels...)
	}
	if len(s.Levels) == 0 {
		return nil, errors.New("the sources hold no levels")
	}
	rng.Shuffle(len(s.Levels), func(i, j int) { s.Levels[i], s.Levels[j] = s.Levels[j], s.Levels[i] })
	for i := range s.Levels {
		s.Levels[i].Name = "Level " + strconv.Itoa(i+1)
	}
	return s, nil
}

// fromRun picks a source's levels from its run folder's final population (best first).
func fromRun(src Source, rng *rand.Rand) ([]Level, error) {
	final, err := experiment.ReadFinal(src.Dir)
	if err != nil {
		return nil, err
	}
	name := final.Config.Problem
	p, err := problems.Make(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Dir, err)
	}
	if !play.Playable(name) {
		return nil, fmt.Errorf("%s: %s has no play view", src.Dir, name)
	}
	pop := final.Population
	return take(src, len(pop), rng, func(i int) (Level, error) {
		ind := pop[i]
		c, err := p.ContentSpace().Normalize(ind.Content, "content")
		if err != nil {
			return Level{}, fmt.Errorf("%s: individual %d: %w", src.Dir, i, err)
		}
		var ctl problems.Control
		if ind.Control != nil {
			if ctl, err = p.ControlSpace().Normalize(ind.Control, "control"); err != nil {
				return Level{}, fmt.Errorf("%s: individual %d: %w", src.Dir, i, err)
			}
		}
		l := Level{Problem: name, Source: src.Dir, Generator: final.Config.Generator, Index: i,
			Item:    problems.Item{ID: fmt.Sprintf("%s#%d", filepath.Base(src.Dir), i), Content: c, Control: ctl},
			Quality: ind.Quality, Playable: ind.Quality >= 1}
		return withGame(l, p)
	})
}

// withGame makes the level's game once: a level that cannot be played at all (no player) is an
// error; the solver's path length is recorded.
func withGame(l Level, p problems.Problem) (Level, error) {
	g, err := play.New(l.Problem, p, l.Item.Content)
	if err != nil {
		return Level{}, fmt.Errorf("%s: %s %w: %v", l.Source, l.Item.ID, errCannotPlay, err)
	}
	l.SolverMoves = len(g.Solution())
	return l, nil
}

// take builds a source's levels among n candidates: the first N in the pick's order that can
// be played (the best, or a random draw; a level the play window cannot open is passed over),
// or exactly the hand-picked ones.
func take(src Source, n int, rng *rand.Rand, build func(i int) (Level, error)) ([]Level, error) {
	order, err := pick(src, n, rng)
	if err != nil {
		return nil, err
	}
	var out []Level
	for _, i := range order {
		if len(out) == src.N {
			break
		}
		l, err := build(i)
		if err != nil {
			if src.Pick == "" || !errors.Is(err, errCannotPlay) {
				return nil, err
			}
			continue
		}
		out = append(out, l)
	}
	return out, nil
}

// errCannotPlay marks a level whose game cannot be made (no player, say).
var errCannotPlay = errors.New("cannot be played")

// pick is the order in which a source's n levels are considered: best first, a random
// permutation, or the hand-picked indices.
func pick(src Source, n int, rng *rand.Rand) ([]int, error) {
	var idx []int
	switch src.Pick {
	case PickBest:
		for i := 0; i < n; i++ {
			idx = append(idx, i)
		}
	case PickRandom:
		idx = rng.Perm(n)
	default:
		for _, i := range src.Indices {
			if i >= n {
				return nil, fmt.Errorf("%s: index %d is past its %d levels", src.Dir, i, n)
			}
		}
		idx = src.Indices
	}
	return idx, nil
}

// fromFile picks a file source's levels, evaluated here (best = highest quality first).
func fromFile(src Source, rng *rand.Rand) ([]Level, error) {
	p, err := problems.Make(src.Problem)
	if err != nil {
		return nil, err
	}
	if !play.Playable(src.Problem) {
		return nil, fmt.Errorf("%s has no play view", src.Problem)
	}
	items, err := levelio.LoadLevels(src.Problem, p, src.Dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Dir, err)
	}
	label := strings.TrimSuffix(filepath.Base(src.Dir), filepath.Ext(src.Dir))
	all := make([]Level, len(items))
	for i, it := range items {
		if it.ID == "" {
			it.ID = fmt.Sprintf("%s#%d", label, i)
		}
		l := Level{Problem: src.Problem, Source: src.Dir, Generator: label, Index: i, Item: it}
		if info, err := p.Info(it.Content); err == nil {
			l.Quality = p.Quality(info)
			l.Playable = l.Quality >= 1
		}
		all[i] = l
	}
	sorted := slices.Clone(all)
	slices.SortStableFunc(sorted, func(a, b Level) int {
		switch {
		case a.Quality > b.Quality:
			return -1
		case a.Quality < b.Quality:
			return 1
		}
		return 0
	})
	if src.Pick == "" {
		sorted = all // hand-picked indices are the file's order
	}
	return take(src, len(sorted), rng, func(i int) (Level, error) { return withGame(sorted[i], p) })
}

// maxSessionBytes bounds session.json.
const maxSessionBytes = 64 << 20

// Save writes session.json into dir (created if needed), atomically.
func (s *Session) Save(dir string) error {
	data, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, SessionFile), append(data, '\n'), 0o644)
}

// Load reads a session folder's session.json and checks every level against its problem.
func Load(dir string) (*Session, error) {
	path := filepath.Join(dir, SessionFile)
	data, err := safeio.ReadFile(path, maxSessionBytes)
	if err != nil {
		return nil, err
	}
	s, err := DecodeSession(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// DecodeSession parses session.json: every level is normalized through its problem's spaces
// and every question needs at least two answers.
func DecodeSession(data []byte) (*Session, error) {
	var s Session
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("not a playtest session: %w", err)
	}
	if s.Format != Format {
		return nil, fmt.Errorf("not a playtest session of format %d (format %d)", Format, s.Format)
	}
	if s.TimeLimit < 0 {
		return nil, errors.New("time_limit_seconds is negative")
	}
	ids := map[string]bool{}
	for i, q := range s.Questions {
		if q.ID == "" || ids[q.ID] || len(q.Options) < 2 || len(q.Options) > 9 {
			return nil, fmt.Errorf("question %d: needs a new id and 2 to 9 options", i)
		}
		ids[q.ID] = true
	}
	names := map[string]bool{}
	for i := range s.Levels {
		l := &s.Levels[i]
		if l.Name == "" || names[l.Name] || !safeName(l.Name) {
			return nil, fmt.Errorf("level %d: the name %s is empty, repeated or not a safe file name", i, safeio.ExcerptString(l.Name))
		}
		names[l.Name] = true
		p, err := problems.Make(l.Problem)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", l.Name, err)
		}
		if l.Item.Content, err = p.ContentSpace().Normalize(l.Item.Content, "content"); err != nil {
			return nil, fmt.Errorf("%s: %w", l.Name, err)
		}
		if l.Item.Control != nil {
			if l.Item.Control, err = p.ControlSpace().Normalize(l.Item.Control, "control"); err != nil {
				return nil, fmt.Errorf("%s: %w", l.Name, err)
			}
		}
	}
	if len(s.Levels) == 0 {
		return nil, errors.New("the session has no levels")
	}
	return &s, nil
}

// safeName accepts names made of letters, digits, spaces, dots, dashes and underscores (no
// leading dot): level and player names become file names.
func safeName(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '.' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(" ._-", r)) {
			return false
		}
	}
	return true
}

// Order is the order in which a player meets the levels: the playlist shuffled again with the
// session's seed and the player's name, so that every level is met early by someone.
func (s *Session) Order(player string) []int {
	h := uint64(14695981039346656037)
	for i := 0; i < len(player); i++ {
		h = (h ^ uint64(player[i])) * 1099511628211
	}
	return problems.NewRand(s.Seed ^ h).Perm(len(s.Levels))
}

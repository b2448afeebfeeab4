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

// KeyFile is the key's file name in the experimenter's folder: the whole session with where
// every level came from (and what was left out). KioskDir is the blind session folder beside
// it, the one copied to kiosk laptops: its session.json names levels "Level N" and holds their
// contents, nothing else.
const (
	KeyFile  = "key.json"
	KioskDir = "kiosk"
)

// Format is the version of session.json and key.json. Format 1 sessions (the key inside
// session.json) still load.
const Format = 2

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

// Level is one level of the playlist. In the kiosk's session.json only Name, Problem and the
// item's content are written; the rest is the key's.
type Level struct {
	// Name is what players see: "Level 7".
	Name    string `json:"name"`
	Problem string `json:"problem"`
	// Source is the run folder or file (as given) and Generator its generator ("hand-made: X"
	// for a file X): for the report, never shown while playing.
	Source    string        `json:"source,omitempty"`
	Generator string        `json:"generator,omitempty"`
	Index     int           `json:"index,omitempty"`
	Item      problems.Item `json:"item"`
	// The benchmark's view of the level.
	Quality  float64 `json:"quality,omitempty"`
	Playable bool    `json:"playable,omitempty"`
	// SolverMoves is the length of the recorded solution (0: none).
	SolverMoves int `json:"solver_moves,omitempty"`
}

// HandMadePrefix starts the generator label of every file source: a hand-made file named
// ga.txt is "hand-made: ga", never the GA run's "ga".
const HandMadePrefix = "hand-made: "

// Dropped is a candidate level `playtest new` left out, and why.
type Dropped struct {
	Source string `json:"source"`
	Index  int    `json:"index"`
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// Session is session.json (blind, in the kiosk folder) and key.json (everything, with the
// experimenter).
type Session struct {
	Format    int     `json:"format"`
	Seed      uint64  `json:"seed"`
	TimeLimit float64 `json:"time_limit_seconds,omitempty"`
	// Consent is the information and consent text shown before anything else ("" for none):
	// Enter agrees, Esc leaves without recording anything.
	Consent string `json:"consent,omitempty"`
	// Intake are the questions asked once per participant before the first level
	// (demographics, experience); Questions are asked after each level.
	Intake    []Question `json:"intake,omitempty"`
	Questions []Question `json:"questions"`
	Levels    []Level    `json:"levels"`
	// Dropped are the candidates left out (duplicates, unplayable levels): in the key only.
	Dropped []Dropped `json:"dropped,omitempty"`
}

// Blind is the session as the kiosk folder holds it: level names, problems and contents, the
// questions and the settings; no source, generator, index, id, control or metric, nothing
// dropped.
func (s *Session) Blind() *Session {
	b := *s
	b.Dropped = nil
	b.Levels = make([]Level, len(s.Levels))
	for i, l := range s.Levels {
		b.Levels[i] = Level{Name: l.Name, Problem: l.Problem, Item: problems.Item{Content: l.Item.Content}}
	}
	return &b
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
	// NearDuplicate, when above 0, is the similarity (1 − the problem's own diversity) at or
	// above which a level is a near-duplicate of one already taken and left out (1: levels the
	// problem's diversity cannot tell apart). 0 leaves out exact duplicates only, which are
	// always left out: a problem's diversity may call very different levels identical (Zelda's
	// compares routes, and every room without one has the same empty route).
	NearDuplicate float64
	// Questions, when set, replaces the default questionnaire (consent, intake, per-level).
	Questions *Questionnaire
}

// New builds a session: the levels of each source's final population (read through
// problems/experiment), chosen as asked, shuffled with the seed and named by their place.
// Levels that cannot be played (play.Unplayable) and duplicates of a level already taken (the
// same content, or at least opt.NearDuplicate similar by the problem's diversity) are left
// out and listed in Dropped with the reason; a source picked by rank or at random takes the
// next candidate instead. The key keeps Dropped; the kiosk folder never sees it.
func New(opt Options) (*Session, error) {
	if !(opt.NearDuplicate >= 0 && opt.NearDuplicate <= 1) {
		return nil, fmt.Errorf("the near-duplicate similarity must be in [0, 1] (0: exact duplicates only), not %g", opt.NearDuplicate)
	}
	rng := problems.NewRand(opt.Seed)
	s := &Session{Format: Format, Seed: opt.Seed, TimeLimit: opt.TimeLimit, Questions: DefaultQuestions()}
	if opt.HandMade {
		s.Questions = append(s.Questions, HandMadeQuestion())
	}
	if q := opt.Questions; q != nil {
		s.Consent, s.Intake, s.Questions = q.Consent, q.Intake, q.Questions
		if err := checkQuestions(s); err != nil {
			return nil, err
		}
	}
	seen := &dedupe{threshold: opt.NearDuplicate}
	for _, src := range opt.Sources {
		from := fromRun
		if src.Problem != "" {
			from = fromFile
		}
		levels, err := from(src, rng, seen)
		if err != nil {
			return nil, err
		}
		s.Levels = append(s.Levels, levels...)
	}
	s.Dropped = seen.dropped
	if len(s.Levels) == 0 && len(s.Dropped) > 0 {
		d := s.Dropped[0]
		return nil, fmt.Errorf("no level of the sources can be played: all %d were left out (%s #%d: %s)", len(s.Dropped), d.Source, d.Index, d.Reason)
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
func fromRun(src Source, rng *rand.Rand, seen *dedupe) ([]Level, error) {
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
	return take(src, len(pop), rng, seen, p, func(i int) (Level, error) {
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
		return l, nil
	})
}

// withGame makes the level's game once and checks it can be played (play.Check: the reason
// is returned when not); the solver's path length is recorded.
func withGame(l Level, p problems.Problem) (Level, error) {
	g, err := play.New(l.Problem, p, l.Item.Content)
	if err != nil {
		return Level{}, &play.UnplayableError{Reason: err.Error()}
	}
	if err := play.Check(g); err != nil {
		return Level{}, err
	}
	l.SolverMoves = len(g.Solution())
	return l, nil
}

// take builds a source's levels among n candidates: the first N in the pick's order that can
// be played and repeat no level already taken (the best, or a random draw), or the hand-picked
// ones that can. What is passed over is recorded in seen.dropped with the reason.
func take(src Source, n int, rng *rand.Rand, seen *dedupe, p problems.Problem, build func(i int) (Level, error)) ([]Level, error) {
	order, err := pick(src, n, rng)
	if err != nil {
		return nil, err
	}
	var out []Level
	for _, i := range order {
		if len(out) == src.N {
			break
		}
		cand, err := build(i)
		if err != nil {
			return nil, err
		}
		l, err := withGame(cand, p)
		if errors.Is(err, play.ErrUnplayable) {
			seen.drop(cand, err.Error())
			continue
		}
		if err != nil {
			return nil, err
		}
		if why, err := seen.repeats(p, l); err != nil {
			return nil, err
		} else if why != "" {
			seen.drop(cand, why)
			continue
		}
		out = append(out, l)
	}
	return out, nil
}

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
func fromFile(src Source, rng *rand.Rand, seen *dedupe) ([]Level, error) {
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
		l := Level{Problem: src.Problem, Source: src.Dir, Generator: HandMadePrefix + label, Index: i, Item: it}
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
	return take(src, len(sorted), rng, seen, p, func(i int) (Level, error) { return sorted[i], nil })
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
	if s.Format != Format && s.Format != 1 {
		return nil, fmt.Errorf("not a playtest session of format %d (format %d)", Format, s.Format)
	}
	if s.TimeLimit < 0 {
		return nil, errors.New("time_limit_seconds is negative")
	}
	if err := checkQuestions(&s); err != nil {
		return nil, err
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

package birds

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"
)

// Stage folder names of the competition layout: DIR/TEAM/<stage>/<letter>/<TEAM_L_n.ext>, and
// DIR/TEAM/<stage>/<letter>.json for the per-letter stages.
const (
	StageRaw          = "raw"
	StageIntermediate = "intermediate"
	StageLevels       = "levels"
	StageImages       = "images"
	StageStability    = "stability"
	StageSimilarity   = "similarity"
	StageDiversity    = "diversity"
	StageResult       = "result"
)

// Event reports progress: one item (a trial file, or a letter for per-letter stages) done.
// Err is the reason an item produced no output (for example "Code not found."); it is not a
// failure of the pipeline.
type Event struct {
	Stage  string `json:"stage"`
	Team   string `json:"team,omitempty"`
	Letter string `json:"letter,omitempty"`
	File   string `json:"file,omitempty"`
	Done   int    `json:"done"`
	Total  int    `json:"total"`
	Err    string `json:"error,omitempty"`
}

// Options configure a pipeline run.
type Options struct {
	Edition    Edition    // 0 means DefaultEdition
	Classifier Classifier // nil means Unavailable: similarity is reported as missing
	Workers    int        // parallel items; 0 means GOMAXPROCS
	Progress   func(Event)
	Sim        SimConfig // zero means DefaultSimConfig
	// Trials is how many evaluator trials a level's stability gets at most (best kept, see
	// SimulateTrials); 0 means MaxEvaluatorTrials, 1 the canonical trial only.
	Trials int
	// Seed varies the trials after the first (each level also mixes in its own name).
	Seed uint64
	// TrialsPerLetter is how many answers per letter were asked for (0: the competition's
	// 10); scores average over it, so a 2-trial prompt run is scored as 2 trials.
	TrialsPerLetter int
}

func (o Options) edition() Edition { return o.Edition.orDefault() }

// rules is the row of the options' edition.
func (o Options) rules() EditionRules { return o.Edition.Rules() }

func (o Options) functionName() string { return o.rules().Function }

// StageReport summarises one stage.
type StageReport struct {
	Stage    string    `json:"stage"`
	Items    int       `json:"items"`
	Written  int       `json:"written"`
	Failures []Failure `json:"failures,omitempty"`
	// Skipped says why the stage did not run (its inputs are missing).
	Skipped string `json:"skipped,omitempty"`
	// Classifier names the letter classifier of the classify stage (the proxy says so).
	Classifier string `json:"classifier,omitempty"`
	// Removed counts the stale outputs removed: those of inputs that changed into a failure
	// or vanished since the last run.
	Removed int `json:"removed,omitempty"`
}

// Failure is an item without output and why.
type Failure struct {
	File string `json:"file"`
	Err  string `json:"error"`
}

// Report is the outcome of Evaluate.
type Report struct {
	Stages []*StageReport `json:"stages"`
	// Scores is nil when scoring could not run (see the score stage's Skipped).
	Scores *Scores `json:"-"`
}

// ErrSimilarityMissing: levels were evaluated but there is no similarity to score them with.
var ErrSimilarityMissing = errors.New("similarity missing")

// Teams lists the team folders of a competition folder: sub-folders except logs, result and
// names starting with '.', in byte order (Node's readdir order).
func Teams(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() && !strings.HasPrefix(n, ".") && n != "logs" && n != StageResult {
			out = append(out, n)
		}
	}
	return out, nil
}

func subdirs(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}

// linkedSubdirs lists the symbolic links in dir (not followed: a letter folder that is a link
// is refused with its reason instead of being skipped silently).
func linkedSubdirs(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Type()&fs.ModeSymlink != 0 && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}

func filesIn(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}

// stem is the scripts' name.split('.').slice(0, -1).join('.'): everything before the last dot
// (and "" for a name without a dot, which makes the output a hidden file later stages skip).
func stem(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return ""
	}
	return name[:i]
}

type item struct {
	team, letter, name string
	in                 string
}

// trialKey names a (team, letter) folder.
type trialKey struct{ team, letter string }

// inputs is what a stage reads: its items, the teams whose input folder exists (only their
// outputs are derived, and pruned, from it), and the folders refused as links.
type inputs struct {
	items   []item
	teams   []string
	refused []Failure
}

// collect lists every file of a stage: TEAM/stage/LETTER/file. Folders that are links are not
// followed; they are refused with their reason.
func collect(dir, stage string, keep func(name string) bool) (*inputs, error) {
	teams, err := Teams(dir)
	if err != nil {
		return nil, err
	}
	in := &inputs{}
	// A team folder that is a link is not read (it may point anywhere); say so rather than
	// leave the team out silently.
	for _, link := range linkedSubdirs(dir) {
		if link != "logs" && link != StageResult {
			in.refused = append(in.refused, Failure{File: link, Err: fmt.Sprintf("%s: %v", filepath.Join(dir, link), ErrNotRealFolder)})
		}
	}
	for _, team := range teams {
		sdir := filepath.Join(dir, team, stage)
		if err := realDir(sdir); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				// A linked stage folder fails the team's trials: its outputs are derived (and
				// pruned) from no inputs, so nothing is scored from an earlier run's files.
				in.refused = append(in.refused, Failure{File: filepath.Join(team, stage), Err: err.Error()})
				in.teams = append(in.teams, team)
			}
			continue
		}
		in.teams = append(in.teams, team)
		for _, link := range linkedSubdirs(sdir) {
			in.refused = append(in.refused, Failure{File: filepath.Join(team, stage, link), Err: fmt.Sprintf("%s: %v", filepath.Join(sdir, link), ErrNotRealFolder)})
		}
		for _, letter := range subdirs(sdir) {
			for _, name := range filesIn(filepath.Join(sdir, letter)) {
				if keep != nil && !keep(name) {
					continue
				}
				if !isASCII(name) {
					// The organisers' file names are TEAM_L_N.txt in ASCII; a name outside it
					// would be carried through every stage and score 0. Say so instead.
					in.refused = append(in.refused, Failure{File: filepath.Join(team, stage, letter, name),
						Err: fmt.Sprintf("file name %q is not ASCII: a trial's files are named TEAM_%s_N in ASCII; rename it", name, letter)})
					continue
				}
				in.items = append(in.items, item{team, letter, name, filepath.Join(sdir, letter, name)})
			}
		}
	}
	return in, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// stabilityRaw is a level's entry in TEAM/stability/L.json as Unity's evaluator records it:
// the best trial's score, and the object counts of the last trial it ran (not necessarily the
// best one).
func stabilityRaw(tag string, tr *Trials) *StabilityRaw {
	last := tr.Results[len(tr.Results)-1]
	return &StabilityRaw{Tag: tag, Score: tr.Kept().Score, StartingObjects: last.Total, MovingObjects: last.Moving}
}

// prune removes the per-trial outputs (TEAM/out/LETTER/*ext) of the teams that have inputs
// which were not written by this run: outputs of answers that changed into a failure or
// vanished. It returns how many files went.
func (in *inputs) prune(dir, out, ext string, written map[trialKey]map[string]bool, skip func(string) bool) (int, error) {
	n := 0
	for _, team := range in.teams {
		odir := filepath.Join(dir, team, out)
		if realDir(odir) != nil {
			continue
		}
		for _, letter := range subdirs(odir) {
			k, err := pruneStale(dir, written[trialKey{team, letter}], ext, skip, team, out, letter)
			n += k
			if err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// prunePerLetter removes TEAM/out/L.json files of the teams with inputs whose letter produced
// no file in this run.
func (in *inputs) prunePerLetter(dir, out string, written map[trialKey]bool) (int, error) {
	n := 0
	for _, team := range in.teams {
		keep := map[string]bool{}
		for k := range written {
			if k.team == team {
				keep[k.letter+".json"] = true
			}
		}
		k, err := pruneStale(dir, keep, ".json", nil, team, out)
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// forEach runs work on every item with a worker pool, reports progress in completion order, and
// returns the per-item errors in item order. It stops early when the context is cancelled.
func forEach(ctx context.Context, opt Options, stage string, items []item, work func(item) error) ([]error, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	errs := make([]error, len(items))
	var mu sync.Mutex
	done := 0
	var g errgroup.Group
	g.SetLimit(workers)
	var cancelled error
	for i := range items {
		if err := ctx.Err(); err != nil {
			cancelled = err
			break
		}
		g.Go(func() error {
			coreSlots <- struct{}{} // this worker's core: the trials of a level borrow only the others
			errs[i] = work(items[i])
			<-coreSlots
			mu.Lock()
			defer mu.Unlock()
			done++
			if opt.Progress != nil {
				ev := Event{Stage: stage, Team: items[i].team, Letter: items[i].letter, File: items[i].name, Done: done, Total: len(items)}
				if errs[i] != nil {
					ev.Err = errs[i].Error()
				}
				opt.Progress(ev)
			}
			return nil
		})
	}
	g.Wait()
	return errs, cancelled
}

func report(stage string, in *inputs, errs []error, itemErr func(error) bool) (*StageReport, error) {
	r := &StageReport{Stage: stage, Items: len(in.items), Failures: append([]Failure(nil), in.refused...)}
	for i, err := range errs {
		switch {
		case err == nil:
			r.Written++
		case itemErr(err):
			r.Failures = append(r.Failures, Failure{File: filepath.Join(in.items[i].team, in.items[i].letter, in.items[i].name), Err: err.Error()})
		default:
			return r, fmt.Errorf("%s %s: %w", stage, in.items[i].in, err)
		}
	}
	return r, nil
}

// letterFailed records a per-letter output that could not be written for a trial-level
// reason (a link in its place); it reports false for other errors, which stop the stage.
func (r *StageReport) letterFailed(k trialKey, stage string, err error) bool {
	if !isTrialError(err) {
		return false
	}
	r.Failures = append(r.Failures, Failure{File: filepath.Join(k.team, stage, k.letter+".json"), Err: err.Error()})
	return true
}

// trialError marks a trial that produces no output by the competition's rules.
type trialError struct{ error }

func (e trialError) Unwrap() error { return e.error }

func isTrialError(err error) bool {
	var te trialError
	return errors.As(err, &te)
}

// writtenSet records the outputs a stage wrote, per (team, letter), safely from the workers.
type writtenSet struct {
	mu sync.Mutex
	m  map[trialKey]map[string]bool
}

func (w *writtenSet) add(it item, name string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m == nil {
		w.m = map[trialKey]map[string]bool{}
	}
	k := trialKey{it.team, it.letter}
	if w.m[k] == nil {
		w.m[k] = map[string]bool{}
	}
	w.m[k][name] = true
}

// perTrialStage is the shape of extract and convert: read each input, derive one output
// file (or a trial failure), write it, and remove the outputs of inputs that no longer give one.
func perTrialStage(ctx context.Context, dir string, opt Options, stage, in, out, ext string, limit int64, derive func([]byte) ([]byte, error)) (*StageReport, error) {
	inp, err := collect(dir, in, nil)
	if err != nil {
		return nil, err
	}
	var written writtenSet
	errs, cerr := forEach(ctx, opt, stage, inp.items, func(it item) error {
		data, err := readInput(it.in, limit)
		if err != nil {
			return err
		}
		outData, err := derive(data)
		if err != nil {
			return trialError{err}
		}
		name := stem(it.name) + ext
		if err := writeOut(dir, name, outData, it.team, out, it.letter); err != nil {
			return err
		}
		written.add(it, name)
		return nil
	})
	if cerr != nil {
		return nil, cerr
	}
	r, err := report(stage, inp, errs, isTrialError)
	if err != nil {
		return r, err
	}
	r.Removed, err = inp.prune(dir, out, ext, written.m, nil)
	return r, err
}

// ExtractStage reads every TEAM/raw/L/* answer and writes TEAM/intermediate/L/<stem>.txt with the
// extracted program. Answers without code produce no file ("Code not found."), and an earlier
// program of theirs is removed.
func ExtractStage(ctx context.Context, dir string, opt Options) (*StageReport, error) {
	return locked(dir, func() (*StageReport, error) { return extractStage(ctx, dir, opt) })
}

func extractStage(ctx context.Context, dir string, opt Options) (*StageReport, error) {
	prefix := opt.functionName()
	return perTrialStage(ctx, dir, opt, "extract", StageRaw, StageIntermediate, ".txt", MaxResponseBytes, func(data []byte) ([]byte, error) {
		code, err := ExtractCodePrefix(string(data), prefix)
		return []byte(code), err
	})
}

// ConvertStage converts every TEAM/intermediate/L/*.txt program into TEAM/levels/L/<stem>.xml;
// a conversion error discards the trial (and its earlier level).
func ConvertStage(ctx context.Context, dir string, opt Options) (*StageReport, error) {
	return locked(dir, func() (*StageReport, error) { return convertStage(ctx, dir, opt) })
}

func convertStage(ctx context.Context, dir string, opt Options) (*StageReport, error) {
	prefix := opt.functionName() + "("
	return perTrialStage(ctx, dir, opt, "convert", StageIntermediate, StageLevels, ".xml", MaxProgramBytes, func(data []byte) ([]byte, error) {
		s, err := ConvertPrefix(string(data), prefix)
		if err != nil {
			return nil, err
		}
		return []byte(s.Level().XML()), nil
	})
}

// SimulateStage runs the physics per TEAM/levels/L/*.xml and writes what the two Unity
// evaluators write: TEAM/stability/L.json (writeStability) and TEAM/images/L/<stem>.png
// (writeImages). Stability is the best of the evaluator's trials (Options.Trials, seeded by
// Options.Seed and the level's name); the image is the canonical trial's, as the separate image
// evaluator renders one run.
func SimulateStage(ctx context.Context, dir string, opt Options, writeStability, writeImages bool) (*StageReport, error) {
	return locked(dir, func() (*StageReport, error) { return simulateStage(ctx, dir, opt, writeStability, writeImages, nil) })
}

// simulateStage is SimulateStage; unchanged (when not nil) records the images whose file
// already held the same picture (their similarity, if any, still describes them).
func simulateStage(ctx context.Context, dir string, opt Options, writeStability, writeImages bool, unchanged *writtenSet) (*StageReport, error) {
	inp, err := collect(dir, StageLevels, func(n string) bool { return strings.HasSuffix(n, ".xml") })
	if err != nil {
		return nil, err
	}
	items := inp.items
	cfg := opt.Sim
	if cfg.StabilitySteps == 0 {
		cfg = DefaultSimConfig()
	}
	raws := make([]*StabilityRaw, len(items))
	index := map[string]int{}
	for i, it := range items {
		index[it.in] = i
	}
	name := "stability"
	if !writeStability {
		name = "render"
	}
	trials := opt.Trials
	if trials == 0 {
		trials = MaxEvaluatorTrials
	}
	if !writeStability {
		trials = 1
	}
	var written writtenSet
	errs, cerr := forEach(ctx, opt, name, items, func(it item) error {
		data, err := readInput(it.in, MaxLevelBytes)
		if err != nil {
			return err
		}
		lv, err := ParseLevel(data)
		if err != nil {
			return trialError{err}
		}
		tag := filepath.ToSlash(filepath.Join(it.team, StageLevels, it.letter, it.name))
		tr, err := SimulateTrials(ctx, lv, cfg, opt.Seed^splitmix(hashString(tag)), trials)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			return trialError{err}
		}
		raws[index[it.in]] = stabilityRaw(tag, tr)
		if writeImages {
			var buf bytes.Buffer
			if err := Render(tr.Results[0]).WritePNG(&buf); err != nil {
				return err
			}
			png := stem(it.name) + ".png"
			changed, err := writeOutChanged(dir, png, buf.Bytes(), it.team, StageImages, it.letter)
			if err != nil {
				return err
			}
			written.add(it, png)
			if !changed && unchanged != nil {
				unchanged.add(it, png)
			}
		}
		return nil
	})
	if cerr != nil {
		return nil, cerr
	}
	r, err := report(name, inp, errs, isTrialError)
	if err != nil {
		return r, err
	}
	if writeImages {
		n, err := inp.prune(dir, StageImages, ".png", written.m, func(n string) bool { return strings.HasSuffix(n, "_raw.png") })
		r.Removed += n
		if err != nil {
			return r, err
		}
	}
	if !writeStability {
		return r, nil
	}
	// One stability file per letter folder that has levels, raws in directory order.
	files := map[trialKey]*StabilityFile{}
	var order []trialKey
	for i, it := range items {
		k := trialKey{it.team, it.letter}
		if files[k] == nil {
			files[k] = &StabilityFile{Raws: []StabilityRaw{}}
			order = append(order, k)
		}
		if raws[i] != nil {
			files[k].Raws = append(files[k].Raws, *raws[i])
		}
	}
	letters := map[trialKey]bool{}
	for _, k := range order {
		if err := writeOut(dir, k.letter+".json", UnityStabilityJSON(files[k]), k.team, StageStability); err != nil {
			if !r.letterFailed(k, StageStability, err) {
				return r, err
			}
			continue
		}
		letters[k] = true
	}
	n, err := inp.prunePerLetter(dir, StageStability, letters)
	r.Removed += n
	return r, err
}

// hashString is FNV-1a: a level's own seed from its name, so its trials do not depend on which
// other levels the folder holds or on the workers' order.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// UnityStabilityJSON writes a stability file as Unity's JsonUtility does (4-space indentation,
// single-precision numbers printed as the double they widen to, "1.0" for whole numbers), with
// dataCount and rate computed from the raws.
func UnityStabilityJSON(f *StabilityFile) []byte {
	var rate float32
	for _, r := range f.Raws {
		rate += float32(r.Score)
	}
	if len(f.Raws) > 0 {
		rate /= float32(len(f.Raws))
	}
	var b strings.Builder
	b.WriteString("{\n")
	fmt.Fprintf(&b, "    \"dataCount\": %d,\n", len(f.Raws))
	fmt.Fprintf(&b, "    \"rate\": %s,\n", unityFloat(rate))
	if len(f.Raws) == 0 {
		b.WriteString("    \"raws\": []\n}")
		return []byte(b.String())
	}
	b.WriteString("    \"raws\": [\n")
	for i, r := range f.Raws {
		tag, _ := json.Marshal(r.Tag)
		fmt.Fprintf(&b, "        {\n            \"tag\": %s,\n            \"score\": %s,\n            \"startingObjects\": %d,\n            \"movingObjects\": %d\n        }",
			tag, unityFloat(float32(r.Score)), r.StartingObjects, r.MovingObjects)
		if i < len(f.Raws)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("    ]\n}")
	return []byte(b.String())
}

func unityFloat(v float32) string {
	s := strconv.FormatFloat(float64(v), 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEN") {
		s += ".0"
	}
	return s
}

// ClassifyStage asks the classifier about every TEAM/images/L/*.png (except *_raw.png) and
// writes TEAM/similarity/L.json. Without a classifier it writes nothing and says so. An image
// that cannot be read or classified fails its trial (it has no similarity entry); the others
// are classified.
func ClassifyStage(ctx context.Context, dir string, opt Options) (*StageReport, error) {
	return locked(dir, func() (*StageReport, error) { return classifyStage(ctx, dir, opt) })
}

// maxImageBytes bounds an evaluator image read for classification.
const maxImageBytes = 64 << 20

func classifyStage(ctx context.Context, dir string, opt Options) (*StageReport, error) {
	inp, err := collect(dir, StageImages, func(n string) bool { return !strings.HasSuffix(n, "_raw.png") })
	if err != nil {
		return nil, err
	}
	items := inp.items
	c := opt.Classifier
	if c == nil {
		c = Unavailable{}
	}
	if _, ok := c.(Unavailable); ok {
		return &StageReport{Stage: "classify", Items: len(items), Skipped: ErrClassifierUnavailable.Error()}, nil
	}
	results := make([]*Classification, len(items))
	index := map[string]int{}
	for i, it := range items {
		index[it.in] = i
	}
	errs, cerr := forEach(ctx, opt, "classify", items, func(it item) error {
		data, err := readInput(it.in, maxImageBytes)
		if err != nil {
			return err
		}
		img, err := DecodeImage(data)
		if err != nil {
			return trialError{err}
		}
		cl, err := c.Classify(ctx, img)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return trialError{err}
		}
		results[index[it.in]] = cl
		return nil
	})
	if cerr != nil {
		return nil, cerr
	}
	r, err := report("classify", inp, errs, isTrialError)
	if r != nil {
		r.Classifier = c.Name()
	}
	if err != nil {
		return r, err
	}
	if len(items) > 0 && r.Written == 0 {
		// Not one image classified: the classifier itself is broken, not a trial.
		return r, fmt.Errorf("the classifier answered for none of %d images: %s", len(items), r.Failures[len(r.Failures)-1].Err)
	}
	files := map[trialKey]*SimilarityFile{}
	var order []trialKey
	for i, it := range items {
		k := trialKey{it.team, it.letter}
		if files[k] == nil {
			files[k] = &SimilarityFile{Trials: []SimilarityTrial{}, Similarities: []SimilarityDetail{}}
			order = append(order, k)
		}
		f := files[k]
		cl := results[i]
		if cl == nil {
			continue // failed trial: no entry
		}
		detail := SimilarityDetail{ID: it.name}
		if opt.rules().Diversity == EmbeddingDiversity {
			detail.ClsEmbedding = cl.Embedding // the organisers write it since 2025 only
		}
		for j := 0; j < 26; j++ {
			detail.Raws = append(detail.Raws, SoftmaxEntry{ID: it.name, Label: Letters[j : j+1], SoftmaxProb: cl.Probabilities[j]})
		}
		var sim float64
		if len(it.letter) == 1 {
			sim = cl.Similarity(it.letter[0])
		}
		f.Trials = append(f.Trials, SimilarityTrial{ID: it.name, Label: it.letter, Similarity: sim})
		f.Similarities = append(f.Similarities, detail)
		f.Count++
		f.SimilarityRate += sim
	}
	letters := map[trialKey]bool{}
	for _, k := range order {
		f := files[k]
		if f.Count > 0 {
			f.SimilarityRate /= float64(f.Count)
		}
		data, err := json.MarshalIndent(f, "", "  ")
		if err != nil {
			return r, err
		}
		if err := writeOut(dir, k.letter+".json", data, k.team, StageSimilarity); err != nil {
			if !r.letterFailed(k, StageSimilarity, err) {
				return r, err
			}
			continue
		}
		letters[k] = true
	}
	n, err := inp.prunePerLetter(dir, StageSimilarity, letters)
	r.Removed += n
	return r, err
}

// maxResultFile bounds a stability, similarity or diversity file read back.
const maxResultFile = 256 << 20

// DiversityStage writes TEAM/diversity/L.json for every TEAM/similarity/L.json.
func DiversityStage(ctx context.Context, dir string, opt Options) (*StageReport, error) {
	return locked(dir, func() (*StageReport, error) { return diversityStage(ctx, dir, opt) })
}

func diversityStage(ctx context.Context, dir string, opt Options) (*StageReport, error) {
	teams, err := Teams(dir)
	if err != nil {
		return nil, err
	}
	inp := &inputs{}
	for _, team := range teams {
		sdir := filepath.Join(dir, team, StageSimilarity)
		if err := realDir(sdir); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				inp.refused = append(inp.refused, Failure{File: filepath.Join(team, StageSimilarity), Err: err.Error()})
				inp.teams = append(inp.teams, team)
			}
			continue
		}
		inp.teams = append(inp.teams, team)
		for _, name := range filesIn(sdir) {
			if strings.HasSuffix(name, ".json") {
				inp.items = append(inp.items, item{team: team, letter: stem(name), name: name, in: filepath.Join(sdir, name)})
			}
		}
	}
	var mu sync.Mutex
	letters := map[trialKey]bool{}
	errs, cerr := forEach(ctx, opt, "diversity", inp.items, func(it item) error {
		data, err := readInput(it.in, maxResultFile)
		if err != nil {
			return err
		}
		var sim SimilarityFile
		if err := json.Unmarshal(data, &sim); err != nil {
			return trialError{fmt.Errorf("%s: %w", it.name, err)}
		}
		div, err := DiversityFromSimilarity(&sim, opt.edition())
		if err != nil {
			return trialError{err}
		}
		out, err := json.MarshalIndent(div, "", "  ")
		if err != nil {
			return err
		}
		if err := writeOut(dir, stem(it.name)+".json", out, it.team, StageDiversity); err != nil {
			return err
		}
		mu.Lock()
		letters[trialKey{it.team, stem(it.name)}] = true
		mu.Unlock()
		return nil
	})
	if cerr != nil {
		return nil, cerr
	}
	r, err := report("diversity", inp, errs, isTrialError)
	if err != nil {
		return r, err
	}
	n, err := inp.prunePerLetter(dir, StageDiversity, letters)
	r.Removed += n
	return r, err
}

// ReadTeams loads the stability, similarity and diversity files of every team. Like the
// organisers' script it refuses to score when a team's three folders hold different numbers of
// files; unlike it, a team with stability results but no similarity at all is an error
// (ErrSimilarityMissing) instead of silently scoring 0.
func ReadTeams(dir string, edition Edition) ([]TeamFiles, error) {
	teams, _, err := readTeams(dir, edition, false)
	return teams, err
}

// readTeams is ReadTeams; lenient (within Evaluate, whose failed trials and letters are
// reported) scores a team whose folders hold different numbers of files, with the missing
// letters as zero, and returns why as warnings.
func readTeams(dir string, edition Edition, lenient bool) ([]TeamFiles, []Failure, error) {
	names, err := Teams(dir)
	if err != nil {
		return nil, nil, err
	}
	var teams []TeamFiles
	var warnings []Failure
	for _, name := range names {
		// A result folder that is a link is not read (it may point anywhere): strictly an
		// error, leniently the team's letters score 0 and the report says why.
		var counts [3]int
		readable := map[string]bool{}
		for i, stage := range []string{StageStability, StageSimilarity, StageDiversity} {
			p := filepath.Join(dir, name, stage)
			err := realDir(p)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				if !lenient {
					return nil, nil, fmt.Errorf("team %s: %w", name, err)
				}
				warnings = append(warnings, Failure{File: filepath.Join(name, stage), Err: err.Error() + "; not read, its letters score 0"})
			}
			if err == nil {
				readable[stage] = true
				counts[i] = len(filesIn(p))
			}
		}
		nSta, nSim, nDiv := counts[0], counts[1], counts[2]
		if nSta > 0 && nSim == 0 && !lenient {
			return nil, nil, fmt.Errorf("%w for team %s: %d stability files but no similarity files (no letter classifier configured?)", ErrSimilarityMissing, name, nSta)
		}
		if nSta != nSim || edition.Rules().HasDiversity() && nSta != nDiv {
			msg := fmt.Sprintf("team %s: %d stability, %d similarity and %d diversity files", name, nSta, nSim, nDiv)
			if !lenient {
				return nil, nil, fmt.Errorf("%s; the scoring script stops when they differ", msg)
			}
			warnings = append(warnings, Failure{File: name, Err: msg + "; the letters without all three score 0"})
		}
		t := TeamFiles{Name: name}
		for j := 0; j < 26; j++ {
			l := Letters[j:j+1] + ".json"
			if readable[StageStability] {
				t.Letters[j].Stability = readJSONFile[StabilityFile](filepath.Join(dir, name, StageStability, l))
			}
			if readable[StageSimilarity] {
				t.Letters[j].Similarity = readJSONFile[SimilarityFile](filepath.Join(dir, name, StageSimilarity, l))
			}
			if readable[StageDiversity] {
				t.Letters[j].Diversity = readJSONFile[DiversityFile](filepath.Join(dir, name, StageDiversity, l))
			}
		}
		teams = append(teams, t)
	}
	return teams, warnings, nil
}

func readJSONFile[T any](path string) *T {
	data, err := readInput(path, maxResultFile)
	if err != nil {
		return nil
	}
	var v T
	if json.Unmarshal(data, &v) != nil {
		return nil
	}
	return &v
}

// ScoreStage scores a competition folder and writes DIR/result/{trial_scores.csv,
// character_scores.csv, prompt_scores_ranks.csv, constants.json}.
func ScoreStage(ctx context.Context, dir string, opt Options) (*Scores, error) {
	return locked(dir, func() (*Scores, error) {
		sc, _, err := scoreStage(ctx, dir, opt, false)
		return sc, err
	})
}

func scoreStage(ctx context.Context, dir string, opt Options, lenient bool) (*Scores, []Failure, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	teams, warnings, err := readTeams(dir, opt.edition(), lenient)
	if err != nil {
		return nil, nil, err
	}
	sc := Score(teams, ScoreOptions{Edition: opt.edition(), Trials: trialsAsRun(teams, opt.TrialsPerLetter)})
	for name, write := range map[string]func(io.Writer) error{
		"trial_scores.csv":        sc.WriteTrialCSV,
		"character_scores.csv":    sc.WriteCharacterCSV,
		"prompt_scores_ranks.csv": sc.WriteRanksCSV,
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return nil, nil, err
		}
		if err := writeOut(dir, name, buf.Bytes(), StageResult); err != nil {
			return resultNotWritten(sc, warnings, err)
		}
	}
	constants, err := sc.ConstantsJSON()
	if err != nil {
		return nil, nil, err
	}
	if err := writeOut(dir, "constants.json", constants, StageResult); err != nil {
		return resultNotWritten(sc, warnings, err)
	}
	if opt.Progress != nil {
		opt.Progress(Event{Stage: "score", Done: 1, Total: 1})
	}
	return sc, warnings, nil
}

// resultNotWritten is scoreStage's answer when DIR/result cannot be written: a result folder
// that is a link (or a link in a result file's place) fails the score stage with its reason
// but keeps the scores, so the teams' ranking is still reported; any other error is returned
// alone.
func resultNotWritten(sc *Scores, warnings []Failure, err error) (*Scores, []Failure, error) {
	if errors.Is(err, ErrNotRealFolder) {
		return sc, warnings, err
	}
	return nil, nil, err
}

// Evaluate runs every stage on a competition folder, holding its writer lock. Every stage is
// derived from the current inputs: outputs of answers that changed into a failure or vanished
// are removed. Without a classifier, the stages up to stability and images run and similarity,
// diversity and scores are reported as missing.
func Evaluate(ctx context.Context, dir string, opt Options) (*Report, error) {
	return locked(dir, func() (*Report, error) { return evaluate(ctx, dir, opt) })
}

func evaluate(ctx context.Context, dir string, opt Options) (*Report, error) {
	rep := &Report{}
	var unchanged writtenSet
	for _, run := range []func() (*StageReport, error){
		func() (*StageReport, error) { return extractStage(ctx, dir, opt) },
		func() (*StageReport, error) { return convertStage(ctx, dir, opt) },
		func() (*StageReport, error) { return simulateStage(ctx, dir, opt, true, true, &unchanged) },
		func() (*StageReport, error) { return classifyStage(ctx, dir, opt) },
	} {
		r, err := run()
		if r != nil {
			rep.Stages = append(rep.Stages, r)
		}
		if err != nil {
			return rep, err
		}
	}
	classify := rep.Stages[len(rep.Stages)-1]
	if classify.Skipped != "" {
		// Without a classifier, only similarity entries that still describe their image stay.
		n, err := dropUnclassified(dir, unchanged.m)
		classify.Removed += n
		if err != nil {
			return rep, err
		}
	}
	if opt.rules().HasDiversity() {
		r, err := diversityStage(ctx, dir, opt)
		if r != nil {
			rep.Stages = append(rep.Stages, r)
		}
		if err != nil {
			return rep, err
		}
	}
	if classify.Skipped != "" {
		return unscored(dir, rep, "similarity missing: "+classify.Skipped)
	}
	sc, warnings, err := scoreStage(ctx, dir, opt, true)
	if err != nil && sc != nil {
		rep.Scores = sc
		rep.Stages = append(rep.Stages, &StageReport{Stage: "score", Items: len(resultFiles),
			Failures: append(warnings, Failure{File: StageResult, Err: err.Error()})})
		return rep, fmt.Errorf("scores computed but not written: %w", err)
	}
	if err != nil {
		return rep, err
	}
	rep.Scores = sc
	// Its items are the result files (resultFiles), all written when scoring succeeds.
	score := &StageReport{Stage: "score", Items: len(resultFiles), Written: len(resultFiles), Failures: warnings}
	rep.Stages = append(rep.Stages, score)
	score.Removed, err = removeContactSheets(dir)
	return rep, err
}

// StabilitySummary reads the stability files of a folder: per team, the mean score per letter
// (over the levels that exist, as Unity's "rate").
func StabilitySummary(dir string) (map[string]map[string]float64, error) {
	teams, err := Teams(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]float64{}
	for _, team := range teams {
		if realDir(filepath.Join(dir, team, StageStability)) != nil {
			continue // missing, or a link that is not read
		}
		names := filesIn(filepath.Join(dir, team, StageStability))
		sort.Strings(names)
		for _, n := range names {
			f := readJSONFile[StabilityFile](filepath.Join(dir, team, StageStability, n))
			if f == nil || len(f.Raws) == 0 {
				continue
			}
			sum := 0.0
			for _, r := range f.Raws {
				sum += r.Score
			}
			if out[team] == nil {
				out[team] = map[string]float64{}
			}
			out[team][stem(n)] = sum / float64(len(f.Raws))
		}
	}
	return out, nil
}

// trialsAsRun is the number of trials per letter to average over: the requested count, but
// never fewer than the highest trial number a team's files hold (another team of the folder
// may have run the competition's 10). 0 stays 0 (the competition's 10).
func trialsAsRun(teams []TeamFiles, requested int) int {
	if requested <= 0 {
		return 0
	}
	n := requested
	for _, t := range teams {
		for _, l := range t.Letters {
			if l.Stability != nil {
				for _, r := range l.Stability.Raws {
					if k, ok := TrialNumber(r.Tag); ok {
						n = max(n, k)
					}
				}
			}
			if l.Similarity != nil {
				for _, s := range l.Similarity.Trials {
					if k, ok := TrialNumber(s.ID); ok {
						n = max(n, k)
					}
				}
			}
		}
	}
	return min(n, 1000)
}

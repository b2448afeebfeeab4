package birds

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"pcgwb/internal/atomicfile"
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
	Edition    Edition    // 0 means Edition2024
	Classifier Classifier // nil means DefaultClassifier()
	Workers    int        // parallel items; 0 means GOMAXPROCS
	Progress   func(Event)
	Sim        SimConfig // zero means DefaultSimConfig
}

func (o Options) edition() Edition {
	if o.Edition == 0 {
		return Edition2024
	}
	return o.Edition
}

func (o Options) functionName() string {
	if o.edition() == Edition2023 {
		return AbDrop
	}
	return DropBlock
}

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

// collect lists every file of a stage: TEAM/stage/LETTER/file.
func collect(dir, stage string, keep func(name string) bool) ([]item, error) {
	teams, err := Teams(dir)
	if err != nil {
		return nil, err
	}
	var items []item
	for _, team := range teams {
		for _, letter := range subdirs(filepath.Join(dir, team, stage)) {
			for _, name := range filesIn(filepath.Join(dir, team, stage, letter)) {
				if keep == nil || keep(name) {
					items = append(items, item{team, letter, name, filepath.Join(dir, team, stage, letter, name)})
				}
			}
		}
	}
	return items, nil
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
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = work(items[i])
				mu.Lock()
				done++
				if opt.Progress != nil {
					ev := Event{Stage: stage, Team: items[i].team, Letter: items[i].letter, File: items[i].name, Done: done, Total: len(items)}
					if errs[i] != nil {
						ev.Err = errs[i].Error()
					}
					opt.Progress(ev)
				}
				mu.Unlock()
			}
		}()
	}
	var cancelled error
	for i := range items {
		if err := ctx.Err(); err != nil {
			cancelled = err
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return errs, cancelled
}

func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrTooLarge, filepath.Base(path), limit)
	}
	return data, nil
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o644)
}

func report(stage string, items []item, errs []error, itemErr func(error) bool) (*StageReport, error) {
	r := &StageReport{Stage: stage, Items: len(items)}
	for i, err := range errs {
		switch {
		case err == nil:
			r.Written++
		case itemErr(err):
			r.Failures = append(r.Failures, Failure{File: filepath.Join(items[i].team, items[i].letter, items[i].name), Err: err.Error()})
		default:
			return r, fmt.Errorf("%s %s: %w", stage, items[i].in, err)
		}
	}
	return r, nil
}

// trialError marks a trial that produces no output by the competition's rules.
type trialError struct{ error }

func (e trialError) Unwrap() error { return e.error }

func isTrialError(err error) bool {
	var te trialError
	return errors.As(err, &te)
}

// ExtractStage reads every TEAM/raw/L/* answer and writes TEAM/intermediate/L/<stem>.txt with the
// extracted program. Answers without code produce no file ("Code not found.").
func ExtractStage(ctx context.Context, dir string, opt Options) (*StageReport, error) {
	items, err := collect(dir, StageRaw, nil)
	if err != nil {
		return nil, err
	}
	prefix := opt.functionName()
	errs, cerr := forEach(ctx, opt, "extract", items, func(it item) error {
		data, err := readLimited(it.in, MaxResponseBytes)
		if err != nil {
			if errors.Is(err, ErrTooLarge) {
				return trialError{err}
			}
			return err
		}
		code, err := ExtractCodePrefix(string(data), prefix)
		if err != nil {
			return trialError{err}
		}
		return writeFile(filepath.Join(dir, it.team, StageIntermediate, it.letter, stem(it.name)+".txt"), []byte(code))
	})
	if cerr != nil {
		return nil, cerr
	}
	return report("extract", items, errs, isTrialError)
}

// ConvertStage converts every TEAM/intermediate/L/*.txt program into TEAM/levels/L/<stem>.xml;
// a conversion error discards the trial.
func ConvertStage(ctx context.Context, dir string, opt Options) (*StageReport, error) {
	items, err := collect(dir, StageIntermediate, nil)
	if err != nil {
		return nil, err
	}
	prefix := opt.functionName() + "("
	errs, cerr := forEach(ctx, opt, "convert", items, func(it item) error {
		data, err := readLimited(it.in, MaxProgramBytes)
		if err != nil {
			if errors.Is(err, ErrTooLarge) {
				return trialError{err}
			}
			return err
		}
		s, err := ConvertPrefix(string(data), prefix)
		if err != nil {
			return trialError{err}
		}
		return writeFile(filepath.Join(dir, it.team, StageLevels, it.letter, stem(it.name)+".xml"), []byte(s.Level().XML()))
	})
	if cerr != nil {
		return nil, cerr
	}
	return report("convert", items, errs, isTrialError)
}

// SimulateStage runs the physics once per TEAM/levels/L/*.xml and writes what the two Unity
// evaluators write: TEAM/stability/L.json (writeStability) and TEAM/images/L/<stem>.png
// (writeImages). One deterministic simulation feeds both.
func SimulateStage(ctx context.Context, dir string, opt Options, writeStability, writeImages bool) (*StageReport, error) {
	items, err := collect(dir, StageLevels, func(n string) bool { return strings.HasSuffix(n, ".xml") })
	if err != nil {
		return nil, err
	}
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
	errs, cerr := forEach(ctx, opt, name, items, func(it item) error {
		data, err := readLimited(it.in, MaxLevelBytes)
		if err != nil {
			if errors.Is(err, ErrTooLarge) {
				return trialError{err}
			}
			return err
		}
		lv, err := ParseLevel(data)
		if err != nil {
			return trialError{err}
		}
		res, err := SimulateContext(ctx, lv, cfg)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			return trialError{err}
		}
		tag := filepath.ToSlash(filepath.Join(it.team, StageLevels, it.letter, it.name))
		raws[index[it.in]] = &StabilityRaw{Tag: tag, Score: res.Score, StartingObjects: res.Total, MovingObjects: res.Moving}
		if writeImages {
			var buf bytes.Buffer
			if err := Render(res).WritePNG(&buf); err != nil {
				return err
			}
			return writeFile(filepath.Join(dir, it.team, StageImages, it.letter, stem(it.name)+".png"), buf.Bytes())
		}
		return nil
	})
	if cerr != nil {
		return nil, cerr
	}
	r, err := report(name, items, errs, isTrialError)
	if err != nil || !writeStability {
		return r, err
	}
	// One stability file per letter folder that has levels, raws in directory order.
	type key struct{ team, letter string }
	files := map[key]*StabilityFile{}
	var order []key
	for i, it := range items {
		k := key{it.team, it.letter}
		if files[k] == nil {
			files[k] = &StabilityFile{Raws: []StabilityRaw{}}
			order = append(order, k)
		}
		if raws[i] != nil {
			files[k].Raws = append(files[k].Raws, *raws[i])
		}
	}
	for _, k := range order {
		if err := writeFile(filepath.Join(dir, k.team, StageStability, k.letter+".json"), UnityStabilityJSON(files[k])); err != nil {
			return r, err
		}
	}
	return r, nil
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
// writes TEAM/similarity/L.json. Without a classifier it writes nothing and says so.
func ClassifyStage(ctx context.Context, dir string, opt Options) (*StageReport, error) {
	items, err := collect(dir, StageImages, func(n string) bool { return !strings.HasSuffix(n, "_raw.png") })
	if err != nil {
		return nil, err
	}
	c := opt.Classifier
	if c == nil {
		c = DefaultClassifier()
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
		data, err := readLimited(it.in, 64<<20)
		if err != nil {
			return err
		}
		cl, err := c.Classify(ctx, data)
		if err != nil {
			return err
		}
		results[index[it.in]] = cl
		return nil
	})
	if cerr != nil {
		return nil, cerr
	}
	r, err := report("classify", items, errs, func(error) bool { return false })
	r.Classifier = c.Name()
	if err != nil {
		return r, err
	}
	type key struct{ team, letter string }
	files := map[key]*SimilarityFile{}
	var order []key
	for i, it := range items {
		k := key{it.team, it.letter}
		if files[k] == nil {
			files[k] = &SimilarityFile{Trials: []SimilarityTrial{}, Similarities: []SimilarityDetail{}}
			order = append(order, k)
		}
		f := files[k]
		cl := results[i]
		detail := SimilarityDetail{ID: it.name, ClsEmbedding: cl.Embedding}
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
	for _, k := range order {
		f := files[k]
		f.SimilarityRate /= float64(f.Count)
		data, err := json.MarshalIndent(f, "", "  ")
		if err != nil {
			return r, err
		}
		if err := writeFile(filepath.Join(dir, k.team, StageSimilarity, k.letter+".json"), data); err != nil {
			return r, err
		}
	}
	return r, nil
}

// DiversityStage writes TEAM/diversity/L.json for every TEAM/similarity/L.json.
func DiversityStage(ctx context.Context, dir string, opt Options) (*StageReport, error) {
	teams, err := Teams(dir)
	if err != nil {
		return nil, err
	}
	var items []item
	for _, team := range teams {
		for _, name := range filesIn(filepath.Join(dir, team, StageSimilarity)) {
			items = append(items, item{team: team, letter: stem(name), name: name, in: filepath.Join(dir, team, StageSimilarity, name)})
		}
	}
	errs, cerr := forEach(ctx, opt, "diversity", items, func(it item) error {
		data, err := readLimited(it.in, 256<<20)
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
		return writeFile(filepath.Join(dir, it.team, StageDiversity, stem(it.name)+".json"), out)
	})
	if cerr != nil {
		return nil, cerr
	}
	return report("diversity", items, errs, isTrialError)
}

// ReadTeams loads the stability, similarity and diversity files of every team. Like the
// organisers' script it refuses to score when a team's three folders hold different numbers of
// files; unlike it, a team with stability results but no similarity at all is an error
// (ErrSimilarityMissing) instead of silently scoring 0.
func ReadTeams(dir string, edition Edition) ([]TeamFiles, error) {
	names, err := Teams(dir)
	if err != nil {
		return nil, err
	}
	var teams []TeamFiles
	for _, name := range names {
		nSta := len(filesIn(filepath.Join(dir, name, StageStability)))
		nSim := len(filesIn(filepath.Join(dir, name, StageSimilarity)))
		nDiv := len(filesIn(filepath.Join(dir, name, StageDiversity)))
		if nSta > 0 && nSim == 0 {
			return nil, fmt.Errorf("%w for team %s: %d stability files but no similarity files (no letter classifier configured?)", ErrSimilarityMissing, name, nSta)
		}
		if nSta != nSim || edition != Edition2023 && nSta != nDiv {
			return nil, fmt.Errorf("team %s: %d stability, %d similarity and %d diversity files; the scoring script stops when they differ", name, nSta, nSim, nDiv)
		}
		t := TeamFiles{Name: name}
		for j := 0; j < 26; j++ {
			l := Letters[j:j+1] + ".json"
			t.Letters[j].Stability = readJSONFile[StabilityFile](filepath.Join(dir, name, StageStability, l))
			t.Letters[j].Similarity = readJSONFile[SimilarityFile](filepath.Join(dir, name, StageSimilarity, l))
			t.Letters[j].Diversity = readJSONFile[DiversityFile](filepath.Join(dir, name, StageDiversity, l))
		}
		teams = append(teams, t)
	}
	return teams, nil
}

func readJSONFile[T any](path string) *T {
	data, err := readLimited(path, 256<<20)
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
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	teams, err := ReadTeams(dir, opt.edition())
	if err != nil {
		return nil, err
	}
	sc := Score(teams, ScoreOptions{Edition: opt.edition()})
	out := filepath.Join(dir, StageResult)
	for name, write := range map[string]func(io.Writer) error{
		"trial_scores.csv":        sc.WriteTrialCSV,
		"character_scores.csv":    sc.WriteCharacterCSV,
		"prompt_scores_ranks.csv": sc.WriteRanksCSV,
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return nil, err
		}
		if err := writeFile(filepath.Join(out, name), buf.Bytes()); err != nil {
			return nil, err
		}
	}
	constants, err := sc.ConstantsJSON()
	if err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(out, "constants.json"), constants); err != nil {
		return nil, err
	}
	if opt.Progress != nil {
		opt.Progress(Event{Stage: "score", Done: 1, Total: 1})
	}
	return sc, nil
}

// Evaluate runs every stage on a competition folder. Without a classifier, the stages up to
// stability and images run and similarity, diversity and scores are reported as missing.
func Evaluate(ctx context.Context, dir string, opt Options) (*Report, error) {
	rep := &Report{}
	for _, run := range []func() (*StageReport, error){
		func() (*StageReport, error) { return ExtractStage(ctx, dir, opt) },
		func() (*StageReport, error) { return ConvertStage(ctx, dir, opt) },
		func() (*StageReport, error) { return SimulateStage(ctx, dir, opt, true, true) },
		func() (*StageReport, error) { return ClassifyStage(ctx, dir, opt) },
	} {
		r, err := run()
		if r != nil {
			rep.Stages = append(rep.Stages, r)
		}
		if err != nil {
			return rep, err
		}
	}
	if classify := rep.Stages[len(rep.Stages)-1]; classify.Skipped != "" {
		rep.Stages = append(rep.Stages,
			&StageReport{Stage: "diversity", Skipped: "similarity missing: " + classify.Skipped},
			&StageReport{Stage: "score", Skipped: "similarity missing: " + classify.Skipped})
		return rep, nil
	}
	if opt.edition() != Edition2023 {
		r, err := DiversityStage(ctx, dir, opt)
		if r != nil {
			rep.Stages = append(rep.Stages, r)
		}
		if err != nil {
			return rep, err
		}
	}
	sc, err := ScoreStage(ctx, dir, opt)
	if err != nil {
		return rep, err
	}
	rep.Scores = sc
	rep.Stages = append(rep.Stages, &StageReport{Stage: "score", Items: len(sc.Prompts), Written: 4})
	return rep, nil
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

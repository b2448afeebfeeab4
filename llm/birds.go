package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/folderlock"
)

// ObjectPlaceholder is replaced by the target letter in ChatGPT4PCG prompts.
const ObjectPlaceholder = "<OBJECT>"

// Competition defaults (ChatGPT4PCG 2024 rules).
const (
	BirdsTrials     = 10
	BirdsTokenLimit = 25000
	BirdsTimeLimit  = 120 * time.Second
)

// BirdsOptions configure RunBirdsPrompts.
type BirdsOptions struct {
	// Team names the team folder and the answer files (TEAM/raw/L/TEAM_L_n.txt).
	Team string
	// Turns are the user messages of a trial's conversation. One turn is the 2023 single-turn
	// format; with more, each is sent after the model's answer to the previous one (the 2024
	// organisers' zero-shot multi-turn baseline) and the last answer is saved.
	Turns []string
	// System is an optional system message opening every conversation.
	System string
	// Letters are the targets (default A..Z).
	Letters []string
	// Trials per letter (default BirdsTrials).
	Trials int
	// QuoteLetter writes the letter in double quotes ("A") in place of <OBJECT>, the 2023 rule;
	// otherwise the bare letter, as the 2024 and 2025 organisers' programs do.
	QuoteLetter bool
	// Out is the competition folder; the team folder is created in it.
	Out string
	// TokenLimit bounds a trial's tokens (prompt + completion, summed over its calls); a trial
	// over it saves nothing. 0: no limit.
	TokenLimit int
	// TimeLimit bounds a trial's wall time, checked before each call. 0: no limit.
	TimeLimit time.Duration
	// SeedPerTrial sends the configured seed plus the trial number (the 2025 final run derived
	// per-trial seeds); otherwise every trial sends the configured seed (2024: 42 for all).
	SeedPerTrial bool
	// Overwrite asks again for trials whose answer file exists; by default they are skipped,
	// so an interrupted run continues where it stopped.
	Overwrite bool
	// OnTrial, when set, is called as each trial ends; the calls come from the trials'
	// goroutines but one at a time.
	OnTrial func(TrialResult)
	// OnDelta, when set, streams the replies as they arrive (from several goroutines at once).
	OnDelta func(BirdsDelta)
}

// BirdsDelta is a piece of a trial's streamed reply.
type BirdsDelta struct {
	Letter      string
	Trial, Turn int
	// Attempt is the HTTP attempt (0 for a cached reply); when it changes, the text received
	// for this turn so far is void.
	Attempt int
	Text    string
}

// TrialResult is one trial's outcome, as logged in OUT/logs/TEAM.jsonl.
type TrialResult struct {
	Letter string `json:"letter"`
	Trial  int    `json:"trial"`
	// Path is the answer file, empty when the trial saved nothing.
	Path string `json:"path,omitempty"`
	// Error says why nothing was saved (the competition scores such a trial 0).
	Error   string `json:"error,omitempty"`
	Skipped bool   `json:"skipped,omitempty"`
	Cached  bool   `json:"cached,omitempty"`
	Calls   int    `json:"calls"`
	Usage   Usage  `json:"usage"`
}

// BirdsReport sums a RunBirdsPrompts call.
type BirdsReport struct {
	Team    string        `json:"team"`
	Written int           `json:"written"`
	Skipped int           `json:"skipped"`
	Failed  int           `json:"failed"`
	Trials  []TrialResult `json:"trials"`
}

// AllLetters is A..Z.
func AllLetters() []string {
	out := make([]string, 26)
	for i := range out {
		out[i] = string(rune('A' + i))
	}
	return out
}

// ParseLetters reads "A-Z", "A,C,E-G" or "ACE" into a list of distinct upper-case letters, in
// alphabetical order.
func ParseLetters(spec string) ([]string, error) {
	set := map[rune]bool{}
	for _, part := range strings.Split(strings.ToUpper(strings.TrimSpace(spec)), ",") {
		part = strings.TrimSpace(part)
		r := []rune(part)
		switch {
		case len(r) == 3 && r[1] == '-' && isLetter(r[0]) && isLetter(r[2]) && r[0] <= r[2]:
			for c := r[0]; c <= r[2]; c++ {
				set[c] = true
			}
		case len(r) > 0 && allLetters(r):
			for _, c := range r {
				set[c] = true
			}
		default:
			return nil, fmt.Errorf("letters %q: expected letters or ranges such as A-Z or A,C,E-G", spec)
		}
	}
	var out []string
	for c := range set {
		out = append(out, string(c))
	}
	sort.Strings(out)
	return out, nil
}

func isLetter(r rune) bool { return r >= 'A' && r <= 'Z' }

func allLetters(rs []rune) bool {
	for _, r := range rs {
		if !isLetter(r) {
			return false
		}
	}
	return true
}

// BirdsAnswerPath is where a trial's answer goes: OUT/TEAM/raw/L/TEAM_L_n.txt.
func BirdsAnswerPath(out, team, letter string, trial int) string {
	return filepath.Join(out, team, "raw", letter, fmt.Sprintf("%s_%s_%d.txt", team, letter, trial))
}

// ReplaceObject puts the letter into a prompt the way the competition does.
func ReplaceObject(prompt, letter string, quote bool) string {
	if quote {
		letter = `"` + letter + `"`
	}
	return strings.ReplaceAll(prompt, ObjectPlaceholder, letter)
}

var errTrialTokens = errors.New("token limit exceeded")

// RunBirdsPrompts asks the model for every letter and trial and saves each final answer, as
// received, in the competition's folder layout, ready for the extraction and evaluation
// pipeline. A trial whose requests fail or exceed the limits saves nothing and is reported,
// as in the competition; an offline cache miss or a cancelled context stops the run.
func RunBirdsPrompts(ctx context.Context, c *Client, opts BirdsOptions) (*BirdsReport, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.Letters == nil {
		opts.Letters = AllLetters()
	}
	if opts.Trials <= 0 {
		opts.Trials = BirdsTrials
	}
	logDir := filepath.Join(opts.Out, "logs")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return nil, err
	}
	// One writer per competition folder: a second prompt run or an evaluation of the same
	// folder is refused while the answers are written (the lock is released before the
	// caller evaluates the folder, which takes it again).
	lock, err := folderlock.Acquire(opts.Out)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	if err := writeBirdsConfig(c, opts); err != nil {
		return nil, err
	}
	logFile, err := os.OpenFile(filepath.Join(logDir, opts.Team+".jsonl"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	usage := NewUsageLog(nil)
	ctx = WithUsageLog(ctx, usage)

	type job struct {
		letter string
		trial  int
	}
	var jobs []job
	for _, l := range opts.Letters {
		for t := 1; t <= opts.Trials; t++ {
			jobs = append(jobs, job{l, t})
		}
	}
	// The first failure cancels the other trials and is the error.
	g, rctx := errgroup.WithContext(ctx)
	results := make([]TrialResult, len(jobs))
	var mu sync.Mutex
	for i, j := range jobs {
		g.Go(func() error {
			r, err := runTrial(rctx, c, opts, j.letter, j.trial)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			results[i] = r
			if line, err := json.Marshal(r); err == nil && !r.Skipped {
				logFile.Write(append(line, '\n'))
			}
			if opts.OnTrial != nil {
				opts.OnTrial(r)
			}
			return nil
		})
	}
	fatal := g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if fatal != nil {
		return nil, fatal
	}
	rep := &BirdsReport{Team: opts.Team, Trials: results}
	for _, r := range results {
		switch {
		case r.Skipped:
			rep.Skipped++
		case r.Path != "":
			rep.Written++
		default:
			rep.Failed++
		}
	}
	return rep, nil
}

// BirdsConfig is OUT/logs/TEAM.config.json: what a prompt run asked and of whom, so that it
// can be repeated (the API key is not part of Settings and so is never written).
type BirdsConfig struct {
	Team         string   `json:"team"`
	Endpoint     Settings `json:"endpoint"`
	System       string   `json:"system,omitempty"`
	Turns        []string `json:"turns"`
	Letters      []string `json:"letters"`
	Trials       int      `json:"trials"`
	QuoteLetter  bool     `json:"quote_letter"`
	SeedPerTrial bool     `json:"seed_per_trial"`
	TokenLimit   int      `json:"token_limit"`
	TimeLimit    float64  `json:"time_limit_s"`
}

// BirdsConfigPath is where RunBirdsPrompts records a team's run configuration.
func BirdsConfigPath(out, team string) string {
	return filepath.Join(out, "logs", team+".config.json")
}

func writeBirdsConfig(c *Client, opts BirdsOptions) error {
	cfg := BirdsConfig{Team: opts.Team, Endpoint: c.Settings(), System: opts.System, Turns: opts.Turns,
		Letters: opts.Letters, Trials: opts.Trials, QuoteLetter: opts.QuoteLetter, SeedPerTrial: opts.SeedPerTrial,
		TokenLimit: opts.TokenLimit, TimeLimit: opts.TimeLimit.Seconds()}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(BirdsConfigPath(opts.Out, opts.Team), append(b, '\n'), 0o644)
}

// Validate reports what would make RunBirdsPrompts refuse the options before asking anything.
func (opts BirdsOptions) Validate() error {
	if err := checkTeam(opts.Team); err != nil {
		return err
	}
	if len(opts.Turns) == 0 {
		return errors.New("no prompt given")
	}
	found := false
	for _, t := range opts.Turns {
		found = found || strings.Contains(t, ObjectPlaceholder)
	}
	if !found {
		return fmt.Errorf("the prompt does not contain %s: every letter would get the same prompt", ObjectPlaceholder)
	}
	if opts.Out == "" {
		return errors.New("no output folder given")
	}
	return nil
}

// checkTeam refuses names the competition scripts would not read as a team folder.
func checkTeam(team string) error {
	switch {
	case team == "":
		return errors.New("no team name given")
	case team == "logs" || team == "result" || strings.HasPrefix(team, "."):
		return fmt.Errorf("team name %q is reserved by the competition scripts", team)
	case strings.ContainsAny(team, `/\`+"\x00") || strings.TrimSpace(team) != team:
		return fmt.Errorf("team name %q must be a plain folder name", team)
	}
	return nil
}

// runTrial holds one conversation. Only a fatal error (offline miss, cancellation) is
// returned; anything else is the trial's failure.
func runTrial(ctx context.Context, c *Client, opts BirdsOptions, letter string, trial int) (TrialResult, error) {
	res := TrialResult{Letter: letter, Trial: trial}
	path := BirdsAnswerPath(opts.Out, opts.Team, letter, trial)
	if !opts.Overwrite {
		if _, err := os.Stat(path); err == nil {
			res.Path, res.Skipped = path, true
			return res, nil
		}
	}
	var seed *int
	if opts.SeedPerTrial && c.cfg.Seed != nil {
		s := *c.cfg.Seed + trial
		seed = &s
	}
	var msgs []Message
	if opts.System != "" {
		msgs = append(msgs, Message{Role: RoleSystem, Content: opts.System})
	}
	start := time.Now()
	answer := ""
	allCached := true
	for i, turn := range opts.Turns {
		if opts.TimeLimit > 0 && time.Since(start) > opts.TimeLimit {
			res.Error = fmt.Sprintf("time limit of %v exceeded before turn %d", opts.TimeLimit, i+1)
			return res, nil
		}
		msgs = append(msgs, Message{Role: RoleUser, Content: ReplaceObject(turn, letter, opts.QuoteLetter)})
		tctx := WithTag(ctx, fmt.Sprintf("%s %s trial %d turn %d", opts.Team, letter, trial, i+1))
		req := Request{Messages: msgs, Sample: trial, Seed: seed}
		var resp *Response
		var err error
		if opts.OnDelta != nil {
			resp, err = c.ChatStream(tctx, req, func(attempt int, d string) {
				opts.OnDelta(BirdsDelta{Letter: letter, Trial: trial, Turn: i, Attempt: attempt, Text: d})
			})
		} else {
			resp, err = c.Chat(tctx, req)
		}
		res.Calls++
		if err != nil {
			if errors.Is(err, ErrOfflineMiss) || ctx.Err() != nil {
				return res, err
			}
			res.Error = err.Error()
			return res, nil
		}
		allCached = allCached && resp.Cached
		res.Usage = res.Usage.add(resp.Usage)
		if opts.TokenLimit > 0 && res.Usage.TotalTokens > opts.TokenLimit {
			res.Error = fmt.Sprintf("%v: %d tokens > %d", errTrialTokens, res.Usage.TotalTokens, opts.TokenLimit)
			return res, nil
		}
		answer = resp.Content
		msgs = append(msgs, Message{Role: RoleAssistant, Content: answer})
	}
	res.Cached = allCached
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return res, err
	}
	if err := atomicfile.Write(path, []byte(answer), 0o644); err != nil {
		return res, err
	}
	res.Path = path
	return res, nil
}

// LoadBirdsTurns reads a prompt: a text file is a single-turn prompt; a folder holds one turn
// per *.txt file, sent in file-name order (as the organisers' multi-turn example program
// reads its prompts folder).
func LoadBirdsTurns(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return []string{string(b)}, nil
	}
	names, err := filepath.Glob(filepath.Join(path, "*.txt"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("%s holds no *.txt prompt files", path)
	}
	var turns []string
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		turns = append(turns, string(b))
	}
	return turns, nil
}

// TeamName derives a team name from a prompt's path: its file or folder name without the
// extension.
func TeamName(path string) string {
	base := filepath.Base(filepath.Clean(path))
	return strings.TrimSuffix(base, filepath.Ext(base))
}

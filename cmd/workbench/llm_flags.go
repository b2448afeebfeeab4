package main

// The flags `llm generate`, `llm prompt`, `llm test` and `run --generator llm*` share: the
// endpoint (llm.Config) and the prompt settings (llm.GeneratorOptions), with their checks.

import (
	"flag"
	"fmt"
	"io"
	"os"
	"pcgwb/internal/appdirs"
	"strconv"
	"strings"
	"time"

	"pcgwb/llm"
	"pcgwb/problems/search"
)

// endpointFlags are the settings every llm subcommand shares. The key itself is never a flag
// (it would show in the process list and the shell history): it is read from an environment
// variable.
type endpointFlags struct {
	baseURL, model, keyEnv, temperature string
	seed                                int
	maxTokens, retries, concurrency     int
	timeout                             time.Duration
	offline, allowInsecure, reask       bool
	maxReplyBytes                       int64
	cache                               string
	priceIn, priceOut                   float64
}

func (e *endpointFlags) register(fs *flag.FlagSet) {
	e.registerEndpoint(fs)
	fs.IntVar(&e.seed, "seed", 1, "seed: the run's random draws, and the request seed (plus the level's number)")
}

// registerEndpoint registers the endpoint flags but --seed (`run` has its own).
func (e *endpointFlags) registerEndpoint(fs *flag.FlagSet) {
	fs.StringVar(&e.baseURL, "base-url", envOr("OPENAI_BASE_URL", llm.DefaultBaseURL), "API root, e.g. http://127.0.0.1:11434/v1 for Ollama (env OPENAI_BASE_URL)")
	fs.StringVar(&e.model, "model", os.Getenv("OPENAI_MODEL"), "model name (env OPENAI_MODEL)")
	fs.StringVar(&e.keyEnv, "api-key-env", llm.DefaultKeyEnv, "environment variable holding the API key (local servers need none)")
	fs.StringVar(&e.temperature, "temperature", "", "sampling temperature in [0, 2] (default: the server's)")
	fs.IntVar(&e.maxTokens, "max-tokens", 0, "reply length limit (default: the server's)")
	fs.DurationVar(&e.timeout, "timeout", llm.DefaultTimeout, "time limit of one attempt")
	fs.IntVar(&e.retries, "retries", llm.DefaultMaxRetries, "retries after a timeout, 429 or 5xx (backoff with jitter; Retry-After honoured)")
	fs.IntVar(&e.concurrency, "concurrency", llm.DefaultConcurrency, "requests in flight at once")
	fs.BoolVar(&e.offline, "offline", false, "answer from the cache only; fail on a request it lacks")
	fs.StringVar(&e.cache, "cache", defaultLLMCache(), `response cache folder ("" disables it)`)
	fs.Float64Var(&e.priceIn, "price-in", 0, "cost of a million prompt tokens, for the usage log")
	fs.Float64Var(&e.priceOut, "price-out", 0, "cost of a million completion tokens, for the usage log")
	fs.BoolVar(&e.allowInsecure, "allow-insecure", false, "accept a plain http:// base URL on another machine (the key then travels in clear)")
	fs.BoolVar(&e.reask, "reask-invalid", false, "ask again for cached replies that fail validation; the new answer replaces the cached one (llm generate, run --generator llm)")
	fs.Int64Var(&e.maxReplyBytes, "max-reply-bytes", llm.DefaultMaxReplyBytes, "size limit of one server response; a longer one fails the request")
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// defaultLLMCache is shared by all runs, so a prompt asked once is never paid twice.
func defaultLLMCache() string { return appdirs.LLMCacheDir() }

func (e *endpointFlags) config(stderr io.Writer) (llm.Config, error) {
	cfg := llm.Config{BaseURL: e.baseURL, Model: e.model, MaxTokens: e.maxTokens, Timeout: e.timeout,
		MaxRetries: e.retries, Concurrency: e.concurrency, CacheDir: e.cache, Offline: e.offline,
		Price: llm.Price{InputPerMillion: e.priceIn, OutputPerMillion: e.priceOut}, AllowInsecure: e.allowInsecure,
		MaxReplyBytes: e.maxReplyBytes, ReaskInvalid: e.reask}
	if e.maxReplyBytes <= 0 {
		return cfg, usagef("--max-reply-bytes must be > 0, got %d", e.maxReplyBytes)
	}
	if cfg.Model == "" {
		return cfg, usagef("--model is required (or set OPENAI_MODEL)")
	}
	if e.retries == 0 {
		cfg.MaxRetries = -1
	}
	if e.temperature != "" {
		t, err := strconv.ParseFloat(e.temperature, 64)
		if err != nil {
			return cfg, usagef("--temperature %q is not a number", e.temperature)
		}
		cfg.Temperature = &t
	}
	seed := e.seed
	cfg.Seed = &seed
	if e.offline && e.cache == "" {
		return cfg, usagef("--offline needs a --cache folder")
	}
	if err := cfg.Check(); err != nil {
		return cfg, usagef("%v", err)
	}
	cfg.APIKey = llm.KeyFromEnv(e.keyEnv)
	if cfg.APIKey == "" && !e.offline && strings.HasPrefix(e.baseURL, "https://api.openai.com") {
		fmt.Fprintf(stderr, "note: %s is not set; OpenAI will refuse the requests\n", e.keyEnv)
	}
	return cfg, nil
}

// promptFlags are the generator's prompt settings.
type promptFlags struct {
	problem, fitness, examplesFrom, template, prompts string
	n, examples, repairs                              int
	control                                           bool
}

// defaultLLMN is the number of levels asked per generation unless told (`llm generate --n`,
// `run --generator llm --pop`).
const defaultLLMN = 10

func (p *promptFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.problem, "problem", "", "problem name (workbench problems lists them)")
	fs.IntVar(&p.n, "n", defaultLLMN, "levels to ask for (per generation)")
	fs.StringVar(&p.fitness, "fitness", search.FitnessQuality, "fitness: "+strings.Join(search.Fitnesses(), ", "))
	p.registerPrompt(fs)
}

// registerPrompt registers the prompt flags but --problem, --n and --fitness (`run` has its own).
func (p *promptFlags) registerPrompt(fs *flag.FlagSet) {
	fs.IntVar(&p.examples, "examples", llm.DefaultExamples, "example levels in each prompt")
	fs.StringVar(&p.examplesFrom, "examples-from", "", "take the examples from a run folder, a final.json or an item file (default: built in)")
	fs.BoolVar(&p.control, "control", false, "ask each level to meet a control target (sampled per level)")
	fs.IntVar(&p.repairs, "repairs", llm.DefaultMaxRepairs, "re-asks after an invalid reply, per level")
	fs.StringVar(&p.prompts, "prompts", "", "folder of prompt templates searched before the built-in ones")
	fs.StringVar(&p.template, "template", "", "prompt template name (default: the problem's)")
}

func (p *promptFlags) options(seed int) (llm.GeneratorOptions, error) {
	if p.problem == "" {
		return llm.GeneratorOptions{}, usagef("--problem is required")
	}
	if p.n < 1 {
		return llm.GeneratorOptions{}, usagef("--n must be at least 1")
	}
	if p.examples < 0 || p.repairs < 0 {
		return llm.GeneratorOptions{}, usagef("--examples and --repairs must be >= 0")
	}
	if seed < 0 {
		return llm.GeneratorOptions{}, usagef("--seed must be >= 0")
	}
	fit, _, err := search.ParseFitness(p.fitness)
	if err != nil {
		return llm.GeneratorOptions{}, usageError{err.Error()}
	}
	return llm.GeneratorOptions{
		Options: search.Options{Problem: p.problem, Fitness: fit, Seed: uint64(seed), PopSize: p.n},
		PromptSettings: llm.PromptSettings{Examples: p.examples, ExamplesFrom: p.examplesFrom, Control: p.control,
			MaxRepairs: p.repairs, Template: p.template, PromptDir: p.prompts},
	}, nil
}

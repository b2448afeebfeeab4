package llm

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// DefaultBaseURL is OpenAI's endpoint; local servers are usually http://127.0.0.1:PORT/v1.
const DefaultBaseURL = "https://api.openai.com/v1"

// DefaultKeyEnv is the environment variable the key is read from unless another is named.
const DefaultKeyEnv = "OPENAI_API_KEY"

// Defaults of the zero Config fields.
const (
	DefaultTimeout     = 120 * time.Second
	DefaultMaxRetries  = 5
	DefaultBackoffBase = 500 * time.Millisecond
	DefaultBackoffMax  = 30 * time.Second
	DefaultConcurrency = 4
	// DefaultMaxRetryAfter caps a server's Retry-After, so a hostile or confused server cannot
	// park a run for hours.
	DefaultMaxRetryAfter = 120 * time.Second
	// DefaultMaxReplyBytes bounds one HTTP response body (a reply, a stream, an error page): a
	// server whose answer never ends cannot grow memory past it.
	DefaultMaxReplyBytes = 4 << 20
)

// Config is an endpoint and the sampling settings of every request.
type Config struct {
	// BaseURL is the API root; "/chat/completions" is appended. Default DefaultBaseURL.
	BaseURL string
	Model   string
	// APIKey is the key itself, sent as a bearer token and never written anywhere. Empty is
	// fine for local servers. See KeyFromEnv.
	APIKey string
	// Temperature nil leaves the server's default.
	Temperature *float64
	// Seed nil sends no seed. Generators offset it per sample (see Request.Seed).
	Seed *int
	// MaxTokens bounds a reply's length; 0 leaves the server's default.
	MaxTokens int
	// Timeout bounds one attempt (connection to last byte); default DefaultTimeout.
	Timeout time.Duration
	// MaxRetries is the number of retries after the first attempt (default DefaultMaxRetries;
	// negative means none).
	MaxRetries int
	// BackoffBase and BackoffMax shape the exponential backoff: attempt n waits a uniformly
	// random time in [0, min(BackoffMax, BackoffBase·2^n)] ("full jitter").
	BackoffBase, BackoffMax time.Duration
	// MaxRetryAfter caps a server's Retry-After (default DefaultMaxRetryAfter).
	MaxRetryAfter time.Duration
	// Concurrency is the number of requests in flight at once (default DefaultConcurrency).
	Concurrency int
	// CacheDir holds the response cache; empty disables it (Offline then always fails).
	CacheDir string
	// Offline answers from the cache only and fails on a miss.
	Offline bool
	// Price converts tokens to money in the usage log; zero prices log a cost of 0.
	Price Price
	// UsageLog receives one JSON line per request (see UsageRecord) unless the context
	// carries its own (WithUsageLog). Nil logs nothing.
	UsageLog io.Writer
	// AllowInsecure accepts a plain http:// base URL on a host other than the loopback, where the
	// bearer key would travel in clear. Loopback http (a local server) is always accepted.
	AllowInsecure bool
	// ReaskInvalid tells the LLM generator to ask again, past the cache, when a cached reply
	// fails validation; the new answer replaces the cached one. Not part of Settings: it
	// changes where answers come from, not what is asked.
	ReaskInvalid bool
	// RefreshKeys are cache keys (Response.Key, ReplyEvent.Key) to ask the server for again,
	// past the cache, replacing the cached answers: the GUI's "Ask again" for the replies of a
	// batch that came from the cache. Like ReaskInvalid it is not part of Settings, and it
	// fails offline. Read-only once the client is made.
	RefreshKeys map[string]bool
	// MaxReplyBytes bounds each HTTP response body (default DefaultMaxReplyBytes); a longer one
	// fails the request with ErrReplyTooLarge, which is not retried.
	MaxReplyBytes int64
	// HTTPClient replaces the default transport (tests, proxies). Its Timeout is ignored:
	// Timeout bounds each attempt.
	HTTPClient *http.Client
}

// Price is the cost of a million tokens, in whatever currency the user thinks in (USD for
// OpenAI's price list).
type Price struct {
	InputPerMillion  float64 `json:"input_per_million,omitempty"`
	OutputPerMillion float64 `json:"output_per_million,omitempty"`
}

// Cost of a request's tokens.
func (p Price) Cost(u Usage) float64 {
	return (float64(u.PromptTokens)*p.InputPerMillion + float64(u.CompletionTokens)*p.OutputPerMillion) / 1e6
}

// KeyFromEnv reads the API key from the named environment variable (DefaultKeyEnv when name
// is empty). A missing variable gives "", which local servers accept.
func KeyFromEnv(name string) string {
	if name == "" {
		name = DefaultKeyEnv
	}
	return os.Getenv(name)
}

// Check reports what New would refuse in c (a bad base URL, plain http to another machine
// without AllowInsecure, an out-of-range setting) without making a client.
func (c Config) Check() error {
	_, err := c.withDefaults()
	return err
}

// withDefaults fills zero fields and checks the rest.
func (c Config) withDefaults() (Config, error) {
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("base URL %q is not an http(s) URL such as http://127.0.0.1:8080/v1", c.BaseURL)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		// The base URL is recorded in run folders and cache entries: it must not carry a key.
		return c, errors.New("the base URL must be a plain http(s) URL without credentials, query or fragment; pass the key separately")
	}
	if u.Scheme == "http" && !c.AllowInsecure && !loopbackHost(u.Hostname()) {
		return c, fmt.Errorf("base URL %q: plain http to a host other than this machine would send the API key in clear; use https, or allow it explicitly (--allow-insecure)", c.BaseURL)
	}
	if c.Model == "" {
		return c, errors.New("no model given")
	}
	if c.Temperature != nil && (*c.Temperature < 0 || *c.Temperature > 2) {
		return c, fmt.Errorf("temperature must be in [0, 2], got %v", *c.Temperature)
	}
	if c.MaxTokens < 0 {
		return c, fmt.Errorf("max tokens must be >= 0, got %d", c.MaxTokens)
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = 0
	}
	if c.BackoffBase <= 0 {
		c.BackoffBase = DefaultBackoffBase
	}
	if c.BackoffMax <= 0 {
		c.BackoffMax = DefaultBackoffMax
	}
	if c.MaxRetryAfter <= 0 {
		c.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if c.MaxReplyBytes < 0 {
		return c, fmt.Errorf("the reply size limit must be >= 0, got %d", c.MaxReplyBytes)
	}
	if c.MaxReplyBytes == 0 {
		c.MaxReplyBytes = DefaultMaxReplyBytes
	}
	if c.Concurrency <= 0 {
		c.Concurrency = DefaultConcurrency
	}
	return c, nil
}

// loopbackHost tells the names and addresses of this machine: localhost, 127.0.0.0/8, ::1,
// and a NAME.localhost only when it resolves, and only to loopback addresses (a resolver may
// answer such a name with another machine, which would then receive the key in clear).
func loopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.IsLoopback()
	}
	if !strings.HasSuffix(strings.ToLower(h), ".localhost") {
		return false
	}
	ips, err := lookupIP(h)
	if err != nil || len(ips) == 0 {
		return false
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return false
		}
	}
	return true
}

// lookupIP resolves a host name (a variable for tests).
var lookupIP = net.LookupIP

// Settings is the part of a Config that describes results: what a run folder records. It has
// no field for the key, so the key cannot end up in a file by accident.
type Settings struct {
	BaseURL     string   `json:"base_url"`
	Model       string   `json:"model"`
	Temperature *float64 `json:"temperature,omitempty"`
	Seed        *int     `json:"seed,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	Price       Price    `json:"price,omitzero"`
}

// Settings returns the recordable settings.
func (c Config) Settings() Settings {
	return Settings{BaseURL: strings.TrimRight(c.BaseURL, "/"), Model: c.Model, Temperature: c.Temperature,
		Seed: c.Seed, MaxTokens: c.MaxTokens, Price: c.Price}
}

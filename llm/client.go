package llm

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Roles of chat messages.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one turn of a conversation.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one chat completion to ask.
type Request struct {
	Messages []Message
	// Sample tells apart repeated draws of the same conversation (the n-th level asked with the
	// same prompt): it is part of the cache key but not sent.
	Sample int
	// Seed, when set, replaces Config.Seed for this request.
	Seed *int
	// NoCache asks the server even when the cache has the answer, and stores nothing (the
	// endpoint test). It fails in offline mode.
	NoCache bool
	// Refresh asks the server even when the cache has the answer, and replaces the cached
	// answer with the new one (asking again for a cached reply that failed validation). It
	// fails in offline mode.
	Refresh bool
}

// Response is a completed reply.
type Response struct {
	Content      string
	FinishReason string
	// Model is the model the server says answered.
	Model string
	Usage Usage
	// Cached is set when the reply came from the cache.
	Cached bool
	// Attempts is the number of attempts made (0 for a cached reply).
	Attempts int
	// Key is the request's cache key.
	Key string
	// Seal vouches, with the response cache's own secret (Cache.sealKey), that this reply came
	// from the server or from a cache entry of one; empty without a cache or for an entry
	// refilled from a run folder. Exchanges carry it into replies.jsonl so that a later refill
	// can tell this machine's replies from a copied folder's (refillCache).
	Seal string
}

// StreamFunc receives a streamed reply as it arrives. attempt starts at 1; when it changes, a
// retry started over and what was received before must be discarded. A cached reply arrives
// as one delta with attempt 0.
type StreamFunc func(attempt int, delta string)

// Client asks an OpenAI-compatible endpoint; safe for concurrent use.
type Client struct {
	cfg   Config
	api   *openai.Client
	sem   chan struct{}
	cache *Cache
	log   *UsageLog
	// run is the absolute path of the run folder this client asks for (bindRun), nil outside
	// a run: entries refilled from a run folder are served only to that run.
	run atomic.Pointer[string]
	// sealKey is the cache's secret that seals replies (nil: no cache, or it could not be made).
	sealKey []byte
	// sleep waits between attempts; tests replace it to observe the delays.
	sleep func(ctx context.Context, d time.Duration) error
}

// New makes a client. It does not contact the server.
func New(cfg Config) (*Client, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if cfg.CacheDir != "" {
		cleanCacheTemps(cfg.CacheDir)
	}
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		cp := *cfg.HTTPClient
		hc = &cp
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = recordingTransport{base: base, limit: cfg.MaxReplyBytes}
	hc.CheckRedirect = redirectPolicy(hc.CheckRedirect)
	hc.Timeout = 0 // each attempt has its own deadline
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	oc.HTTPClient = hc
	c := &Client{cfg: cfg, api: openai.NewClientWithConfig(oc), sem: make(chan struct{}, cfg.Concurrency),
		log: NewUsageLog(cfg.UsageLog), sleep: sleepCtx}
	if cfg.CacheDir != "" {
		c.cache = &Cache{Dir: cfg.CacheDir}
		// Without the secret (a read-only or full cache) replies go unsealed and a refill
		// keeps them to their own run: safe, only less shared.
		c.sealKey, _ = c.cache.sealKey()
	}
	return c, nil
}

// seal is the HMAC-SHA256, under the cache's secret, of a reply to the request key with its
// token counts; "" without a secret.
func (c *Client) seal(key, content string, u Usage) string {
	if len(c.sealKey) == 0 {
		return ""
	}
	m := hmac.New(sha256.New, c.sealKey)
	fmt.Fprintf(m, "%s\x00%d\x00%d\x00%d\x00", key, u.PromptTokens, u.CompletionTokens, u.TotalTokens)
	io.WriteString(m, content)
	return hex.EncodeToString(m.Sum(nil))
}

// sealed reports whether seal is this cache's seal of the reply.
func (c *Client) sealed(key, content string, u Usage, seal string) bool {
	want := c.seal(key, content, u)
	return want != "" && hmac.Equal([]byte(want), []byte(seal))
}

// bindRun tells the client which run folder it asks for, so that the entries refilled from
// that folder's replies.jsonl (and only those) are served to it.
func (c *Client) bindRun(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	c.run.Store(&abs)
	return nil
}

// mayServe reports whether a cached entry may answer this client: every reply received from
// a server may; one refilled from a run folder only to that run.
func (c *Client) mayServe(e *CacheEntry) bool {
	if e.RefilledFrom == "" {
		return true
	}
	run := c.run.Load()
	return run != nil && *run == e.RefilledFrom
}

// Settings are the recordable settings (no key).
func (c *Client) Settings() Settings { return c.cfg.Settings() }

// Offline reports whether the client answers only from its cache.
func (c *Client) Offline() bool { return c.cfg.Offline }

// Totals sum every request made through this client.
func (c *Client) Totals() Totals { return c.log.Totals() }

// Chat asks for one reply.
func (c *Client) Chat(ctx context.Context, req Request) (*Response, error) {
	return c.do(ctx, req, nil)
}

// ChatStream asks for one reply and passes it to fn as it arrives. The returned Response holds
// the whole reply.
func (c *Client) ChatStream(ctx context.Context, req Request, fn StreamFunc) (*Response, error) {
	if fn == nil {
		fn = func(int, string) {}
	}
	return c.do(ctx, req, fn)
}

// Test sends a tiny request past the cache: the GUI's Test button.
func (c *Client) Test(ctx context.Context) (*Response, error) {
	return c.Chat(ctx, Request{NoCache: true, Messages: []Message{{Role: RoleUser, Content: "Reply with the single word OK."}}})
}

// RequestError is a request that failed for good: a non-retryable error, or the retries ran
// out. Its message never contains the API key.
type RequestError struct {
	Attempts int
	Key      string
	Err      error
	msg      string
}

func (e *RequestError) Error() string { return e.msg }
func (e *RequestError) Unwrap() error { return e.Err }

var (
	errEmptyChoices = errors.New("the server returned no choices")
	errTruncated    = errors.New("the stream ended before the reply was complete (no finish reason, no [DONE])")
	errNoMessages   = errors.New("a request needs at least one message")
)

// errNoContent is a choice without text ("content": null, or ""): a failed request, retried,
// never an empty answer that would be scored as one.
var errNoContent = errors.New(`the server's reply has no content ("content": null)`)

func (c *Client) canonical(req Request) canonicalRequest {
	seed := c.cfg.Seed
	if req.Seed != nil {
		seed = req.Seed
	}
	return canonicalRequest{BaseURL: c.cfg.BaseURL, Model: c.cfg.Model, Messages: req.Messages,
		Temperature: c.cfg.Temperature, Seed: seed, MaxTokens: c.cfg.MaxTokens, Sample: req.Sample}
}

func (c *Client) do(ctx context.Context, req Request, fn StreamFunc) (*Response, error) {
	if len(req.Messages) == 0 {
		return nil, errNoMessages
	}
	canon := c.canonical(req)
	key := canon.key()
	start := time.Now()
	rec := UsageRecord{Time: start.UTC(), Model: c.cfg.Model, Key: key}
	rec.Tag, _ = ctx.Value(tagKey{}).(string)
	logs := []*UsageLog{c.log}
	if l, ok := ctx.Value(usageLogKey{}).(*UsageLog); ok && l != nil {
		logs = append(logs, l)
	}
	finish := func() {
		rec.LatencyMs = float64(time.Since(start).Microseconds()) / 1000
		for _, l := range logs {
			l.Add(rec)
		}
	}
	var damaged error
	if c.cfg.RefreshKeys[key] {
		req.Refresh = true // asked again on purpose: the new answer replaces the cached one
	}
	if c.cache != nil && !req.NoCache && !req.Refresh {
		e, err := c.cache.Get(key)
		if e != nil && !c.mayServe(e) {
			e = nil // another run's refilled entry: asked afresh, and the real reply replaces it
		}
		if e != nil {
			// Redacted again: a cache written before replies were redacted may hold the key.
			resp := &Response{Content: c.redact(e.Response.Content), FinishReason: e.Response.FinishReason, Model: c.redact(e.Response.Model),
				Usage: e.Response.Usage, Cached: true, Key: key}
			if e.RefilledFrom == "" {
				resp.Seal = c.seal(key, resp.Content, resp.Usage)
			}
			if fn != nil {
				fn(0, resp.Content)
			}
			rec.Cached, rec.Usage = true, resp.Usage
			finish()
			return resp, nil
		}
		damaged = err
	}
	if c.cfg.Offline {
		var err error
		switch {
		case req.Refresh:
			err = fmt.Errorf("%w: asking again past the cache (--reask-invalid, Ask again) needs the network", ErrOfflineMiss)
		case damaged != nil:
			err = fmt.Errorf("%w: %s", ErrOfflineMiss, c.redact(damaged.Error()))
		case c.cache == nil:
			err = fmt.Errorf("%w: no cache folder is set", ErrOfflineMiss)
		default:
			err = fmt.Errorf("%w (request %s, cache %s): run once online to record it", ErrOfflineMiss, key[:12], c.cache.Dir)
		}
		rec.Error = err.Error()
		finish()
		return nil, err
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.sem }()
	for attempt := 1; ; attempt++ {
		rec.Attempts = attempt
		resp, ex, err := c.attempt(ctx, canon, fn, attempt)
		if err == nil {
			// A server that echoes the key in a successful reply must not get it into the
			// cache, replies.jsonl or the run folder: the reply is redacted before anything
			// keeps it.
			resp.Content, resp.Model, resp.FinishReason = c.redact(resp.Content), c.redact(resp.Model), c.redact(resp.FinishReason)
			resp.Attempts, resp.Key = attempt, key
			resp.Seal = c.seal(key, resp.Content, resp.Usage)
			rec.Usage = resp.Usage
			rec.Cost = c.cfg.Price.Cost(resp.Usage)
			if c.cache != nil && !req.NoCache {
				entry := &CacheEntry{Key: key, Created: time.Now().UTC(), Request: canon, Response: cachedResponse{
					Content: resp.Content, FinishReason: resp.FinishReason, Model: resp.Model, Usage: resp.Usage}}
				if err := c.cache.Put(entry); err != nil {
					// The reply is good; losing its cache copy only costs a later replay.
					rec.Error = c.redact("cache write failed: " + err.Error())
				}
			}
			finish()
			return resp, nil
		}
		if ctx.Err() != nil {
			rec.Error = ctx.Err().Error()
			finish()
			return nil, ctx.Err()
		}
		if !retryable(err) || attempt > c.cfg.MaxRetries {
			msg := fmt.Sprintf("%s: request failed after %d attempt(s): %v", c.cfg.Model, attempt, err)
			if !retryable(err) {
				msg = fmt.Sprintf("%s: request failed: %v", c.cfg.Model, err)
			}
			rerr := &RequestError{Attempts: attempt, Key: key, Err: err, msg: c.redact(msg)}
			rec.Error = rerr.msg
			finish()
			return nil, rerr
		}
		delay := c.backoff(attempt)
		if d, ok := ex.retryDelay(); ok {
			delay = min(d, c.cfg.MaxRetryAfter)
		}
		if err := c.sleep(ctx, delay); err != nil {
			rec.Error = err.Error()
			finish()
			return nil, err
		}
	}
}

// backoff is "full jitter": uniform in [0, min(max, base·2^(attempt-1))].
func (c *Client) backoff(attempt int) time.Duration {
	ceil := float64(c.cfg.BackoffBase) * math.Pow(2, float64(attempt-1))
	ceil = math.Min(ceil, float64(c.cfg.BackoffMax))
	if ceil < 1 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(ceil) + 1))
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// redactedText replaces the API key wherever it appears in what the client keeps or shows.
const redactedText = "[redacted]"

// redactedKey is the key redact replaces ("" when it is too short to tell from text).
func (c *Client) redactedKey() string {
	if k := c.cfg.APIKey; len(k) >= 4 {
		return k
	}
	return ""
}

func (c *Client) redact(s string) string {
	if k := c.redactedKey(); k != "" {
		s = strings.ReplaceAll(s, k, redactedText)
	}
	return s
}

// streamRedactor passes a streamed reply on with every occurrence of key replaced, whatever
// the pieces it arrives in: the longest tail that could be the start of the key is held back
// until the next piece (or flush, at the end of a complete reply) tells. What a failed attempt
// held back is never passed on.
type streamRedactor struct {
	key  string
	held string
	out  func(string)
}

func (r *streamRedactor) write(d string) {
	if r.key == "" {
		r.out(d)
		return
	}
	s := strings.ReplaceAll(r.held+d, r.key, redactedText)
	h := 0
	for n := min(len(r.key)-1, len(s)); n > 0; n-- {
		if strings.HasSuffix(s, r.key[:n]) {
			h = n
			break
		}
	}
	r.held = s[len(s)-h:]
	if out := s[:len(s)-h]; out != "" {
		r.out(out)
	}
}

func (r *streamRedactor) flush() {
	if r.held != "" {
		r.out(r.held)
		r.held = ""
	}
}

// reasoningModel tells OpenAI's reasoning models, which refuse max_tokens.
func reasoningModel(m string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

func (c *Client) openaiRequest(canon canonicalRequest, stream bool) openai.ChatCompletionRequest {
	r := openai.ChatCompletionRequest{Model: canon.Model, Seed: canon.Seed, Stream: stream}
	for _, m := range canon.Messages {
		r.Messages = append(r.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
	}
	if t := canon.Temperature; t != nil {
		v := float32(*t)
		if v == 0 {
			// go-openai omits a zero temperature (omitempty), which would leave the server's
			// default (often 1); the smallest positive float is greedy decoding in practice.
			v = math.SmallestNonzeroFloat32
		}
		r.Temperature = v
	}
	if canon.MaxTokens > 0 {
		if reasoningModel(canon.Model) {
			r.MaxCompletionTokens = canon.MaxTokens
		} else {
			r.MaxTokens = canon.MaxTokens
		}
	}
	if stream {
		r.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	}
	return r
}

// attempt makes one HTTP exchange under its own deadline.
func (c *Client) attempt(ctx context.Context, canon canonicalRequest, fn StreamFunc, n int) (*Response, *exchange, error) {
	ex := &exchange{}
	actx, cancel := context.WithTimeout(withExchange(ctx, ex), c.cfg.Timeout)
	defer cancel()
	if fn == nil {
		r, err := c.api.CreateChatCompletion(actx, c.openaiRequest(canon, false))
		if err != nil {
			return nil, ex, err
		}
		if len(r.Choices) == 0 {
			return nil, ex, errEmptyChoices
		}
		ch := r.Choices[0]
		if ch.Message.Content == "" {
			return nil, ex, errNoContent
		}
		return &Response{Content: ch.Message.Content, FinishReason: string(ch.FinishReason), Model: r.Model,
			Usage: Usage{r.Usage.PromptTokens, r.Usage.CompletionTokens, r.Usage.TotalTokens}}, ex, nil
	}
	stream, err := c.api.CreateChatCompletionStream(actx, c.openaiRequest(canon, true))
	if err != nil {
		return nil, ex, err
	}
	defer stream.Close()
	resp := &Response{}
	var sb strings.Builder
	// What fn receives is redacted as it streams: a key echoed across several deltas is held
	// back until it is whole and replaced.
	red := &streamRedactor{key: c.redactedKey(), out: func(d string) { fn(n, d) }}
	sawChoice := false
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, ex, err
		}
		if chunk.Usage != nil {
			resp.Usage = Usage{chunk.Usage.PromptTokens, chunk.Usage.CompletionTokens, chunk.Usage.TotalTokens}
		}
		if chunk.Model != "" {
			resp.Model = chunk.Model
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue
			}
			sawChoice = true
			if d := ch.Delta.Content; d != "" {
				sb.WriteString(d)
				red.write(d)
			}
			if ch.FinishReason != "" {
				resp.FinishReason = string(ch.FinishReason)
			}
		}
	}
	if resp.FinishReason == "" && !ex.done() {
		return nil, ex, errTruncated
	}
	if !sawChoice {
		return nil, ex, errEmptyChoices
	}
	resp.Content = sb.String()
	if resp.Content == "" {
		return nil, ex, errNoContent
	}
	red.flush()
	return resp, ex, nil
}

// retryable tells transient failures (worth another attempt) from permanent ones (a bad key,
// an unknown model, a malformed request).
func retryable(err error) bool {
	if errors.Is(err, ErrReplyTooLarge) {
		return false // asking again would buy the same oversized answer
	}
	if errors.Is(err, errEmptyChoices) || errors.Is(err, errTruncated) || errors.Is(err, errNoContent) {
		return true
	}
	status := -1
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		status = apiErr.HTTPStatusCode
	case errors.As(err, &reqErr):
		status = reqErr.HTTPStatusCode
	}
	if status >= 0 {
		// Status 0 is an error event inside a stream: treated as transient, within the bound.
		return status == 0 || status == http.StatusRequestTimeout || status == http.StatusConflict ||
			status == http.StatusTooEarly || status == http.StatusTooManyRequests || status >= 500
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) {
		return true // a 200 whose body is not the JSON it should be: a broken proxy or server
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var netErr net.Error
	var urlErr *url.Error
	return errors.As(err, &netErr) || errors.As(err, &urlErr)
}

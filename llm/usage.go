package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"time"

	"pcgwb/internal/safeio"
)

// Usage counts a reply's tokens as the server reported them.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func (u Usage) add(o Usage) Usage {
	return Usage{u.PromptTokens + o.PromptTokens, u.CompletionTokens + o.CompletionTokens, u.TotalTokens + o.TotalTokens}
}

// UsageRecord is one line of a usage log: one request, answered from the cache or by the
// server after Attempts attempts, or failed.
type UsageRecord struct {
	Time  time.Time `json:"time"`
	Model string    `json:"model"`
	// Key is the request's cache key, which ties the line to the cached exchange.
	Key    string `json:"key"`
	Tag    string `json:"tag,omitempty"`
	Cached bool   `json:"cached"`
	Usage
	// Cost is 0 for cached answers: nothing was paid for them this time.
	Cost      float64 `json:"cost"`
	Attempts  int     `json:"attempts"`
	LatencyMs float64 `json:"latency_ms"`
	Error     string  `json:"error,omitempty"`
}

// Totals sum a client's requests since it was made.
type Totals struct {
	Requests  int     `json:"requests"`
	CacheHits int     `json:"cache_hits"`
	Attempts  int     `json:"attempts"`
	Retries   int     `json:"retries"`
	Failures  int     `json:"failures"`
	Usage     Usage   `json:"usage"`
	Cost      float64 `json:"cost"`
}

func (t *Totals) add(r UsageRecord) {
	t.Requests++
	if r.Cached {
		t.CacheHits++
	}
	t.Attempts += r.Attempts
	if r.Attempts > 1 {
		t.Retries += r.Attempts - 1
	}
	if r.Error != "" {
		t.Failures++
	}
	t.Usage = t.Usage.add(r.Usage)
	t.Cost += r.Cost
}

// UsageLog writes UsageRecords as JSON lines and sums them; safe for concurrent use.
type UsageLog struct {
	// mu guards totals; held while a line is written too, so the lines are in the order the
	// records were summed.
	mu     sync.Mutex
	totals Totals
	lines  jsonLines
}

// NewUsageLog logs to w (nil: only sums).
func NewUsageLog(w io.Writer) *UsageLog { return &UsageLog{lines: jsonLines{w: w}} }

// Add records one request. A write error is kept (see Err) rather than failing the request
// whose reply is already in hand.
func (l *UsageLog) Add(r UsageRecord) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.totals.add(r)
	l.lines.write(r)
}

// Totals returns the sums so far.
func (l *UsageLog) Totals() Totals {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.totals
}

// Err is the first write error.
func (l *UsageLog) Err() error { return l.lines.Err() }

type usageLogKey struct{}

// WithUsageLog makes requests under ctx log to l as well as to the client's own log, so one
// client can serve several runs that each keep their own usage file.
func WithUsageLog(ctx context.Context, l *UsageLog) context.Context {
	return context.WithValue(ctx, usageLogKey{}, l)
}

type tagKey struct{}

// WithTag labels the usage records of requests under ctx (for example "item 3").
func WithTag(ctx context.Context, tag string) context.Context {
	return context.WithValue(ctx, tagKey{}, tag)
}

// ReadUsage sums a usage log (usage.jsonl) over every session that appended to it. A damaged
// line is an error naming the file and line; a torn last line (a writer killed in the middle
// of it) is left out.
func ReadUsage(path string) (Totals, error) {
	var t Totals
	data, err := safeio.Read(path, safeio.Options{Limit: 1 << 30, NoSymlink: true})
	if errors.Is(err, fs.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return t, err
	}
	for line := 1; len(data) > 0; line++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		var r UsageRecord
		if err := json.Unmarshal(data[:i], &r); err != nil {
			return t, fmt.Errorf("%s: line %d: not a usage record (%v): %s", path, line, err, safeio.Excerpt(data[:i]))
		}
		if r.PromptTokens < 0 || r.CompletionTokens < 0 || r.TotalTokens < 0 || r.Cost < 0 || r.Attempts < 0 {
			return t, fmt.Errorf("%s: line %d: negative tokens, cost or attempts", path, line)
		}
		t.add(r)
		data = data[i+1:]
	}
	return t, nil
}

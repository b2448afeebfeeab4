package llm

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
)

// canonicalRequest is everything that determines a reply, and so the cache key: the endpoint,
// the model, the conversation and the sampling settings. The key is deliberately absent.
type canonicalRequest struct {
	BaseURL     string    `json:"base_url"`
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"`
	Seed        *int      `json:"seed,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	// Sample tells apart repeated draws of the same request (the n-th level asked with the same
	// prompt); it is not sent to the server.
	Sample int `json:"sample"`
}

// key is the hex SHA-256 of the request's canonical JSON (struct field order, no
// insignificant whitespace).
func (r canonicalRequest) key() string {
	b, err := json.Marshal(r)
	if err != nil {
		// Only strings, ints and floats: cannot fail.
		panic(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// CacheEntry is one cached exchange as stored on disk.
type CacheEntry struct {
	Key      string           `json:"key"`
	Created  time.Time        `json:"created"`
	Request  canonicalRequest `json:"request"`
	Response cachedResponse   `json:"response"`
	// RefilledFrom is the run folder (absolute path) whose replies.jsonl an entry was rebuilt
	// from (refillCache), empty for a reply received from the server. A run folder is
	// untrusted input and its replies.jsonl cannot prove that the server said what it records,
	// so such an entry is served only to that run's own sessions (Client.bindRun): a folder
	// from elsewhere cannot plant answers for other runs sharing the cache.
	RefilledFrom string `json:"refilled_from,omitempty"`
}

type cachedResponse struct {
	Content      string `json:"content"`
	FinishReason string `json:"finish_reason,omitempty"`
	Model        string `json:"model,omitempty"`
	Usage        Usage  `json:"usage"`
}

// Cache is a folder of cached exchanges, one JSON file per request at KEY[:2]/KEY.json. Writes
// are atomic, so concurrent runs sharing a cache never see half an entry; two runs asking the
// same request at once both ask the server and the last write wins, with equivalent content.
type Cache struct{ Dir string }

// ErrOfflineMiss is returned (wrapped) when Offline is set and the cache lacks a request.
var ErrOfflineMiss = errors.New("offline: the response is not in the cache")

func (c Cache) path(key string) string { return filepath.Join(c.Dir, key[:2], key+".json") }

// Get returns the entry for key. A missing or unreadable entry is a miss; an unreadable one
// also returns the reason, so a damaged cache does not pass silently.
func (c Cache) Get(key string) (*CacheEntry, error) {
	data, err := safeio.ReadFile(c.path(key), cacheEntryLimit)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	return decodeCacheEntry(c.path(key), key, data)
}

// cacheEntryLimit bounds a cache entry read back (a reply is far smaller).
const cacheEntryLimit = 64 << 20

// decodeCacheEntry checks a cache entry before it is replayed: it must be the entry of key,
// with non-negative token counts.
func decodeCacheEntry(path, key string, data []byte) (*CacheEntry, error) {
	var e CacheEntry
	field := ""
	switch err := json.Unmarshal(data, &e); {
	case err != nil:
		field = "not valid JSON: " + err.Error()
	case e.Key != key:
		field = fmt.Sprintf("key: %s, not the request's %s", safeio.ExcerptString(e.Key), key)
	case e.Response.Usage.PromptTokens < 0 || e.Response.Usage.CompletionTokens < 0 || e.Response.Usage.TotalTokens < 0:
		field = "response.usage: negative token count"
	default:
		return &e, nil
	}
	return nil, fmt.Errorf("cache entry %s is damaged (%s); delete it to ask again", path, field)
}

// Put stores an entry atomically.
func (c Cache) Put(e *CacheEntry) error {
	p := c.path(e.Key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(e, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.Write(p, append(data, '\n'), 0o644)
}

// staleCacheTemp is how old a temporary file in the cache must be to be a killed writer's
// leftover: a live Put keeps its temporary file for milliseconds.
const staleCacheTemp = 10 * time.Minute

// cleanCacheTemps removes the temporary files writers killed in the middle of a Put left in
// the cache's folders. The cache is shared without a lock, so only old ones are taken.
func cleanCacheTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	atomicfile.CleanStale(dir, staleCacheTemp)
	for _, e := range entries {
		if e.IsDir() && len(e.Name()) == 2 {
			atomicfile.CleanStale(filepath.Join(dir, e.Name()), staleCacheTemp)
		}
	}
}

// sealFile, in a cache folder, holds the cache's secret: 32 random bytes that seal the replies
// its sessions receive (Client.seal), so a refill trusts only replies this cache's sessions
// recorded. It is no credential: it proves nothing to a server, only to this cache.
const sealFile = ".seal-key"

// sealKey returns the cache's secret, making it the first time (readable by the owner only).
func (c Cache) sealKey() ([]byte, error) {
	p := filepath.Join(c.Dir, sealFile)
	if b, err := safeio.ReadFile(p, 64); err == nil && len(b) == 32 {
		return b, nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, err
	}
	// Exclusive create: of two sessions making it at once, one wins and both read its key.
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			if b, err := safeio.ReadFile(p, 64); err == nil && len(b) == 32 {
				return b, nil
			}
		}
		return nil, err
	}
	_, werr := f.Write(key)
	if err := f.Sync(); werr == nil {
		werr = err
	}
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr != nil {
		os.Remove(p)
		return nil, werr
	}
	return key, nil
}

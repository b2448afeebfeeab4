package llm

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"pcgwb/internal/safeio"
	"pcgwb/problems/experiment"
)

// CacheFile, in an LLM run folder, records the response cache the run's last session asked
// through, so `run --resume` replays what the run received without being told the cache again.
// It is not part of config.json: the cache changes where answers come from, not what is asked,
// and a run folder moved to another machine is the same run.
const CacheFile = "cache.json"

// cacheRecord is CacheFile: the cache folder, relative to the run folder when it is inside it
// (so the folder can move), else absolute; "" when the run asked without a cache.
type cacheRecord struct {
	Cache string `json:"cache"`
}

// recordCache writes CacheFile for the session's client.
func recordCache(f *experiment.Folder, c *Client) error {
	rec := cacheRecord{}
	if dir := c.cfg.CacheDir; dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		rec.Cache = abs
		if run, err := filepath.Abs(f.Dir()); err == nil {
			if rel, err := filepath.Rel(run, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				rec.Cache = rel
			}
		}
	}
	data, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return err
	}
	return f.WriteFile(CacheFile, append(data, '\n'))
}

// RecordedCache is the response cache the run in dir last asked through (CacheFile): ok is
// false when the run recorded none (a run made before the record existed); cache is "" when
// the run asked without a cache.
func RecordedCache(dir string) (cache string, ok bool, err error) {
	path := filepath.Join(dir, CacheFile)
	data, err := safeio.ReadFile(path, 1<<16)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	var rec cacheRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return "", false, fmt.Errorf("%s: %w", path, err)
	}
	if rec.Cache != "" && !filepath.IsAbs(rec.Cache) {
		rec.Cache = filepath.Join(dir, rec.Cache)
	}
	return rec.Cache, true, nil
}

// maxRepliesLog bounds the replies.jsonl a refill reads.
const maxRepliesLog = 1 << 30

// refillCache writes into c's cache the replies the run folder dir received (its replies.jsonl)
// that the cache lacks: a cache write that failed during a session (a full disk) is made good by
// the next session, so an --offline replay finds every reply. Each exchange's request is rebuilt
// from the conversation (the opening prompt, then each reply and re-ask) and written only when
// its cache key is the recorded one. It returns how many replies are still missing from the
// cache and the first reason. The refilled entry has the reply, its token counts and the
// request; the server's model name and finish reason are not in replies.jsonl and stay empty
// (a replay does not use them).
func refillCache(dir string, c *Client) (missing int, first error) {
	if c == nil || c.cache == nil {
		return 0, nil
	}
	f, err := safeio.Open(filepath.Join(dir, RepliesFile), safeio.Options{Limit: maxRepliesLog, NoSymlink: true})
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	type conv struct{ generation, item, sample int }
	sofar := map[conv][]Message{}
	r := bufio.NewReader(f)
	for {
		line, rerr := r.ReadBytes('\n')
		var ex Exchange
		if len(line) > 0 && json.Unmarshal(line, &ex) == nil {
			k := conv{ex.Generation, ex.Item, ex.Sample}
			msgs := append([]Message(nil), ex.Sent...)
			if ex.Turn > 0 {
				msgs = append(append([]Message(nil), sofar[k]...), ex.Sent...)
			}
			if ex.Key != "" {
				if err := refillEntry(c, msgs, ex); err != nil {
					missing++
					if first == nil {
						first = err
					}
				}
				msgs = append(msgs, Message{Role: RoleAssistant, Content: ex.Reply})
			}
			sofar[k] = msgs
		}
		if rerr != nil {
			break // io.EOF, or a torn last line
		}
	}
	return missing, first
}

// refillEntry writes the cache entry of one exchange whose request was msgs, unless the cache
// has it.
func refillEntry(c *Client, msgs []Message, ex Exchange) error {
	if e, _ := c.cache.Get(ex.Key); e != nil {
		return nil
	}
	canon := c.canonical(Request{Messages: msgs, Sample: ex.Sample, Seed: sampleSeed(c, ex.Sample)})
	if canon.key() != ex.Key {
		return fmt.Errorf("entry %s missing (its request could not be rebuilt from %s)", c.cache.path(ex.Key), RepliesFile)
	}
	return c.cache.Put(&CacheEntry{Key: ex.Key, Created: time.Now().UTC(), Request: canon,
		Response: cachedResponse{Content: ex.Reply, Usage: ex.Usage}})
}

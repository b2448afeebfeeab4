package llm

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
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

// recordCache writes CacheFile for the session's client and binds the client to the run
// folder (the refilled entries it may be served).
func recordCache(f *experiment.Folder, c *Client) error {
	if err := c.bindRun(f.Dir()); err != nil {
		return err
	}
	rec := cacheRecord{}
	if dir := c.cfg.CacheDir; dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		rec.Cache = abs
		if run, err := filepath.Abs(f.Dir()); err == nil && within(run, abs) {
			if rel, err := filepath.Rel(run, abs); err == nil {
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

// ResumeCache is the response cache a resumed run in dir asks through when the user names
// none: the one it recorded (CacheFile) when that is inside dir, one of trusted (the caches
// this machine's workbench uses: def, the window's) or a folder that is already a response
// cache (it holds a cache's secret, sealFile); for a run that recorded none, the first of
// fallbacks that is a folder, else def. A run folder is untrusted input: a cache.json naming
// any other folder is refused, since the session would write cache entries there — outside
// the folder the user gave.
func ResumeCache(dir, def string, fallbacks []string, trusted ...string) (string, error) {
	cache, ok, err := RecordedCache(dir)
	if err != nil {
		return "", err
	}
	if !ok {
		for _, d := range fallbacks {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				return d, nil
			}
		}
		return def, nil
	}
	if cache == "" || (within(dir, cache) && !linkedOut(dir, cache)) {
		return cache, nil
	}
	for _, t := range append([]string{def}, trusted...) {
		if t != "" && samePath(t, cache) {
			return cache, nil
		}
	}
	if isResponseCache(cache) {
		return cache, nil
	}
	return "", fmt.Errorf("%s names the response cache %s, outside the run folder and not an existing cache of this workbench: a run folder cannot choose where its session writes; pass --cache %s to use it anyway, or --cache DIR for another",
		filepath.Join(dir, CacheFile), safeio.ExcerptString(cache), safeio.ExcerptString(cache))
}

// isResponseCache reports whether dir is a folder (not a link) holding a cache's secret: a
// response cache some session of the workbench made.
func isResponseCache(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	fi, err = os.Lstat(filepath.Join(dir, sealFile))
	return err == nil && fi.Mode().IsRegular()
}

// within reports whether path is dir or inside it (lexically, after making both absolute).
func within(dir, path string) bool {
	d, err1 := filepath.Abs(dir)
	p, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// linkedOut reports whether path, inside dir by name, leads outside it through a symbolic
// link (cache.json naming DIR/sub where sub links elsewhere): the session's writes would go
// there. A path that does not exist yet is judged by its longest existing parent.
func linkedOut(dir, path string) bool {
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return true
	}
	p := path
	for {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return !within(realDir, real)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return true
		}
		p = parent
	}
}

// samePath reports whether a and b name the same folder (lexically).
func samePath(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
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
	if e, _ := c.cache.Get(ex.Key); e != nil && c.mayServe(e) {
		return nil
	}
	canon := c.canonical(Request{Messages: msgs, Sample: ex.Sample, Seed: sampleSeed(c, ex.Sample)})
	if canon.key() != ex.Key {
		return fmt.Errorf("entry %s missing (its request could not be rebuilt from %s)", c.cache.path(ex.Key), RepliesFile)
	}
	entry := &CacheEntry{Key: ex.Key, Created: time.Now().UTC(), Request: canon,
		Response: cachedResponse{Content: ex.Reply, Usage: ex.Usage}}
	if !c.sealed(ex.Key, ex.Reply, ex.Usage, ex.Seal) {
		// Not a reply this cache's sessions received (a folder copied from elsewhere, or
		// written without the secret): kept for this run's own replays only.
		run := c.run.Load()
		if run == nil {
			return fmt.Errorf("entry %s missing (the client is bound to no run folder)", c.cache.path(ex.Key))
		}
		entry.RefilledFrom = *run
	}
	return c.cache.Put(entry)
}

package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

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

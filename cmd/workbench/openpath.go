package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"pcgwb/games/play"
	"pcgwb/internal/safeio"
	"pcgwb/problems/experiment"
)

// maxOpenedLevelBytes bounds the level file `workbench FILE` reads to find its problem.
const maxOpenedLevelBytes = 16 << 20

// openPathArgs maps `workbench PATH` (what a desktop launcher passes for a file or folder) to
// the command line that opens it: a run folder or a folder of runs opens in the window
// (--open), a level file ({"problem": P, "items": …}) opens in the play window when its
// problem has one and in the window on its problem otherwise, and a Science Birds competition
// folder (TEAM/raw/…) opens in the window's Birds tab, which evaluates it (--birds-folder). ok
// is false when PATH does not exist (the caller then reports an unknown command).
func openPathArgs(path string) (args []string, ok bool, err error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	if fi.IsDir() {
		switch {
		case isRunFolder(path):
			return []string{"--open", path}, true, nil
		case anyChild(path, isRunFolder):
			return []string{"--open", path}, true, nil
		case anyChild(path, func(team string) bool { return isDir(filepath.Join(team, "raw")) }):
			return []string{"--tab", "birds", "--birds-folder", path}, true, nil
		}
		return nil, true, usagef("%s is neither a run folder, a folder of runs nor a competition folder (TEAM/raw/…)", excerptArg(path))
	}
	data, err := safeio.ReadFile(path, maxOpenedLevelBytes)
	if err != nil {
		return nil, true, err
	}
	var f struct {
		Problem string            `json:"problem"`
		Items   []json.RawMessage `json:"items"`
	}
	if json.Unmarshal(data, &f) != nil || f.Problem == "" || len(f.Items) == 0 {
		return nil, true, usagef("%s is not a level file (a JSON object with \"problem\" and \"items\", as `workbench sample` writes)", excerptArg(path))
	}
	if windowBuild && play.Playable(f.Problem) {
		return []string{"play", f.Problem, path}, true, nil
	}
	return []string{"--problem", f.Problem}, true, nil
}

func isRunFolder(dir string) bool {
	fi, err := os.Lstat(filepath.Join(dir, experiment.ConfigFile))
	return err == nil && fi.Mode().IsRegular()
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// anyChild reports whether some sub-folder of dir satisfies ok (the first 10,000 entries).
func anyChild(dir string, ok func(string) bool) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	entries, _ := f.ReadDir(10000)
	for _, e := range entries {
		if e.IsDir() && ok(filepath.Join(dir, e.Name())) {
			return true
		}
	}
	return false
}

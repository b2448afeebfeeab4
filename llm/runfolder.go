package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// The run-folder plumbing both LLM generators share: starting or continuing a folder with the
// one run loop, the exchange and usage logs, llm.json and the check of the client's settings.

// startFolder makes (or reopens, when it holds the same run) the run folder dir for cfg and
// continues it; a folder holding another run is an error wrapping ErrOtherRun that lists what
// differs.
func startFolder(dir string, cfg experiment.Config, cont func(*experiment.Run) (*experiment.Final, error)) (*experiment.Final, error) {
	changes, err := ConfigChanges(dir, cfg)
	if err != nil {
		return nil, err
	}
	if len(changes) > 0 {
		return nil, fmt.Errorf("%s: %w (%s); choose another folder", dir, ErrOtherRun, strings.Join(changes, "; "))
	}
	run, err := experiment.Create(dir, cfg)
	if err != nil {
		return nil, err
	}
	return cont(run)
}

// continueFolder runs run to its end with the one run loop, asking through c; the run's
// generator must be a G (what names it in the error), and prepare, when set, sees it first.
func continueFolder[G search.Generator](ctx context.Context, run *experiment.Run, c *Client, what string, prepare func(G), onEvent func(search.Event)) (*experiment.Final, error) {
	return run.ExecuteWith(ctx, experiment.Exec{OnEvent: onEvent, Runtime: c, Prepare: func(g search.Generator) error {
		lg, ok := g.(G)
		if !ok {
			return fmt.Errorf("%s: a %q run, not %s", run.Dir, g.Name(), what)
		}
		if prepare != nil {
			prepare(lg)
		}
		return nil
	}})
}

// openLogs opens a run folder's exchange and usage logs (append-only: a session continuing
// an interrupted run adds to what that one recorded).
func openLogs(f *experiment.Folder, log *jsonLines) (*UsageLog, error) {
	replies, err := f.Log(RepliesFile)
	if err != nil {
		return nil, err
	}
	usage, err := f.Log(UsageFile)
	if err != nil {
		return nil, err
	}
	log.w = replies
	return NewUsageLog(usage), nil
}

// closeLogs reports a write error of the run's logs and sums the requests, tokens and cost
// over every session's usage log, for llm.json.
func closeLogs(f *experiment.Folder, log *jsonLines, usage *UsageLog) (Totals, error) {
	if usage != nil {
		if err := usage.Err(); err != nil {
			return Totals{}, fmt.Errorf("%s: %w", filepath.Join(f.Dir(), UsageFile), err)
		}
	}
	if err := log.Err(); err != nil {
		return Totals{}, fmt.Errorf("%s: %w", filepath.Join(f.Dir(), RepliesFile), err)
	}
	return ReadUsage(filepath.Join(f.Dir(), UsageFile))
}

// writeSummary writes llm.json.
func writeSummary(f *experiment.Folder, sum any) error {
	data, err := json.MarshalIndent(sum, "", " ")
	if err != nil {
		return err
	}
	return f.WriteFile(SummaryFile, append(data, '\n'))
}

// checkSettings refuses a client whose recordable settings are not the run's recorded ones.
func checkSettings(c *Client, want Settings, who string) error {
	have, _ := json.Marshal(c.Settings())
	rec, _ := json.Marshal(want)
	if !bytes.Equal(have, rec) {
		return fmt.Errorf("%s: the client's settings %s are not the run's %s", who, have, rec)
	}
	return nil
}

package validate

import (
	"context"
	"encoding/json"
	"errors"
	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"strings"
	"time"
)

// validateSpec is Options as the worker protocol carries them (agents by name).
type validateSpec struct {
	Limits           script.Limits `json:"limits"`
	MaxPlies         int           `json:"max_plies,omitempty"`
	Playouts         int           `json:"playouts,omitempty"`
	Replays          int           `json:"replays,omitempty"`
	TerminationGames int           `json:"termination_games,omitempty"`
	GameSteps        uint64        `json:"game_steps,omitempty"`
	SkillAgents      string        `json:"skill_agents,omitempty"`
	SkillGames       int           `json:"skill_games,omitempty"`
	SkillThreshold   float64       `json:"skill_threshold,omitempty"`
	SkipSkill        bool          `json:"skip_skill,omitempty"`
	Seed             int64         `json:"seed,omitempty"`
	Workers          int           `json:"workers,omitempty"`
}

func specOf(o Options) validateSpec {
	return validateSpec{Limits: o.Limits, MaxPlies: o.MaxPlies, Playouts: o.Playouts, Replays: o.Replays,
		TerminationGames: o.TerminationGames, GameSteps: o.GameSteps, SkillAgents: duel.AgentNames(o.SkillAgents),
		SkillGames: o.SkillGames, SkillThreshold: o.SkillThreshold, SkipSkill: o.SkipSkill, Seed: o.Seed, Workers: o.Workers}
}

func (s validateSpec) options() (Options, error) {
	o := Options{Limits: s.Limits, MaxPlies: s.MaxPlies, Playouts: s.Playouts, Replays: s.Replays,
		TerminationGames: s.TerminationGames, GameSteps: s.GameSteps, SkillGames: s.SkillGames,
		SkillThreshold: s.SkillThreshold, SkipSkill: s.SkipSkill, Seed: s.Seed, Workers: s.Workers}
	if strings.TrimSpace(s.SkillAgents) != "" {
		agents, err := agents.ParseAgents(s.SkillAgents)
		if err != nil {
			return o, err
		}
		o.SkillAgents = agents
	}
	return o, nil
}

// DefaultValidationBudget is the CPU time a sandboxed validation may use in all.
var DefaultValidationBudget = 10 * time.Minute

// validateJob is the worker's name of a validation (sandbox.RegisterJob).
const validateJob = "validate"

func init() {
	sandbox.RegisterJob(validateJob, func(ctx context.Context, name string, src []byte, args json.RawMessage, progress func(string)) (any, error) {
		var spec *validateSpec
		if err := json.Unmarshal(args, &spec); err != nil {
			return nil, err
		}
		if spec == nil {
			return nil, errors.New("no validation options")
		}
		opts, err := spec.options()
		if err != nil {
			return nil, err
		}
		opts.Progress = progress
		rep := Source(ctx, name, src, opts)
		return &rep, nil
	})
}

// Sandboxed validates a script in a worker of the pool: whatever the script does, the
// caller gets a report. A worker that crashes, overflows its stack, runs out of memory or
// exceeds its CPU budget is killed, and the filter it was in rejects the game with the fault
// named. Progress (when set in opts) is told the filters that finished before the verdict.
func Sandboxed(ctx context.Context, pl *sandbox.Pool, name string, src []byte, opts Options, budget time.Duration) Report {
	if budget <= 0 {
		budget = DefaultValidationBudget
	}
	rejected := func(filter string, err error) Report {
		rep := Report{Game: name, Rejected: filter}
		if f := core.FaultOf(err); f != nil {
			rep.Fault, rep.Reason = f, f.Error()
		} else {
			rep.Reason = err.Error()
		}
		rep.Checks = append(rep.Checks, Check{Filter: filter, Detail: rep.Reason})
		return rep
	}
	if opts.Limits.Memory == 0 {
		opts.Limits.Memory = pl.ScriptMemory()
	}
	out, stage, err := pl.RunJob(ctx, validateJob, name, src, ptr(specOf(opts)), budget, "validation")
	if err != nil {
		if ctx.Err() != nil {
			return rejected(FilterLoad, ctx.Err())
		}
		filter := FilterLoad
		if stage != "" {
			filter = stage
		}
		return rejected(filter, err)
	}
	var rep *Report
	if err := json.Unmarshal(out, &rep); err != nil {
		return rejected(FilterLoad, err)
	}
	if rep == nil {
		return rejected(FilterLoad, errors.New("the sandbox worker gave no report"))
	}
	return *rep
}

func ptr[T any](v T) *T { return &v }

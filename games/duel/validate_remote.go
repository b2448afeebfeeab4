package duel

import (
	"context"
	"errors"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"strings"
	"time"
)

// validateSpec is ValidateOptions as the worker protocol carries them (agents by name).
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

func specOf(o ValidateOptions) validateSpec {
	return validateSpec{Limits: o.Limits, MaxPlies: o.MaxPlies, Playouts: o.Playouts, Replays: o.Replays,
		TerminationGames: o.TerminationGames, GameSteps: o.GameSteps, SkillAgents: AgentNames(o.SkillAgents),
		SkillGames: o.SkillGames, SkillThreshold: o.SkillThreshold, SkipSkill: o.SkipSkill, Seed: o.Seed, Workers: o.Workers}
}

func (s validateSpec) options() (ValidateOptions, error) {
	o := ValidateOptions{Limits: s.Limits, MaxPlies: s.MaxPlies, Playouts: s.Playouts, Replays: s.Replays,
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

// filterPrefix marks the worker's stderr lines that name the filter it starts, so that a
// worker that dies is charged to the right filter.
const filterPrefix = "duel-filter: "

// DefaultValidationBudget is the CPU time a sandboxed validation may use in all.
var DefaultValidationBudget = 10 * time.Minute

// ValidateSandboxed validates a script in a worker of the pool: whatever the script does, the
// caller gets a report. A worker that crashes, overflows its stack, runs out of memory or
// exceeds its CPU budget is killed, and the filter it was in rejects the game with the fault
// named. Progress (when set in opts) is told the filters that finished before the verdict.
func (pl *Pool) ValidateSandboxed(ctx context.Context, name string, src []byte, opts ValidateOptions, budget time.Duration) Report {
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
	p, err := pl.get()
	if err != nil {
		return rejected(FilterLoad, err)
	}
	if opts.Limits.Memory == 0 {
		opts.Limits.Memory = pl.memory() / 2
	}
	rep, err := p.call(ctx, workerRequest{Op: "validate", Name: name, Source: src, Validate: ptr(specOf(opts)),
		Budget: budget, BudgetName: "validation"})
	if err == nil && rep.Fault != nil {
		err = rep.Fault
	} else if err == nil && rep.Error != "" {
		err = errors.New(rep.Error)
	}
	defer pl.put(p)
	if err != nil {
		if ctx.Err() != nil {
			return rejected(FilterLoad, ctx.Err())
		}
		filter := FilterLoad
		if f := p.stderr.lastFilter(); f != "" {
			filter = f
		}
		return rejected(filter, err)
	}
	if rep.Report == nil {
		return rejected(FilterLoad, errors.New("the sandbox worker gave no report"))
	}
	return *rep.Report
}

func ptr[T any](v T) *T { return &v }

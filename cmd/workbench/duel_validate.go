package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strings"

	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"pcgwb/games/duel/validate"
	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
)

func duelValidateSetup(fs *flag.FlagSet) Runner {
	asJSON := fs.Bool("json", false, "print the report as JSON")
	skipSkill := fs.Bool("skip-skill", false, "leave out the skill round robin (the slowest filter)")
	inProcess := fs.Bool("in-process", false, "run the script in this process instead of a sandbox worker (trusted scripts only)")
	playouts := fs.Int("playouts", 200, "random playouts")
	skill := fs.String("skill-agents", "random,mcts-25,mcts-100", "agents of the skill round robin")
	skillGames := fs.Int("skill-games", 6, "games per pair in the skill round robin")
	seed := fs.Int64("seed", 0, "seed offset of every filter")
	workers := fs.Int("workers", 2, "parallel games in the skill round robin")
	memory := fs.Uint64("memory", 1024, "memory limit of the sandbox worker process, MiB")
	scriptMemory := fs.Uint64("script-memory", 0, "heap size at which a running script call is stopped, MiB (default: half of --memory in the sandbox, 1024 in-process)")
	callCPU := fs.Duration("call-cpu", script.DefaultLimits.CallTime, "CPU time one call of the script may use")
	budget := fs.Duration("cpu", validate.DefaultValidationBudget, "CPU time the whole validation may use")
	save := fs.Bool("save", false, "record the report next to the script (GAME.validate.json): `duel eval` then plays the benchmark opponent it names")
	return func(ctx context.Context, args []string, io IO) error {
		agents, err := agents.ParseAgents(*skill)
		if err != nil {
			return usageError{err.Error()}
		}
		opts := validate.Options{
			Playouts: *playouts, SkillAgents: agents, SkillGames: *skillGames,
			SkipSkill: *skipSkill, Seed: *seed, Workers: *workers,
			Limits: script.Limits{Memory: *scriptMemory << 20, CallTime: *callCPU},
		}
		src, name, err := duelSource(args[0])
		if err != nil {
			return err
		}
		var rep validate.Report
		if *inProcess {
			rep = validate.Source(ctx, name, src, opts)
		} else {
			pool := &sandbox.Pool{Memory: *memory << 20, MaxIdle: 1}
			defer pool.Close()
			rep = validate.Sandboxed(ctx, pool, name, src, opts, *budget)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if *asJSON {
			if err := writeJSON(io.Stdout, rep); err != nil {
				return err
			}
		} else {
			rep.WriteText(io.Stdout)
		}
		if *save && rep.Passed && strings.HasSuffix(args[0], ".star") {
			b, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				return err
			}
			if err := atomicfile.Write(strings.TrimSuffix(args[0], ".star")+".validate.json", append(b, '\n'), 0o644); err != nil {
				return err
			}
		}
		if !rep.Passed {
			return fmt.Errorf("%s: rejected by the %s filter", rep.Game, rep.Rejected)
		}
		return nil
	}
}

// duelSource reads a script file or a built-in game's source; a file that does not compile is
// returned too, for the load filter to report.
func duelSource(nameOrPath string) ([]byte, string, error) {
	p, err := script.Open(nameOrPath, script.Limits{MaxSource: 64 << 20})
	if err == nil {
		return p.Source(), p.Name(), nil
	}
	if f := core.FaultOf(err); f != nil && !slices.Contains(script.Builtins(), nameOrPath) {
		src, rerr := safeio.ReadFile(nameOrPath, 64<<20)
		if rerr == nil {
			return src, strings.TrimSuffix(baseName(nameOrPath), ".star"), nil
		}
	}
	return nil, "", err
}

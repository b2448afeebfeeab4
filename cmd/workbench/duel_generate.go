package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"

	"pcgwb/games/duel/core"
	"pcgwb/games/duel/llmplay"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"pcgwb/games/duel/validate"
	"pcgwb/internal/atomicfile"
)

// duelGenerateSetup is `workbench duel generate --model M --n N --out DIR`: gg-bench's
// generation pipeline (rulebook, Starlark implementation with a repair loop, action text), every
// implementation validated in a sandbox worker, and de-duplication of near-identical games. A
// game is written as soon as it is accepted (DIR/NAME.star with its rulebook, action text and
// validation report, whose benchmark opponent `duel eval` uses), unless it duplicates one kept
// before it; DIR/generated.json records every attempt and is rewritten after each game. The
// folder is locked for the run, and a later batch never replaces an earlier one: without
// --first it numbers its games after the folder's last, and generated.json keeps every batch.
func duelGenerateSetup(fs *flag.FlagSet) Runner {
	var ep endpointFlags
	ep.register(fs)
	n := fs.Int("n", 1, "games to generate")
	first := fs.Int("first", 1, "number of the first game (gen-NNN; also its request sample, so a later batch asks afresh); default: after the folder's last game")
	genre := fs.String("genre", llmplay.DefaultGenre, "genre in the rulebook prompt")
	repairs := fs.Int("repairs", 3, "times a rejected implementation is sent back with the error")
	skipSkill := fs.Bool("skip-skill", false, "leave out the (slow) skill filter")
	threshold := fs.Float64("dedup", 0.9, "drop a game at least this similar (behaviour or code) to one kept before it")
	out := fs.String("out", filepath.Join("runs", "duel-generated"), "folder for the games")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	callCPU := fs.Duration("call-cpu", script.DefaultLimits.CallTime, "CPU time one call of a script may use")
	budget := fs.Duration("validate-cpu", validate.DefaultValidationBudget, "CPU time the validation of one implementation may use")
	return func(ctx context.Context, _ []string, io IO) error {
		// llmplay.Generator reads 0 repairs as its default, so 0 cannot be asked for
		if *n < 1 || *repairs < 1 || *first < 0 {
			return usagef("--n and --repairs must be at least 1, --first at least 0")
		}
		firstSet := false
		fs.Visit(func(f *flag.Flag) { firstSet = firstSet || f.Name == "first" })
		// the folder is made, locked and read before anything is asked or paid
		batch, err := openGenBatch(*out)
		if err != nil {
			return err
		}
		defer batch.release()
		if firstSet {
			if clash := batch.clash(*first, *n); clash != "" {
				return fmt.Errorf("%s already holds %s from an earlier batch: choose another --first (the next free is %d) or another --out", *out, clash, batch.next)
			}
		} else {
			*first = max(*first, batch.next)
		}
		client, asker, ctx, done, err := duelClient(ctx, &ep, io.Stderr, "duel generate")
		if err != nil {
			return err
		}
		defer done()
		k := &keeper{dir: *out, threshold: *threshold, ctx: ctx}
		var all []*llmplay.Generated
		accepted := 0
		for i := 0; i < *n; i++ {
			name := fmt.Sprintf("gen-%03d", *first+i)
			gen := &llmplay.Generator{Ask: asker, Genre: *genre, MaxRepairs: *repairs, Sample: *first + i,
				Validate: validate.Options{SkipSkill: *skipSkill, Limits: script.Limits{CallTime: *callCPU}},
				Sandbox:  sandbox.DefaultPool, ValidateBudget: *budget, OnAccepted: k.add}
			g, err := gen.Generate(ctx, name)
			if err != nil {
				if ctx.Err() != nil {
					return stopCause(ctx, err)
				}
				fmt.Fprintf(io.Stderr, "%s: %s\n", name, core.PrintableLine(err.Error()))
				continue
			}
			all = append(all, g)
			if err := batch.write(all); err != nil {
				return err
			}
			if !*quiet {
				verdict := "accepted"
				if !g.Accepted {
					last := g.Attempts[len(g.Attempts)-1].Report
					verdict = fmt.Sprintf("rejected by %s: %s", last.Rejected, core.PrintableLine(firstLine(last.Reason)))
				}
				fmt.Fprintf(io.Stderr, "[%d/%d] %s: %d attempt(s), %s\n", i+1, *n, name, len(g.Attempts), verdict)
			}
			if g.Accepted {
				accepted++
			}
		}
		fmt.Fprintf(io.Stdout, "%d generated, %d accepted, %d kept after de-duplication, in %s\n", len(all), accepted, len(k.kept), *out)
		for _, path := range k.kept {
			fmt.Fprintf(io.Stdout, "  %s\n", path)
		}
		printTotals(io.Stdout, client)
		return nil
	}
}

// keeper writes accepted games at once, unless one is a near-duplicate of a game kept before
// it (llmplay.Dedup, run over the games so far: it keeps greedily in order, so the verdict on
// earlier games never changes).
type keeper struct {
	ctx       context.Context
	dir       string
	threshold float64
	fps       []*llmplay.Fingerprint
	sources   []string
	kept      []string
}

func (k *keeper) add(g *llmplay.Generated) error {
	sg, err := sandbox.DefaultPool.Open(k.ctx, g.Name, []byte(g.Source), sandbox.SandboxOptions{})
	if err != nil {
		return fmt.Errorf("%s: accepted but does not load: %w", g.Name, err)
	}
	fp, err := llmplay.FingerprintOf(k.ctx, sg, 50)
	sg.Close()
	if err != nil {
		if k.ctx.Err() != nil {
			return err
		}
		return nil // no fingerprint, not kept (the attempt stays in generated.json)
	}
	k.fps, k.sources = append(k.fps, fp), append(k.sources, g.Source)
	kept := llmplay.Dedup(k.fps, k.sources, k.threshold)
	if len(kept) == 0 || kept[len(kept)-1] != len(k.fps)-1 {
		return nil // a near-duplicate of a kept game
	}
	base := filepath.Join(k.dir, g.Name)
	rep := g.Attempts[len(g.Attempts)-1].Report
	rb, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	for _, f := range []struct{ path, text string }{
		{base + ".rules.md", g.Rulebook + "\n"}, {base + ".actions.txt", g.ActionText + "\n"},
		{base + ".validate.json", string(rb) + "\n"}, {base + ".star", g.Source},
	} {
		if err := atomicfile.Write(f.path, []byte(f.text), 0o644); err != nil {
			return err
		}
	}
	k.kept = append(k.kept, base+".star")
	return nil
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"pcgwb/games/duel"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
)

const duelSummary = "list | show | validate | play | match | tournament | ladder | bench | train | eval | score | generate: generated two-player games (gg-bench)"

// duelCommand is the `workbench duel` group. Every command that runs a game script runs it in a
// sandbox worker (sandbox.Pool): the workbench itself never executes untrusted Starlark.
func duelCommand() *Command {
	return &Command{Name: "duel", Short: duelSummary,
		Long: "GAME is a built-in name (workbench duel list) or a .star file; agents are random, first, mcts, mcts-N, mcts-N-greedy",
		Commands: []*Command{
			{Name: "list", Short: "the built-in games", Setup: duelListSetup},
			{Name: "show", Args: []string{"GAME"}, Short: "GAME [--seed S]: rules, starting position and moves of a game", Setup: duelShowSetup},
			{Name: "validate", Args: []string{"GAME"}, Short: "GAME [--json] [--skip-skill] [--in-process]: run gg-bench's filters on a game script", Setup: duelValidateSetup},
			{Name: "play", Args: []string{"GAME"}, Short: "GAME [--agent A] [--as 0|1] [--seed S]: play a game against an agent in the terminal", Setup: duelPlaySetup},
			{Name: "match", Args: []string{"GAME"}, Short: "GAME --agents A,B [--games N] [--seed S] [--moves]: games between two agents", Setup: duelMatchSetup},
			{Name: "tournament", Args: []string{"GAME"}, Short: "GAME --agents A,B,... [--games N] [--workers N] [--json]: round robin with a win-rate table", Setup: duelTournamentSetup},
			{Name: "ladder", Args: []string{"GAME"}, Short: "GAME [--iterations 10,30,100,300] [--games N]: round robin of random play and MCTS strengths", Setup: duelLadderSetup},
			{Name: "bench", Args: []string{"[GAME...]"}, Short: "[GAME...] [--iterations N] [--positions N]: MCTS move time in process and in the sandbox", Setup: duelBenchSetup},
			{Name: "train", Args: []string{"GAME"}, Short: "GAME [--budget CPU-TIME] [--out DIR] [--seed S]: self-play training of the game's benchmark opponent (network-guided MCTS)", Setup: duelTrainSetup},
			{Name: "targets", Args: []string{"[GAME...]"}, Short: "[GAME...] [--dir ROOT] [--random-games 100] [--mcts-games 50] [--best-response-samples K]: trained benchmark opponents measured against the targets (beat mcts-100 in 70 %, random scores at most 10 %), a Markdown table", Setup: duelTargetsSetup},
			{Name: "eval", Args: []string{"GAME"}, Short: "GAME --model M [--opponent A|trained] [--games 30] [--out DIR] [endpoint flags]: a language model against the benchmark opponent, scores with 95% intervals", Setup: duelEvalSetup},
			{Name: "score", Args: []string{"FILE..."}, Short: "FILE... [--compare MODEL,MODEL]: gg-bench score over eval results (the files `duel eval --out` writes, or their folders), with intervals", Setup: duelScoreSetup},
			{Name: "generate", Short: "--model M [--n N] [--out DIR] [endpoint flags]: a language model invents games (rulebook, Starlark, repairs)", Setup: duelGenerateSetup},
		}}
}

// budgetFlags are the sandbox's CPU-time budgets, shared by the commands that play games.
type budgetFlags struct {
	call, move, game time.Duration
	memory           uint64
}

func (b *budgetFlags) register(fs *flag.FlagSet) {
	fs.DurationVar(&b.call, "call-cpu", sandbox.DefaultBudgets.Call, "CPU time one call of the script may use")
	fs.DurationVar(&b.move, "move-cpu", sandbox.DefaultBudgets.Move, "CPU time one move may use (an agent's search included)")
	fs.DurationVar(&b.game, "game-cpu", sandbox.DefaultBudgets.Game, "CPU time one game may use")
	fs.Uint64Var(&b.memory, "memory", 1024, "memory limit of each sandbox worker process, MiB")
}

func (b *budgetFlags) options() sandbox.SandboxOptions {
	return sandbox.SandboxOptions{Budgets: sandbox.Budgets{Call: b.call, Move: b.move, Game: b.game}}
}

// pool is the sandbox pool for b's memory limit: the shared one for the default.
func (b *budgetFlags) pool() *sandbox.Pool {
	if b.memory == 0 || b.memory == 1024 {
		return sandbox.DefaultPool
	}
	return &sandbox.Pool{Memory: b.memory << 20}
}

// openSandboxed opens a built-in game or a script file in a sandbox worker.
func (b *budgetFlags) open(ctx context.Context, nameOrPath string) (*sandbox.Remote, error) {
	p, err := script.Open(nameOrPath, script.Limits{})
	if err != nil {
		return nil, err
	}
	return b.pool().Open(ctx, p.Name(), p.Source(), b.options())
}

// printPosition shows the board, whose turn it is and, when asked, the legal moves with their
// labels.
func printPosition(w io.Writer, sess *duel.Session, moves bool) error {
	txt, err := sess.Game.Render(sess.State())
	if err != nil {
		return err
	}
	fmt.Fprintln(w, core.Printable(txt))
	o, trunc, err := sess.Status()
	if err != nil {
		return err
	}
	switch {
	case o.Done():
		fmt.Fprintf(w, "game over after %d moves: %s\n", sess.Ply(), core.PrintableLine(sess.Game.Info().OutcomeText(o)))
		return nil
	case trunc:
		fmt.Fprintf(w, "game stopped at the %d-move cap without a result\n", sess.MaxPlies)
		return nil
	}
	t, err := sess.Turn()
	if err != nil {
		return err
	}
	who := core.PrintableLine(sess.Game.Info().PlayerName(t.Player))
	if !moves {
		fmt.Fprintf(w, "%s to move\n", who)
		return nil
	}
	fmt.Fprintf(w, "%s to move; legal moves:\n", who)
	for _, a := range t.Legal {
		label, err := sess.Game.ActionLabel(t.State, a)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %3d  %s\n", a, core.PrintableLine(label))
	}
	return nil
}

func orName(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

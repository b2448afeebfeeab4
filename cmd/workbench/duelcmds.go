package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"pcgwb/games/duel"
)

// The sandbox child: `workbench duel validate` re-executes this binary with duel.ChildEnv set,
// and the child applies its OS limits before anything else runs.
func init() {
	if os.Getenv(duel.ChildEnv) == "" {
		return
	}
	var lim duel.ChildLimits
	if mib, err := strconv.ParseUint(os.Getenv(duel.ChildEnv), 10, 64); err == nil && mib > 0 {
		lim.Memory = mib << 20
	}
	if err := duel.LimitSelf(lim); err != nil {
		fmt.Fprintln(os.Stderr, "workbench: sandbox limits:", err)
		os.Exit(3)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// duelStdin is where `duel play` reads a person's moves; tests replace it.
var duelStdin io.Reader = os.Stdin

var duelCommands = []struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}{
	{"list", "the built-in games", duelList},
	{"show", "GAME [--seed S]: rules, starting position and moves of a game", duelShow},
	{"validate", "GAME [--json] [--skip-skill] [--in-process]: run gg-bench's filters on a game script", duelValidate},
	{"play", "GAME [--agent A] [--as 0|1] [--seed S]: play a game against an agent in the terminal", duelPlay},
	{"match", "GAME --agents A,B [--games N] [--seed S] [--moves]: games between two agents", duelMatch},
	{"tournament", "GAME --agents A,B,... [--games N] [--workers N] [--json]: round robin with a win-rate table", duelTournament},
	{"ladder", "GAME [--iterations 10,30,100,300] [--games N]: round robin of random play and MCTS strengths", duelLadder},
	{"bench", "[GAME...] [--iterations N] [--positions N]: MCTS move time and rollouts per second", duelBench},
	{"eval", "GAME --model M [--opponent A] [--games 30] [endpoint flags]: a language model against an agent, gg-bench and strict scores", duelEval},
	{"generate", "--model M [--n N] [--out DIR] [endpoint flags]: a language model invents games (rulebook, Starlark, repairs)", duelGenerate},
}

const duelSummary = "list | show | validate | play | match | tournament | ladder | bench | eval | generate: generated two-player games (gg-bench)"

func cmdDuel(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		duelUsage(stdout)
		if len(args) == 0 {
			return usagef("a duel subcommand is required")
		}
		return nil
	}
	for _, c := range duelCommands {
		if c.name == args[0] {
			// search allocates a state per move and keeps little alive: collecting less often
			// cuts MCTS time by about a third, for a few MiB more heap
			debug.SetGCPercent(400)
			return c.run(args[1:], stdout, stderr)
		}
	}
	duelUsage(stderr)
	return usagef("unknown duel subcommand %q", args[0])
}

func duelUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: workbench duel SUBCOMMAND ...")
	for _, c := range duelCommands {
		fmt.Fprintf(w, "       workbench duel %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "GAME is a built-in name (workbench duel list) or a .star file; agents are random, first, mcts, mcts-N, mcts-N-greedy")
}

// openDuelGame loads a built-in or a script file.
func openDuelGame(name string) (*duel.Program, *duel.ScriptGame, error) {
	p, err := duel.Open(name, duel.Limits{})
	if err != nil {
		return nil, nil, err
	}
	g, err := p.New()
	if err != nil {
		return nil, nil, err
	}
	return p, g, nil
}

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func duelList(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("duel list", flag.ContinueOnError)
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, name := range duel.Builtins() {
		g, err := duel.LoadBuiltin(name, duel.Limits{})
		if err != nil {
			return err
		}
		info := g.Info()
		g.Close()
		fmt.Fprintf(tw, "%s\t%s\t%d actions\n", name, info.Title, info.NumActions)
	}
	return tw.Flush()
}

func duelShow(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("duel show", flag.ContinueOnError)
	seed := fs.Int64("seed", 0, "seed of the starting position")
	pos, err := parseArgs(fs, args, "GAME")
	if err != nil {
		return err
	}
	_, g, err := openDuelGame(pos[0])
	if err != nil {
		return err
	}
	defer g.Close()
	info := g.Info()
	title := info.Title
	if title == "" {
		title = info.Name
	}
	fmt.Fprintf(stdout, "%s (%d actions, observation of %d numbers)\n\n", title, info.NumActions, info.ObsSize)
	if info.Rules != "" {
		fmt.Fprintf(stdout, "%s\n\n", strings.TrimSpace(info.Rules))
	}
	sess, err := duel.NewSession(g, *seed, 0)
	if err != nil {
		return err
	}
	return printPosition(stdout, sess, true)
}

// printPosition shows the board, whose turn it is and, when asked, the legal moves with their
// labels.
func printPosition(w io.Writer, sess *duel.Session, moves bool) error {
	txt, err := sess.Game.Render(sess.State())
	if err != nil {
		return err
	}
	fmt.Fprintln(w, txt)
	o, trunc, err := sess.Status()
	if err != nil {
		return err
	}
	switch {
	case o.Done():
		fmt.Fprintf(w, "game over after %d moves: %s\n", sess.Ply(), o)
		return nil
	case trunc:
		fmt.Fprintf(w, "game stopped at the %d-move cap without a result\n", sess.MaxPlies)
		return nil
	}
	t, err := sess.Turn()
	if err != nil {
		return err
	}
	if !moves {
		fmt.Fprintf(w, "player %d to move\n", t.Player)
		return nil
	}
	fmt.Fprintf(w, "player %d to move; legal moves:\n", t.Player)
	for _, a := range t.Legal {
		label, err := sess.Game.ActionLabel(t.State, a)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %3d  %s\n", a, label)
	}
	return nil
}

const childFilterPrefix = "duel-filter: "

func duelValidate(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("duel validate", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	skipSkill := fs.Bool("skip-skill", false, "leave out the skill round robin (the slowest filter)")
	inProcess := fs.Bool("in-process", false, "run the script in this process instead of a sandbox child process")
	playouts := fs.Int("playouts", 200, "random playouts")
	skill := fs.String("skill-agents", "random,mcts-25,mcts-100", "agents of the skill round robin")
	skillGames := fs.Int("skill-games", 6, "games per pair in the skill round robin")
	seed := fs.Int64("seed", 0, "seed offset of every filter")
	workers := fs.Int("workers", 2, "parallel games in the skill round robin")
	memory := fs.Uint64("memory", 1024, "memory limit of the sandbox child process, MiB")
	scriptMemory := fs.Uint64("script-memory", 0, "heap size at which a running script call is stopped, MiB (default: half of --memory in the child, 1024 in-process)")
	pos, err := parseArgs(fs, args, "GAME")
	if err != nil {
		return err
	}
	agents, err := duel.ParseAgents(*skill)
	if err != nil {
		return usageError{err.Error()}
	}
	ctx, stop := signalContext()
	defer stop()

	var rep duel.Report
	if *inProcess {
		opts := duel.ValidateOptions{
			Playouts: *playouts, SkillAgents: agents, SkillGames: *skillGames,
			SkipSkill: *skipSkill, Seed: *seed, Workers: *workers,
			Progress: func(f string) { fmt.Fprintln(stderr, childFilterPrefix+f) },
		}
		if *scriptMemory > 0 {
			opts.Limits.Memory = *scriptMemory << 20
		}
		src, name, err := duelSource(pos[0])
		if err != nil {
			return err
		}
		rep = duel.ValidateSource(ctx, name, src, opts)
	} else {
		if !slices.Contains(duel.Builtins(), pos[0]) {
			if _, err := os.Stat(pos[0]); err != nil {
				return err // nothing to sandbox
			}
		}
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		childArgs := []string{"duel", "validate", "--in-process", "--json",
			"--playouts", strconv.Itoa(*playouts), "--skill-agents", *skill,
			"--skill-games", strconv.Itoa(*skillGames), "--seed", strconv.FormatInt(*seed, 10),
			"--workers", strconv.Itoa(*workers)}
		// the in-process watchdog stops a growing script well before the OS limit would kill
		// the child, so the report names the call and the filter
		sm := *scriptMemory
		if sm == 0 {
			sm = max(*memory/2, 1)
		}
		childArgs = append(childArgs, "--script-memory", strconv.FormatUint(sm, 10))
		if *skipSkill {
			childArgs = append(childArgs, "--skip-skill")
		}
		childArgs = append(childArgs, pos[0])
		cmd := exec.Command(exe, childArgs...)
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", duel.ChildEnv, *memory))
		out, runErr := duel.RunChild(ctx, cmd, duel.ChildLimits{Memory: *memory << 20})
		if jerr := json.Unmarshal(out.Stdout, &rep); jerr != nil || rep.Game == "" {
			// the child died before reporting: the filter it was in rejects the game
			rep = duel.Report{Game: pos[0]}
			filter := duel.FilterLoad
			for _, line := range strings.Split(string(out.Stderr), "\n") {
				if f, ok := strings.CutPrefix(line, childFilterPrefix); ok {
					filter = f
				}
			}
			rep.Rejected = filter
			if f := duel.FaultOf(runErr); f != nil {
				rep.Fault, rep.Reason = f, f.Error()
			} else if runErr != nil {
				rep.Reason = fmt.Sprintf("the sandbox process failed: %v: %s", runErr, strings.TrimSpace(string(out.Stderr)))
			} else {
				rep.Reason = "the sandbox process gave no report"
			}
			rep.Checks = append(rep.Checks, duel.Check{Filter: filter, Detail: rep.Reason})
		}
	}
	if *asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		rep.WriteText(stdout)
	}
	if !rep.Passed {
		return fmt.Errorf("%s: rejected by the %s filter", rep.Game, rep.Rejected)
	}
	return nil
}

// duelSource reads a script file or a built-in game's source.
func duelSource(nameOrPath string) ([]byte, string, error) {
	p, err := duel.Open(nameOrPath, duel.Limits{MaxSource: 64 << 20})
	if err == nil {
		return p.Source(), p.Name(), nil
	}
	if f := duel.FaultOf(err); f != nil {
		// the file was read but does not compile: the load filter reports that
		src, rerr := os.ReadFile(nameOrPath)
		if rerr == nil {
			return src, strings.TrimSuffix(baseName(nameOrPath), ".star"), nil
		}
	}
	return nil, "", err
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

func duelPlay(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("duel play", flag.ContinueOnError)
	agentName := fs.String("agent", "mcts-300", "the opponent")
	as := fs.Int("as", 0, "the player you play, 0 (moves first) or 1")
	seed := fs.Int64("seed", 0, "seed of the game and of the agent")
	pos, err := parseArgs(fs, args, "GAME")
	if err != nil {
		return err
	}
	if *as != 0 && *as != 1 {
		return usagef("--as must be 0 or 1")
	}
	agent, err := duel.ParseAgent(*agentName)
	if err != nil {
		return usageError{err.Error()}
	}
	_, g, err := openDuelGame(pos[0])
	if err != nil {
		return err
	}
	defer g.Close()
	sess, err := duel.NewSession(g, *seed, 0)
	if err != nil {
		return err
	}
	info := g.Info()
	fmt.Fprintf(stdout, "%s: you are player %d, %s is player %d.\n", orName(info.Title, info.Name), *as, agent.Name(), 1-*as)
	fmt.Fprintln(stdout, `Type a move number (or its label), "u" to undo your last move, "r" for the rules, "q" to quit.`)
	rng := duel.SeatRNG(*seed, 0, 1-*as)
	in := bufio.NewScanner(duelStdin)
	ctx, stop := signalContext()
	defer stop()
	for {
		fmt.Fprintln(stdout)
		o, trunc, err := sess.Status()
		if err != nil {
			return err
		}
		mine := false
		if !o.Done() && !trunc {
			p, err := sess.Game.ToMove(sess.State())
			if err != nil {
				return err
			}
			mine = p == *as
		}
		if err := printPosition(stdout, sess, mine); err != nil {
			return err
		}
		if o.Done() || trunc {
			switch w := o.Winner(); {
			case trunc || o == duel.Draw:
				fmt.Fprintln(stdout, "no winner.")
			case w == *as:
				fmt.Fprintln(stdout, "you win!")
			default:
				fmt.Fprintln(stdout, "you lose.")
			}
			fmt.Fprintf(stdout, "moves: %v\n", sess.Moves())
			return nil
		}
		t, err := sess.Turn()
		if err != nil {
			return err
		}
		if t.Player != *as {
			a, err := agent.Act(ctx, g, t, rng)
			if err != nil {
				return err
			}
			label, _ := g.ActionLabel(t.State, a)
			if err := sess.Play(a); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s plays %d: %s\n", agent.Name(), a, label)
			continue
		}
		for {
			fmt.Fprint(stdout, "your move> ")
			if !in.Scan() {
				fmt.Fprintln(stdout)
				return in.Err()
			}
			line := strings.TrimSpace(in.Text())
			switch strings.ToLower(line) {
			case "":
				continue
			case "q", "quit":
				return nil
			case "r", "rules", "?":
				fmt.Fprintln(stdout, strings.TrimSpace(orName(info.Rules, "(this game has no rules text)")))
				continue
			case "u", "undo":
				undoToPlayer(sess, *as)
			default:
				a, ok := parseMove(g, t, line)
				if !ok {
					fmt.Fprintf(stdout, "%q is not a legal move here\n", line)
					continue
				}
				if err := sess.Play(a); err != nil {
					return err
				}
			}
			break
		}
	}
}

// undoToPlayer takes back moves until it is player's turn again with at least one of their
// moves taken back (the agent's reply goes with it).
func undoToPlayer(sess *duel.Session, player int) {
	for sess.Ply() > 0 {
		sess.Undo(1)
		if p, err := sess.Game.ToMove(sess.State()); err == nil && p == player {
			return
		}
	}
}

func parseMove(g duel.Game, t duel.Turn, text string) (int, bool) {
	if a, err := strconv.Atoi(text); err == nil {
		_, ok := slices.BinarySearch(t.Legal, a)
		return a, ok
	}
	for _, a := range t.Legal {
		if l, err := g.ActionLabel(t.State, a); err == nil && strings.EqualFold(l, text) {
			return a, true
		}
	}
	return 0, false
}

func orName(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

func duelMatch(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("duel match", flag.ContinueOnError)
	agentList := fs.String("agents", "mcts-100,random", "two agents: the first is player 0 in even games")
	games := fs.Int("games", 2, "games to play; the first mover alternates")
	seed := fs.Int64("seed", 0, "seed of the first game")
	moves := fs.Bool("moves", false, "print every move and position")
	pos, err := parseArgs(fs, args, "GAME")
	if err != nil {
		return err
	}
	agents, err := duel.ParseAgents(*agentList)
	if err != nil || len(agents) != 2 {
		return usagef("--agents needs exactly two agents: %v", err)
	}
	_, g, err := openDuelGame(pos[0])
	if err != nil {
		return err
	}
	defer g.Close()
	ctx, stop := signalContext()
	defer stop()
	pr := duel.PairResult{A: 0, B: 1}
	for k := 0; k < *games; k++ {
		seats := [2]duel.Agent{agents[0], agents[1]}
		if k%2 == 1 {
			seats[0], seats[1] = seats[1], seats[0]
		}
		rngs := [2]*rand.Rand{duel.SeatRNG(*seed, k, 0), duel.SeatRNG(*seed, k, 1)}
		res, err := duel.Play(ctx, g, seats, *seed+int64(k), 0, rngs)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "game %d: %s (player 0) vs %s (player 1): %s in %d moves\n", k, seats[0].Name(), seats[1].Name(), describeResult(res, seats), res.Plies)
		if *moves {
			if err := printMoves(stdout, g, *seed+int64(k), res.Moves); err != nil {
				return err
			}
		}
		pr.Add(res, k%2)
	}
	t := &duel.Tournament{Agents: []string{agents[0].Name(), agents[1].Name()}, Pairs: []duel.PairResult{pr}}
	fmt.Fprintln(stdout)
	return t.WriteTable(stdout)
}

func describeResult(r duel.Result, seats [2]duel.Agent) string {
	switch {
	case r.Fault != nil && r.FaultBy < 0:
		return "game fault: " + r.Fault.Error()
	case r.Fault != nil:
		return fmt.Sprintf("%s faulted: %v", seats[r.FaultBy].Name(), r.Fault)
	case r.Truncated:
		return "stopped at the move cap"
	case r.Outcome == duel.Draw:
		return "draw"
	}
	return seats[r.Outcome.Winner()].Name() + " wins"
}

func printMoves(w io.Writer, g duel.Game, seed int64, moves []int) error {
	s, err := g.Initial(seed)
	if err != nil {
		return err
	}
	for _, a := range moves {
		label, err := g.ActionLabel(s, a)
		if err != nil {
			return err
		}
		if s, err = g.Apply(s, a); err != nil {
			return err
		}
		txt, err := g.Render(s)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "> %s\n%s\n", label, txt)
	}
	return nil
}

func duelTournament(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("duel tournament", flag.ContinueOnError)
	agentList := fs.String("agents", "random,mcts-10,mcts-100", "comma-separated agents")
	return runDuelTournament(fs, agentList, args, stdout, stderr)
}

func duelLadder(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("duel ladder", flag.ContinueOnError)
	iters := fs.String("iterations", "10,30,100,300", "MCTS iteration counts of the rungs above random play")
	list := new(string)
	return runDuelTournament(fs, list, args, stdout, stderr, func() error {
		names := []string{"random"}
		for _, s := range strings.Split(*iters, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 1 {
				return usagef("--iterations: %q is not a positive integer", s)
			}
			names = append(names, fmt.Sprintf("mcts-%d", n))
		}
		*list = strings.Join(names, ",")
		return nil
	})
}

func runDuelTournament(fs *flag.FlagSet, agentList *string, args []string, stdout, stderr io.Writer, prepare ...func() error) error {
	games := fs.Int("games", 10, "games per pair; the first mover alternates")
	workers := fs.Int("workers", 2, "games played in parallel")
	seed := fs.Int64("seed", 0, "seed of the first game of every pair")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	pos, err := parseArgs(fs, args, "GAME")
	if err != nil {
		return err
	}
	for _, f := range prepare {
		if err := f(); err != nil {
			return err
		}
	}
	agents, err := duel.ParseAgents(*agentList)
	if err != nil {
		return usageError{err.Error()}
	}
	if len(agents) < 2 {
		return usagef("a tournament needs at least two agents")
	}
	p, err := duel.Open(pos[0], duel.Limits{})
	if err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	start := time.Now()
	t, err := duel.RunTournament(ctx, func() (duel.Game, error) { return p.New() }, agents, duel.TournamentOptions{
		GamesPerPair: *games, Seed: *seed, Workers: *workers,
		Progress: func(done, total int) {
			if !*quiet {
				fmt.Fprintf(stderr, "\r%d/%d games", done, total)
				if done == total {
					fmt.Fprintln(stderr)
				}
			}
		},
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, t)
	}
	fmt.Fprintf(stdout, "%s: %d games per pair, seed %d, %s\n", p.Name(), *games, *seed, time.Since(start).Round(time.Millisecond))
	return t.WriteTable(stdout)
}

func duelBench(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("duel bench", flag.ContinueOnError)
	iters := fs.Int("iterations", 100, "MCTS iterations per move")
	positions := fs.Int("positions", 10, "positions searched per game (the opening, then random-play positions)")
	target := fs.Duration("target", 20*time.Millisecond, "the time a move should take at most")
	fs.SetOutput(io.Discard)
	var names []string
	for {
		if err := fs.Parse(args); err != nil {
			return usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			break
		}
		names = append(names, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(names) == 0 {
		names = duel.Builtins()
	}
	ctx, stop := signalContext()
	defer stop()
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "game\tms/move\tCPU ms/move\trollouts/s\tCPU ≤ %s\t\n", *target)
	slow := 0
	for _, name := range names {
		_, g, err := openDuelGame(name)
		if err != nil {
			return err
		}
		b, err := benchGame(ctx, g, *iters, *positions)
		g.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		ok := "yes"
		if b.cpuPerMove > *target {
			ok, slow = "NO", slow+1
		}
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.0f\t%s\t\n", name, millis(b.perMove), millis(b.cpuPerMove), b.rollouts, ok)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "MCTS with %d iterations and random rollouts, %d positions per game; the target is checked on\n"+
		"CPU time (user + system of the whole process, GC included), which a busy machine inflates less than wall time\n", *iters, *positions)
	if slow > 0 {
		return fmt.Errorf("%d game(s) slower than %s per move", slow, *target)
	}
	return nil
}

type benchResult struct {
	perMove, cpuPerMove time.Duration
	rollouts            float64
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// benchGame times MCTS moves from the opening and from positions a few random moves in.
func benchGame(ctx context.Context, g duel.Game, iters, positions int) (benchResult, error) {
	m := &duel.MCTS{Iterations: iters}
	var total, cpu time.Duration
	rollouts, moves := 0, 0
	for k := 0; k < positions; k++ {
		rng := duel.SeatRNG(int64(k), k, 0)
		sess, err := duel.NewSession(g, int64(k), 0)
		if err != nil {
			return benchResult{}, err
		}
		for i := 0; i < k%8; i++ {
			t, err := sess.Turn()
			if err != nil {
				break
			}
			if err := sess.Play(t.Legal[rng.IntN(len(t.Legal))]); err != nil {
				return benchResult{}, err
			}
		}
		t, err := sess.Turn()
		if err != nil {
			continue // the random moves ended the game
		}
		start, startCPU := time.Now(), duel.CPUTime()
		st, err := m.Search(ctx, g, t, rng)
		if err != nil {
			return benchResult{}, err
		}
		total += time.Since(start)
		cpu += duel.CPUTime() - startCPU
		rollouts += st.Rollouts
		moves++
	}
	if moves == 0 {
		return benchResult{}, errors.New("no position to search")
	}
	return benchResult{
		perMove:    total / time.Duration(moves),
		cpuPerMove: cpu / time.Duration(moves),
		rollouts:   float64(rollouts) / total.Seconds(),
	}, nil
}

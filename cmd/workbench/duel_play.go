package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
)

func duelListSetup(fs *flag.FlagSet) Runner {
	var b budgetFlags
	return func(ctx context.Context, _ []string, io IO) error {
		tw := tabwriter.NewWriter(io.Stdout, 0, 0, 2, ' ', 0)
		for _, name := range script.Builtins() {
			g, err := b.open(ctx, name)
			if err != nil {
				return err
			}
			info := g.Info()
			g.Close()
			fmt.Fprintf(tw, "%s\t%s\t%d actions\n", name, core.PrintableLine(info.Title), info.NumActions)
		}
		return tw.Flush()
	}
}

func duelShowSetup(fs *flag.FlagSet) Runner {
	seed := fs.Int64("seed", 0, "seed of the starting position")
	var b budgetFlags
	b.register(fs)
	return func(ctx context.Context, args []string, io IO) error {
		g, err := b.open(ctx, args[0])
		if err != nil {
			return err
		}
		defer g.Close()
		info := g.Info()
		fmt.Fprintf(io.Stdout, "%s (%d actions, observation of %d numbers)\n\n", core.PrintableLine(orName(info.Title, info.Name)), info.NumActions, info.ObsSize)
		if info.Rules != "" {
			fmt.Fprintf(io.Stdout, "%s\n\n", core.Printable(strings.TrimSpace(info.Rules)))
		}
		sess, err := duel.NewSession(g, *seed, 0)
		if err != nil {
			return err
		}
		defer sess.Close()
		return printPosition(io.Stdout, sess, true)
	}
}

func duelPlaySetup(fs *flag.FlagSet) Runner {
	agentName := fs.String("agent", "mcts-300", "the opponent")
	as := fs.Int("as", 1, "the player you play: 1 (moves first) or 2, as the rulebook and the Games tab count")
	seed := fs.Int64("seed", 0, "seed of the game and of the agent's moves (the Games tab uses the same rule)")
	var b budgetFlags
	b.register(fs)
	return func(ctx context.Context, args []string, io IO) error {
		if *as != 1 && *as != 2 {
			return usagef("--as must be 1 (the first mover) or 2: players are numbered 1 and 2")
		}
		agent, err := agents.ParseAgent(*agentName)
		if err != nil {
			return usageError{err.Error()}
		}
		g, err := b.open(ctx, args[0])
		if err != nil {
			return err
		}
		defer g.Close()
		sess, err := duel.NewSession(g, *seed, 0)
		if err != nil {
			return err
		}
		defer sess.Close()
		return playInTerminal(ctx, sess, agent, *as-1, io)
	}
}

// playInTerminal is the person's side of a session: moves read from io.Stdin, the agent's
// moves from the session's one seeding rule. as is the person's seat, 0 or 1 (shown as
// Player 1 or 2).
func playInTerminal(ctx context.Context, sess *duel.Session, agent core.Agent, as int, io IO) error {
	g, stdout := sess.Game, io.Stdout
	info := g.Info()
	fmt.Fprintf(stdout, "%s: you are %s, %s is %s.\n", core.PrintableLine(orName(info.Title, info.Name)),
		core.PrintableLine(info.PlayerName(as)), agent.Name(), core.PrintableLine(info.PlayerName(1-as)))
	fmt.Fprintln(stdout, `Type a move number (or its label, or "@row,column" for a cell of a grid board), "u" to undo your last move, "r" for the rules, "q" to quit.`)
	in := bufio.NewScanner(io.Stdin)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		fmt.Fprintln(stdout)
		o, trunc, err := sess.Status()
		if err != nil {
			return err
		}
		mine := false
		if !o.Done() && !trunc {
			p, err := g.ToMove(sess.State())
			if err != nil {
				return err
			}
			mine = p == as
		}
		if err := printPosition(stdout, sess, mine); err != nil {
			return err
		}
		if o.Done() || trunc {
			switch w := o.Winner(); {
			case trunc || o == core.Draw:
				fmt.Fprintln(stdout, "no winner.")
			case w == as:
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
		if t.Player != as {
			_, a, err := sess.AgentMove(ctx, agent)
			if err != nil {
				return err
			}
			label, _ := g.ActionLabel(t.State, a)
			if err := sess.Play(a); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s plays %d: %s\n", agent.Name(), a, core.PrintableLine(label))
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
				fmt.Fprintln(stdout, core.Printable(strings.TrimSpace(orName(info.Rules, "(this game has no rules text)"))))
				continue
			case "u", "undo":
				sess.UndoTo(as)
			default:
				if sq, isCell := core.ParseSquare(line); isCell {
					a, ok, err := cellMove(stdout, g, t, sq)
					if err != nil {
						return err
					}
					if !ok {
						continue
					}
					if err := sess.Play(a); err != nil {
						return err
					}
					break
				}
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

func parseMove(g core.Game, t core.Turn, text string) (int, bool) {
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

// cellMove is the move a typed cell chooses: the one legal move touching it, or none (what
// the cell offers is printed instead).
func cellMove(stdout io.Writer, g core.Game, t core.Turn, sq core.Square) (int, bool, error) {
	moves, grid, err := core.MovesOnSquare(g, t, sq)
	switch {
	case err != nil:
		return 0, false, err
	case !grid:
		fmt.Fprintln(stdout, "this board is not a grid: type a move number or its label")
	case len(moves) == 0:
		fmt.Fprintf(stdout, "no legal move on %s\n", sq)
	case len(moves) == 1:
		return moves[0], true, nil
	default:
		fmt.Fprintf(stdout, "%d moves on %s:\n", len(moves), sq)
		for _, a := range moves {
			l, _ := g.ActionLabel(t.State, a)
			fmt.Fprintf(stdout, "  %d  %s\n", a, core.PrintableLine(l))
		}
	}
	return 0, false, nil
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	_ "pcgwb/problems/all"
)

// command is one subcommand of the CLI.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"problems", "list the registered problems, one name per line", cmdProblems},
		{"sample", "PROBLEM [-n N] [--seed S]: sample random contents and controls as JSON", cmdSample},
		{"eval", "PROBLEM FILE [--matrix] [--timing]: evaluate contents like the reference's evaluate()", cmdEval},
		{"render", "PROBLEM FILE --out DIR: write one PNG per item", cmdRender},
		{"data", "import PATH | status: the pcg_benchmark data (word lists, levels) some problems need", cmdData},
		{"llm", "generate --problem P --n N [...] | prompt | test: levels from an OpenAI-compatible model", cmdLLM},
		{"run", "--problem P --generator G --fitness F [--generations N --pop N --seed S --out DIR] | --resume DIR: one generator run as a folder of data (G: random, es, ga, mapelites, constructive, llm)", cmdRun},
		{"sweep", "--problems ... --generators ... --fitness ... --seeds N --out DIR [--emit-jobs]: a grid of runs in parallel", cmdSweep},
		{"report", "DIR: summary.csv and the paper's figures (PNG) from the runs under DIR", cmdReport},
		{"duel", duelSummary, cmdDuel},
		{"birds", birdsUsage, cmdBirds},
		{"play", playSummary, cmdPlay},
	}
}

// usageError marks bad input (exit status 2) as opposed to a failure while working (status 1).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// run dispatches a command line and returns the process exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" {
		if err := runGUI(args); err != nil {
			fmt.Fprintln(stderr, "workbench:", err)
			if _, ok := err.(usageError); ok {
				return 2
			}
			return 1
		}
		return 0
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" {
		usage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name != name {
			continue
		}
		err := c.run(args[1:], stdout, stderr)
		if err == nil {
			return 0
		}
		var help helpRequested
		if errors.As(err, &help) {
			fmt.Fprint(stdout, help.text)
			return 0
		}
		fmt.Fprintf(stderr, "workbench %s: %v\n", name, err)
		if _, ok := err.(usageError); ok {
			return 2
		}
		return 1
	}
	fmt.Fprintf(stderr, "workbench: unknown command %q\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: workbench                 open the workbench window")
	cmds := commands()
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].name < cmds[j].name })
	for _, c := range cmds {
		fmt.Fprintf(w, "       workbench %-9s %s\n", c.name, c.summary)
	}
}

// parseArgs parses flags that may appear before, between or after positional arguments
// ("sample zelda-v0 -n 5" and "sample -n 5 zelda-v0" both work) and checks the positional count.
func parseArgs(fs *flag.FlagSet, args []string, positional ...string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, helpRequested{flagHelp(fs, positional)}
			}
			return nil, usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	if len(pos) != len(positional) {
		return nil, usagef("expected %s, got %d argument(s)", strings.Join(positional, " "), len(pos))
	}
	return pos, nil
}

// helpRequested carries a command's help (-h, --help): printed on standard output, exit 0.
type helpRequested struct{ text string }

func (h helpRequested) Error() string { return h.text }

// flagHelp is a command's usage line and its flags with their defaults.
func flagHelp(fs *flag.FlagSet, positional []string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "usage: workbench %s [flags]", fs.Name())
	for _, p := range positional {
		sb.WriteString(" " + p)
	}
	sb.WriteString("\n\nflags:\n")
	fs.SetOutput(&sb)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	return sb.String()
}

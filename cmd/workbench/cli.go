package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	_ "pcgwb/problems/all"
)

// root is the CLI's command tree. Each group of commands lives in its own file and is listed
// here once, in the order `workbench help` shows them.
func root() *Command {
	return &Command{
		Name:  "workbench",
		Short: "PCG Workbench: generate, measure, play and compare game content",
		Commands: []*Command{
			problemsCommand(),
			sampleCommand(),
			evalCommand(),
			renderCommand(),
			dataCommand(),
			llmCommand(),
			runCommand(),
			sweepCommand(),
			reportCommand(),
			duelCommand(),
			birdsCommand(),
			playCommand(),
			playtestCommand(),
			levelsCommand(),
		},
	}
}

// usageError marks bad input (exit status 2) as opposed to a failure while working (status 1).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// run dispatches a command line and returns the process exit status: 0 on success, 2 for bad
// input (a usage error), 1 for a failure while working.
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, IO{Stdin: os.Stdin, Stdout: stdout, Stderr: stderr})
}

// runContext is run with a context that cancels the command (Ctrl-C in main).
func runContext(ctx context.Context, args []string, io IO) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" {
		return exitStatus(io.Stderr, "workbench", runGUI(args))
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" {
		usage(io.Stdout)
		return 0
	}
	for _, c := range root().Commands {
		if c.Name == name {
			err := c.Execute(ctx, name, args[1:], io)
			var help helpRequested
			if errors.As(err, &help) {
				fmt.Fprint(io.Stdout, help.text)
				return 0
			}
			return exitStatus(io.Stderr, "workbench "+name, err)
		}
	}
	fmt.Fprintf(io.Stderr, "workbench: unknown command %q\n", excerptArg(name))
	usage(io.Stderr)
	return 2
}

// exitStatus prints err (if any) and maps it to the exit status the README promises.
func exitStatus(stderr io.Writer, prefix string, err error) int {
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "%s: %v\n", prefix, err)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: workbench                 open the workbench window")
	cmds := append([]*Command(nil), root().Commands...)
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	for _, c := range cmds {
		fmt.Fprintf(w, "       workbench %-9s %s\n", c.Name, c.Short)
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
	if !countFits(len(pos), positional) {
		return nil, usagef("expected %s, got %d argument(s)", strings.Join(positional, " "), len(pos))
	}
	return pos, nil
}

// countFits checks n positional arguments against their names: "NAME" takes one, "[NAME]" zero or
// one, a last "NAME..." one or more and a last "[NAME...]" zero or more.
func countFits(n int, names []string) bool {
	lo, hi := 0, 0
	for i, name := range names {
		optional := strings.HasPrefix(name, "[")
		variadic := i == len(names)-1 && strings.HasSuffix(strings.TrimSuffix(name, "]"), "...")
		if !optional {
			lo++
		}
		if variadic {
			return n >= lo
		}
		hi++
	}
	return n >= lo && n <= hi
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

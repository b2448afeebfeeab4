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

	"pcgwb/internal/version"
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
			versionCommand(),
			completionCommand(),
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
	if len(args) == 0 {
		return exitStatus(io.Stderr, "workbench", runGUI(args))
	}
	name := args[0]
	switch name {
	case "-h", "--help", "-help":
		usage(io.Stdout)
		return 0
	case "--version", "-version":
		fmt.Fprintln(io.Stdout, version.String())
		return 0
	case "help":
		return helpCommand(ctx, args[1:], io)
	}
	if strings.HasPrefix(name, "-") {
		return exitStatus(io.Stderr, "workbench", runGUI(args))
	}
	if c := findCommand(root().Commands, name); c != nil {
		err := c.Execute(ctx, name, args[1:], io)
		var help helpRequested
		if errors.As(err, &help) {
			fmt.Fprint(io.Stdout, help.text)
			return 0
		}
		return exitStatus(io.Stderr, "workbench "+name, err)
	}
	// What a desktop launcher passes: a run folder, a level file or a competition folder.
	if gui, ok, err := openPathArgs(name); ok || err != nil {
		if err != nil {
			return exitStatus(io.Stderr, "workbench", err)
		}
		return runContext(ctx, append(gui, args[1:]...), io)
	}
	fmt.Fprintf(io.Stderr, "workbench: unknown command %q%s\n", excerptArg(name), suggestion(name, root().Commands))
	usage(io.Stderr)
	return 2
}

// helpCommand is `workbench help [COMMAND [SUBCOMMAND…]]`: the command's own help, as -h gives.
func helpCommand(ctx context.Context, path []string, io IO) int {
	if len(path) == 0 {
		usage(io.Stdout)
		return 0
	}
	cmds, words := root().Commands, "workbench"
	for i, w := range path {
		c := findCommand(cmds, w)
		if c == nil {
			fmt.Fprintf(io.Stderr, "%s: unknown command %q%s\n", words, excerptArg(w), suggestion(w, cmds))
			return 2
		}
		words += " " + w
		if i == len(path)-1 || c.Setup != nil {
			text := c.Help(strings.TrimPrefix(words, "workbench "))
			if c.Setup != nil {
				var help helpRequested
				if err := c.Execute(ctx, strings.TrimPrefix(words, "workbench "), []string{"-h"}, io); errors.As(err, &help) {
					text = help.text
				}
			}
			fmt.Fprint(io.Stdout, text)
			return 0
		}
		cmds = c.Commands
	}
	return 0
}

// findCommand is the command named name among cmds, or nil.
func findCommand(cmds []*Command, name string) *Command {
	for _, c := range cmds {
		if c.Name == name {
			return c
		}
	}
	return nil
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
	if windowBuild {
		fmt.Fprintln(w, "usage: workbench [window flags] [PATH]  open the workbench window (PATH: a run folder, a folder of runs, a level file or a competition folder)")
	} else {
		fmt.Fprintln(w, "usage: (this CLI-only build has no window; the full build opens it with no command)")
	}
	cmds := append([]*Command(nil), root().Commands...)
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	for _, c := range cmds {
		fmt.Fprintf(w, "       workbench %-9s %s\n", c.Name, c.Short)
	}
	fmt.Fprintln(w, "       workbench help COMMAND  a command's own help (as COMMAND -h)")
	fmt.Fprintln(w, "       workbench --version     the build's version, revision and licence")
	if flags := guiFlagDefaults(); flags != "" {
		fmt.Fprintf(w, "\nwindow flags:\n%s", flags)
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

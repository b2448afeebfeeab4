package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Command is one node of the CLI's command tree, in the style of the Go tool's cmd/go: a name,
// a usage line, flags and a run function, or sub-commands. Parsing is kept apart from running:
// Setup declares the flags on a fresh FlagSet (once per invocation, so no flag value leaks from
// one run to the next, which keeps tests independent) and returns the function that does the
// work once the command line has been parsed and the positional arguments counted.
type Command struct {
	// Name is the word that selects the command ("match" in "workbench duel match").
	Name string
	// Args names the positional arguments for the usage line and the count check, e.g.
	// []string{"PROBLEM", "FILE"}. A last name ending in "..." takes one or more; "[NAME]" is
	// optional; "[NAME...]" takes zero or more.
	Args []string
	// Short is the one-line summary shown in the parent's list.
	Short string
	// Long is shown by -h/--help after the usage line (optional).
	Long string
	// Setup declares the flags and returns the runner. Nil for a command that only groups
	// sub-commands.
	Setup func(fs *flag.FlagSet) Runner
	// Commands are the sub-commands, in the order help lists them.
	Commands []*Command
	// Unavailable, when set, is what running the command says instead, whatever its arguments
	// (the window commands of the CLI-only build).
	Unavailable error
}

// Runner runs a command with its positional arguments, after its flags were parsed.
type Runner func(ctx context.Context, args []string, io IO) error

// IO is where a command reads and writes.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Execute runs the command selected by args under c (path is the words that led to c, for
// messages and help).
func (c *Command) Execute(ctx context.Context, path string, args []string, io IO) error {
	if c.Unavailable != nil {
		return c.Unavailable
	}
	if c.Setup != nil {
		fs := flag.NewFlagSet(path, flag.ContinueOnError)
		runner := c.Setup(fs)
		pos, err := parseArgs(fs, args, c.Args...)
		if err != nil {
			var help helpRequested
			if errors.As(err, &help) && c.Long != "" {
				help.text += "\n" + c.Long + "\n"
				return help
			}
			return err
		}
		return runner(ctx, pos, io)
	}
	if len(args) == 0 {
		return usageError{c.Help(path)}
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		return helpRequested{c.Help(path)}
	}
	for _, sub := range c.Commands {
		if sub.Name == args[0] {
			return sub.Execute(ctx, path+" "+sub.Name, args[1:], io)
		}
	}
	return usagef("unknown command %q%s\n%s", excerptArg(args[0]), suggestion(args[0], c.Commands), c.Help(path))
}

// Help lists the sub-commands of c.
func (c *Command) Help(path string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "usage: workbench %s COMMAND [flags]", path)
	if c.Short != "" {
		fmt.Fprintf(&sb, "\n\n%s", c.Short)
	}
	sb.WriteString("\n\ncommands:\n")
	width := 0
	for _, sub := range c.Commands {
		width = max(width, len(sub.Name))
	}
	for _, sub := range c.Commands {
		fmt.Fprintf(&sb, "  %-*s  %s\n", width, sub.Name, sub.Short)
	}
	return sb.String()
}

// excerptArg keeps a hostile argument out of a message at full length.
func excerptArg(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"pcgwb/internal/version"
)

// versionCommand is `workbench version`: the same line as --version (module version and VCS
// revision from the build info, the toolchain, the licence).
func versionCommand() *Command {
	return &Command{Name: "version", Short: "the build's version, VCS revision, toolchain and licence (also --version)",
		Setup: func(fs *flag.FlagSet) Runner {
			return func(_ context.Context, _ []string, io IO) error {
				_, err := fmt.Fprintln(io.Stdout, version.String())
				return err
			}
		}}
}

// completionCommand is `workbench completion bash|zsh|fish`: a completion script made from the
// command tree itself (sub-commands and each command's flags), so it never lags behind it.
func completionCommand() *Command {
	return &Command{Name: "completion", Args: []string{"SHELL"},
		Short: "bash|zsh|fish: print a shell completion script (e.g. source <(workbench completion bash))",
		Setup: func(fs *flag.FlagSet) Runner {
			return func(_ context.Context, args []string, io IO) error {
				nodes := completionNodes(root())
				switch args[0] {
				case "bash":
					return writeBash(io.Stdout, nodes, false)
				case "zsh":
					return writeBash(io.Stdout, nodes, true)
				case "fish":
					return writeFish(io.Stdout, nodes)
				}
				return usagef("unknown shell %q (bash, zsh or fish)", excerptArg(args[0]))
			}
		}}
}

// completionNode is one command of the tree: its path below "workbench" ("" for the top),
// its sub-commands and its flags.
type completionNode struct {
	path  string
	short string
	subs  []*Command
	flags []*flag.Flag
}

// completionNodes walks the tree in a stable order; the top level offers --help and --version.
func completionNodes(top *Command) []completionNode {
	var out []completionNode
	var walk func(c *Command, path string)
	walk = func(c *Command, path string) {
		n := completionNode{path: path, short: c.Short, subs: c.Commands}
		if c.Setup != nil {
			fs := flag.NewFlagSet(path, flag.ContinueOnError)
			c.Setup(fs)
			fs.VisitAll(func(f *flag.Flag) { n.flags = append(n.flags, f) })
		}
		out = append(out, n)
		for _, s := range c.Commands {
			walk(s, strings.TrimSpace(path+" "+s.Name))
		}
	}
	walk(top, "")
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// words are what may follow the node: its sub-commands, then its flags ("-n", "--seed").
func (n completionNode) words() []string {
	var w []string
	for _, s := range n.subs {
		w = append(w, s.Name)
	}
	if n.path == "" {
		w = append(w, "help", "--help", "--version")
	}
	for _, f := range n.flags {
		w = append(w, flagSpelling(f.Name))
	}
	return w
}

func flagSpelling(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// writeBash writes a bash completion function; zsh loads the same through bashcompinit.
func writeBash(w io.Writer, nodes []completionNode, zsh bool) error {
	var sb strings.Builder
	if zsh {
		sb.WriteString("#compdef workbench workbench-cli\n# zsh completion for workbench: eval \"$(workbench completion zsh)\"\nautoload -U +X bashcompinit && bashcompinit\n")
	} else {
		sb.WriteString("# bash completion for workbench: source <(workbench completion bash)\n")
	}
	sb.WriteString("_workbench_words() {\n\tcase \"$1\" in\n")
	for _, n := range nodes {
		fmt.Fprintf(&sb, "\t%q) echo %q ;;\n", n.path, strings.Join(n.words(), " "))
	}
	sb.WriteString("\t*) return 1 ;;\n\tesac\n}\n")
	sb.WriteString(`_workbench() {
	local cur="${COMP_WORDS[COMP_CWORD]}" path="" w i next
	for ((i = 1; i < COMP_CWORD; i++)); do
		w="${COMP_WORDS[i]}"
		[[ "$w" == -* ]] && continue
		next="${path:+$path }$w"
		_workbench_words "$next" >/dev/null && path="$next"
	done
	COMPREPLY=($(compgen -W "$(_workbench_words "$path")" -- "$cur"))
}
complete -o default -F _workbench workbench workbench-cli
`)
	_, err := io.WriteString(w, sb.String())
	return err
}

// writeFish writes fish completions: each sub-command where its parent's words were typed,
// each flag after its command's words.
func writeFish(w io.Writer, nodes []completionNode) error {
	var sb strings.Builder
	sb.WriteString("# fish completion for workbench: workbench completion fish | source\n")
	sb.WriteString("function __workbench_path\n\tset -l words (commandline -opc)\n\tset -e words[1]\n\tstring join ' ' (string match -v -- '-*' $words)\nend\n")
	for _, n := range nodes {
		cond := fmt.Sprintf("test (__workbench_path) = %s", fishQuote(n.path))
		for _, s := range n.subs {
			fmt.Fprintf(&sb, "complete -c workbench -c workbench-cli -f -n %s -a %s -d %s\n", fishQuote(cond), fishQuote(s.Name), fishQuote(shortLine(s.Short)))
		}
		if n.path == "" {
			fmt.Fprintf(&sb, "complete -c workbench -c workbench-cli -n %s -l version -d 'the build'\n", fishQuote(cond))
		}
		for _, f := range n.flags {
			opt := "-l " + fishQuote(f.Name)
			if len(f.Name) == 1 {
				opt = "-o " + fishQuote(f.Name)
			}
			fmt.Fprintf(&sb, "complete -c workbench -c workbench-cli -n %s %s -d %s\n", fishQuote(cond), opt, fishQuote(shortLine(f.Usage)))
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func shortLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:77]) + "..."
	}
	return s
}

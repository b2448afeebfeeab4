package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"pcgwb/problems"
	"pcgwb/problems/data"
)

// cmdData manages the pcg_benchmark data directory: `data import PATH`, `data status`.
func cmdData(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: import PATH | status")
	}
	switch args[0] {
	case "import":
		return cmdDataImport(args[1:], stdout)
	case "status":
		return cmdDataStatus(args[1:], stdout)
	}
	return usagef("unknown subcommand %q (import PATH | status)", args[0])
}

func cmdDataImport(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("data import", flag.ContinueOnError)
	pos, err := parseArgs(fs, args, "PATH")
	if err != nil {
		return err
	}
	rep, err := data.Import(pos[0])
	if rep != nil {
		fmt.Fprintf(stdout, "source: %s\n", rep.Source)
		fmt.Fprintf(stdout, "copied to: %s\n", rep.Dest)
		for _, f := range rep.Copied {
			fmt.Fprintf(stdout, "  ok       %s\n", f)
		}
		for _, f := range rep.Invalid {
			fmt.Fprintf(stdout, "  invalid  %s\n", f)
		}
		for _, f := range rep.Missing {
			fmt.Fprintf(stdout, "  missing  %s\n", f)
		}
	}
	if err != nil {
		return err
	}
	if v := data.Roots(); len(v) > 0 && v[0].Source != data.SourceImported {
		fmt.Fprintf(stdout, "note: %s (%s) is used before the imported copy\n", v[0].Dir, v[0].Source)
	}
	printDatasets(stdout)
	return nil
}

func cmdDataStatus(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("data status", flag.ContinueOnError)
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	roots := data.Roots()
	if len(roots) == 0 {
		user, _ := data.UserDir()
		fmt.Fprintf(stdout, "no data directory: set %s, install the pcg_benchmark Python package, or run `workbench data import PATH` (copies into %s)\n", data.EnvVar, user)
	}
	for i, r := range roots {
		label := "searched"
		if i == 0 {
			label = "directory"
		}
		fmt.Fprintf(stdout, "%s: %s (%s)\n", label, r.Dir, r.Source)
	}
	printDatasets(stdout)
	return nil
}

// printDatasets lists each dataset with the problems that need it and whether it is present.
func printDatasets(w io.Writer) {
	for _, s := range data.Status() {
		state := "present"
		if !s.Available() {
			state = "missing " + strings.Join(s.Missing, ", ")
		}
		fmt.Fprintf(w, "%-24s %-32s %s\n", s.Dataset.Name, "("+s.Dataset.UsedBy+")", state)
	}
	n := 0
	for _, name := range problems.List() {
		if problems.Unavailable(name) != nil {
			n++
		}
	}
	if n > 0 {
		fmt.Fprintf(w, "%d registered problem variant(s) need missing data (`workbench problems` marks them)\n", n)
	}
}

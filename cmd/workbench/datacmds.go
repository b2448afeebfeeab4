package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"pcgwb/problems"
	"pcgwb/problems/data"
)

// dataCommand manages the pcg_benchmark data directory: import, status, download.
func dataCommand() *Command {
	return &Command{Name: "data",
		Short: "import PATH | download | status: the pcg_benchmark data (word lists, levels) some problems need",
		Commands: []*Command{
			{Name: "import", Args: []string{"PATH"}, Short: "validate the data files under PATH and copy the valid ones to the user's data folder",
				Setup: func(*flag.FlagSet) Runner { return runDataImport }},
			downloadCommand(),
			{Name: "status", Short: "the data directory in use and which datasets are present",
				Setup: func(*flag.FlagSet) Runner { return runDataStatus }},
		}}
}

func runDataImport(_ context.Context, args []string, io IO) error {
	rep, err := data.Import(args[0])
	printDataReport(io.Stdout, rep, "copied to")
	if err != nil {
		if rep == nil || len(rep.Copied) == 0 {
			return usageError{err.Error()} // nothing usable under PATH: bad input
		}
		return err
	}
	if v := data.Roots(); len(v) > 0 && v[0].Source != data.SourceImported {
		fmt.Fprintf(io.Stdout, "note: %s (%s) is used before the imported copy\n", v[0].Dir, v[0].Source)
	}
	printDatasets(io.Stdout)
	return nil
}

// printDataReport lists what an import or download copied, refused and did not find.
func printDataReport(w io.Writer, rep *data.Report, destLabel string) {
	if rep == nil {
		return
	}
	fmt.Fprintf(w, "source: %s\n", rep.Source)
	fmt.Fprintf(w, "%s: %s\n", destLabel, rep.Dest)
	for _, f := range rep.Copied {
		fmt.Fprintf(w, "  ok       %s\n", f)
	}
	for _, f := range rep.Invalid {
		fmt.Fprintf(w, "  invalid  %s\n", f)
	}
	for _, f := range rep.Missing {
		fmt.Fprintf(w, "  missing  %s\n", f)
	}
}

func runDataStatus(_ context.Context, _ []string, io IO) error {
	roots := data.Roots()
	if len(roots) == 0 {
		user, _ := data.UserDir()
		fmt.Fprintf(io.Stdout, "no data directory: set %s, install the pcg_benchmark Python package, run `workbench data download`, or run `workbench data import PATH` (both copy into %s)\n", data.EnvVar, user)
	}
	for i, r := range roots {
		label := "searched"
		if i == 0 {
			label = "directory"
		}
		fmt.Fprintf(io.Stdout, "%s: %s (%s)\n", label, r.Dir, r.Source)
	}
	printDatasets(io.Stdout)
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

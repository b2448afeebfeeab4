package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"pcgwb/problems"
	"pcgwb/problems/levelio"
)

// levelsCommand is `workbench levels`: levels out to Tiled and plain text (and back in through
// `eval`, which reads them with levelio.LoadLevels).
func levelsCommand() *Command {
	return &Command{
		Name:  "levels",
		Short: "export RUN_DIR|FILE --out DIR [--problem P] [-n N]: levels as VGLC-style text with a legend and Tiled maps with a tileset",
		Commands: []*Command{{
			Name:  "export",
			Args:  []string{"RUN_DIR|FILE"},
			Short: "RUN_DIR|FILE --out DIR [--problem P] [-n N] [--base NAME]: a run's final population (best first) or a level file, as text and Tiled maps",
			Long: "A run folder gives its final population; a file (item JSON, .txt levels or a .tmx map) needs --problem.\n" +
				"Writes BASE.txt (one character per tile, a blank line between levels), BASE.legend.json and, for\n" +
				"problems drawn tile by tile, BASE-N.tmx over BASE-tiles.png (open them in Tiled).",
			Setup: func(fs *flag.FlagSet) Runner {
				out := fs.String("out", "", "the folder to write into")
				problem := fs.String("problem", "", "the problem of a level file")
				n := fs.Int("n", 0, "export only the first N levels (0: all)")
				base := fs.String("base", "levels", "the files' base name")
				return func(_ context.Context, args []string, io IO) error {
					if *out == "" || *n < 0 || *base == "" {
						return usagef("--out is required; -n must not be negative; --base must not be empty")
					}
					var (
						name  string
						p     problems.Problem
						items []problems.Item
						err   error
					)
					if st, serr := os.Stat(args[0]); serr == nil && st.IsDir() {
						if name, p, items, err = levelio.FromRun(args[0]); err != nil {
							return err
						}
					} else {
						if *problem == "" {
							return usagef("%s is a file: say its problem with --problem", args[0])
						}
						if p, err = makeProblem(*problem); err != nil {
							return err
						}
						name = *problem
						if items, err = levelio.LoadLevels(name, p, args[0]); err != nil {
							return usagef("%s: %v", args[0], err)
						}
					}
					if *n > 0 && *n < len(items) {
						items = items[:*n]
					}
					files, err := levelio.Export(*out, *base, name, p, items)
					if err != nil {
						return err
					}
					for _, f := range files {
						fmt.Fprintln(io.Stdout, f)
					}
					return nil
				}
			},
		}},
	}
}

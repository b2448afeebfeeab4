package main

import (
	"context"
	"flag"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
	"pcgwb/problems"
)

func renderCommand() *Command {
	return &Command{Name: "render", Args: []string{"PROBLEM", "FILE"},
		Short: "PROBLEM FILE --out DIR: write one PNG per item",
		Long:  "Item ids become file names: they must be safe names (letters, digits, . _ -) and distinct.",
		Setup: func(fs *flag.FlagSet) Runner {
			outDir := fs.String("out", "", "output folder (created if missing)")
			return func(ctx context.Context, args []string, io IO) error {
				if *outDir == "" {
					return usagef("--out DIR is required")
				}
				p, err := makeProblem(args[0])
				if err != nil {
					return err
				}
				items, err := readItems(args[0], p, args[1], io.Stdin)
				if err != nil {
					return err
				}
				names, err := renderNames(items)
				if err != nil {
					return err
				}
				return renderItems(ctx, p, items, names, *outDir, io.Stdout)
			}
		}}
}

// safeFileName is an id usable as a file name on every system as it is.
var safeFileName = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$`)

// renderNames are the items' file names: their ids, or 000, 001, … without ids. Ids that are
// not safe file names, or that would name the same file (compared without case, as macOS and
// Windows do), are bad input: nothing is written.
func renderNames(items []problems.Item) ([]string, error) {
	names := make([]string, len(items))
	seen := map[string]int{}
	for i, it := range items {
		name := fmt.Sprintf("%03d", i)
		if it.ID != "" {
			if !safeFileName.MatchString(it.ID) {
				return nil, usagef("item %d: id %s is not a safe file name (letters, digits, . _ - only, not starting with a dot, at most 128)",
					i, safeio.ExcerptString(it.ID))
			}
			name = it.ID
		}
		key := strings.ToLower(name)
		if j, dup := seen[key]; dup {
			return nil, usagef("items %d and %d would both be written to %s.png: give them distinct ids", j, i, name)
		}
		seen[key] = i
		names[i] = name
	}
	return names, nil
}

func renderItems(ctx context.Context, p problems.Problem, items []problems.Item, names []string, outDir string, stdout io.Writer) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	for i, it := range items {
		if err := ctx.Err(); err != nil {
			return err
		}
		img, err := p.Render(it.Content)
		if err != nil {
			return fmt.Errorf("item %d: render: %w", i, err)
		}
		path := filepath.Join(outDir, names[i]+".png")
		if err := atomicfile.WriteFunc(path, 0o644, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
			return err
		}
		fmt.Fprintln(stdout, path)
	}
	return nil
}

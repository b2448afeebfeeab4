package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"pcgwb/games/birds"
	"pcgwb/internal/safeio"
)

// maxPromptFile bounds a prompt file read by `birds qualify`.
const maxPromptFile = 4 << 20

func birdsQualifyCommand() *Command {
	return &Command{Name: "qualify", Args: []string{"PROMPT..."},
		Short: "PROMPT...: the 2023 qualification check (≤ 900 words as the organisers counted, allowed characters, <OBJECT>); exit 1 if one fails",
		Setup: func(fs *flag.FlagSet) Runner {
			asJSON := fs.Bool("json", false, "print the results as JSON")
			return func(_ context.Context, args []string, io IO) error {
				type row struct {
					File string `json:"file"`
					*birds.Qualification
					Disallowed []string `json:"disallowedCodepoints"`
					Reasons    []string `json:"reasons"`
				}
				var rows []row
				failed := 0
				for _, path := range args {
					data, err := safeio.ReadFile(path, maxPromptFile)
					if err != nil {
						return usageError{err.Error()}
					}
					q := birds.Qualify(string(data))
					r := row{File: path, Qualification: q, Disallowed: []string{}, Reasons: q.Reasons()}
					for _, c := range q.Disallowed {
						r.Disallowed = append(r.Disallowed, fmt.Sprintf("U+%04X", c))
					}
					if r.Reasons == nil {
						r.Reasons = []string{}
					}
					if !q.Qualified {
						failed++
					}
					rows = append(rows, r)
				}
				if *asJSON {
					if err := writeJSON(io.Stdout, rows); err != nil {
						return err
					}
				} else {
					for _, r := range rows {
						verdict := "qualified"
						if !r.Qualified {
							verdict = "NOT qualified: " + strings.Join(r.Reasons, ", ")
						}
						fmt.Fprintf(io.Stdout, "%s: %d words, %d characters, <OBJECT> %v, disallowed [%s]: %s\n",
							r.File, r.Words, r.Chars, r.HasObject, strings.Join(r.Disallowed, " "), verdict)
					}
				}
				if failed > 0 {
					return fmt.Errorf("%d of %d prompts do not qualify", failed, len(rows))
				}
				return nil
			}
		}}
}

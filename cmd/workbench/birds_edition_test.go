package main

import (
	"strings"
	"testing"

	"pcgwb/games/birds"
)

// Every birds command with --edition lists the editions table in its help and takes exactly
// its editions: one not in the table is bad input (exit 2) naming those that are.
func TestBirdsEditionFlagListsTheTable(t *testing.T) {
	empty := t.TempDir()
	for _, cmd := range []string{"evaluate", "extract", "classify", "score", "report", "compare", "prompt"} {
		code, out, errs := runCLI(t, "birds", cmd, "--help")
		help := out + errs
		for _, r := range birds.Editions() {
			if !strings.Contains(help, r.Name+" ("+r.Competition+": "+r.Summary+")") {
				t.Errorf("birds %s --help (exit %d) does not list edition %s:\n%s", cmd, code, r.Name, help)
			}
		}
		code, _, errs = runCLI(t, "birds", cmd, "--edition", "2022", empty, empty)
		if code != 2 || !strings.Contains(errs, `unknown competition rules "2022" (`+birds.EditionNames()+")") {
			t.Errorf("birds %s --edition 2022: exit %d: %s", cmd, code, errs)
		}
	}
	// Each edition of the table parses: the command goes on to the folder (and refuses it).
	for _, r := range birds.Editions() {
		if code, _, errs := runCLI(t, "birds", "score", "--edition", r.Name, empty); code != 2 || !strings.Contains(errs, "no team folder") {
			t.Errorf("score --edition %s: exit %d: %s", r.Name, code, errs)
		}
	}
}

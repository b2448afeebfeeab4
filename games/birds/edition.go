package birds

import (
	"fmt"
	"strconv"
	"strings"
)

// Edition selects the rules of a competition year. What each year's rules are is a row of
// the editions table (EditionRules): the pipeline, the scoring and both shells read the row's
// fields and never test which year it is. docs/recipes/birds-edition.md says how to add one.
type Edition int

const (
	// Edition2023: weight = w_sta·w_sim, letter score without diversity, and stability and
	// similarity paired by list position in their files, not by trial number (the scoring
	// script of the time did so; trials missing in one file shift the pairing).
	Edition2023 Edition = 2023
	// Edition2024: diversity from softmax vectors enters the weights and the letter score;
	// trials are paired by the number in their file names.
	Edition2024 Edition = 2024
	// Edition2025: as 2024 with class-token embeddings for diversity, per model; see ScoreModels.
	Edition2025 Edition = 2025
)

// DefaultEdition is the edition of a zero Edition in the options, and the shells' default.
const DefaultEdition = Edition2024

// DiversityRule is how (and whether) a letter's diversity is measured and scored.
type DiversityRule int

const (
	// NoDiversity: no diversity stage; the weight is w_sta·w_sim and the letter score has no
	// diversity factor; the result files have no diversity column.
	NoDiversity DiversityRule = iota
	// SoftmaxDiversity: diversity from the classifier's softmax vectors (A..Z order) enters
	// the weight (·w_div) and the letter score (·diversity).
	SoftmaxDiversity
	// EmbeddingDiversity: as SoftmaxDiversity, from the classifier's class-token embeddings,
	// which the similarity files then carry (cls_embedding).
	EmbeddingDiversity
)

// EditionRules is one row of the editions table: everything in which a competition year's
// rules differ from another's. A field's zero value is the behaviour of the years that do not
// have the rule, so a new field changes no existing row.
type EditionRules struct {
	Edition Edition
	// Name is what `--edition` and the Birds tab's Rules chooser take and show: "2024".
	Name string
	// Competition names the event: "ChatGPT4PCG 2024".
	Competition string
	// Summary is the one-line description of help texts: "ab_drop, no diversity".
	Summary string
	// Function is the name of the call the answers stack blocks with: DropBlock or AbDrop.
	Function string
	// QuoteLetter: <OBJECT> in a prompt is replaced by the quoted letter ("A"), not the bare one.
	QuoteLetter bool
	// Diversity is how diversity is measured and whether it is scored.
	Diversity DiversityRule
	// PairByPosition: a trial's stability and similarity are paired by their position in
	// their files (the 2023 script), not by the trial number in the file names.
	PairByPosition bool
	// PerModel: the programs run on several models; each model's folder is a competition of
	// its own and a team's total is the sum over the models (ScoreModels). Only such editions
	// score several folders together.
	PerModel bool
	// TrialScoreColumn is the score column's header in trial_scores.csv as the year's script
	// wrote it ("trial_Score" in 2023, "trial_score" since).
	TrialScoreColumn string
}

// HasDiversity reports whether the edition measures and scores diversity.
func (r EditionRules) HasDiversity() bool { return r.Diversity != NoDiversity }

// editions is the table, oldest first. Adding a year is adding a row (and, for a rule no
// field expresses yet, a field): see docs/recipes/birds-edition.md.
var editions = []EditionRules{
	{Edition: Edition2023, Name: "2023", Competition: "ChatGPT4PCG 2023", Summary: "ab_drop, no diversity",
		Function: AbDrop, QuoteLetter: true, Diversity: NoDiversity, PairByPosition: true, TrialScoreColumn: "trial_Score"},
	{Edition: Edition2024, Name: "2024", Competition: "ChatGPT4PCG 2024", Summary: "drop_block, softmax diversity",
		Function: DropBlock, Diversity: SoftmaxDiversity, TrialScoreColumn: "trial_score"},
	{Edition: Edition2025, Name: "2025", Competition: "LLMs4PCG 2025", Summary: "drop_block, embedding diversity, three models",
		Function: DropBlock, Diversity: EmbeddingDiversity, PerModel: true, TrialScoreColumn: "trial_score"},
}

// Editions lists the editions the workbench knows, oldest first (a copy: the table is not
// changed through it). Both shells list their choices from it.
func Editions() []EditionRules { return append([]EditionRules(nil), editions...) }

// EditionNames are the editions' names, "2023, 2024 or 2025", for messages and help texts.
func EditionNames() string {
	var names []string
	for _, r := range editions {
		names = append(names, r.Name)
	}
	return orList(names)
}

// orList joins "a", "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// ParseEdition reads an edition's name ("2024"), surrounding spaces ignored. An edition not in
// the table is an error that lists those that are.
func ParseEdition(s string) (Edition, error) {
	s = strings.TrimSpace(s)
	for _, r := range editions {
		if r.Name == s {
			return r.Edition, nil
		}
	}
	if len(s) > 20 {
		s = s[:20] + "…"
	}
	return 0, fmt.Errorf("unknown competition rules %q (%s)", s, EditionNames())
}

// Lookup returns the edition's row; ok is false for an edition not in the table. A zero
// Edition is DefaultEdition.
func (e Edition) Lookup() (EditionRules, bool) {
	e = e.orDefault()
	for _, r := range editions {
		if r.Edition == e {
			return r, true
		}
	}
	return EditionRules{}, false
}

// Rules is the edition's row. An edition not in the table (the shells accept none: they parse
// with ParseEdition) is scored by DefaultEdition's rules under its own number, as it always was.
func (e Edition) Rules() EditionRules {
	if r, ok := e.Lookup(); ok {
		return r
	}
	r, _ := DefaultEdition.Lookup()
	r.Edition, r.Name = e, strconv.Itoa(int(e))
	return r
}

// orDefault is DefaultEdition for a zero Edition.
func (e Edition) orDefault() Edition {
	if e == 0 {
		return DefaultEdition
	}
	return e
}

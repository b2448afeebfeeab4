package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"text/template"
)

// EvolveCommonTemplate holds the shared parts of the evolution prompts (mutate, crossover).
const EvolveCommonTemplate = "evolve-common"

// EvolveSuffix names a problem family's evolution template: "<family>-evolve.tmpl".
const EvolveSuffix = "-evolve"

// EvolvePrompt is the prompt set of the LLM-guided evolution generators: the problem's own
// template (for its tile legend and format), common.tmpl, evolve-common.tmpl and the
// problem's <name>-evolve.tmpl, found like problem templates (Candidates) in the user's folder
// first, then in the embedded set.
type EvolvePrompt struct {
	// Base is the problem's generation prompt, whose legend writes and reads levels.
	Base *Prompt
	// Name and Origin are the evolution template's.
	Name, Origin string
	// Hash covers every text the prompts are made of (the base prompt's included).
	Hash string
	tmpl *template.Template
}

// LoadEvolve parses the evolution prompts for a problem; base names the problem template
// ("" for the problem's own).
func (t Templates) LoadEvolve(problem, base string) (*EvolvePrompt, error) {
	bp, err := t.Load(problem, base)
	if err != nil {
		return nil, err
	}
	var name, text, origin string
	for _, n := range Candidates(problem) {
		text, origin, err = t.Read(n + EvolveSuffix)
		if err == nil {
			name = n + EvolveSuffix
			break
		}
		if !errors.Is(err, errNoTemplate) {
			return nil, err
		}
	}
	if name == "" {
		return nil, fmt.Errorf("no evolution prompt template for %s", problem)
	}
	root, common, userCommon, err := t.commonRoot()
	if err != nil {
		return nil, err
	}
	ecText, ecOrigin, err := t.Read(EvolveCommonTemplate)
	if err != nil {
		return nil, err
	}
	if _, err := root.New(EvolveCommonTemplate).Parse(ecText); err != nil {
		return nil, fmt.Errorf("%s: %w", ecOrigin, err)
	}
	if _, err := root.New(mainTemplate).Parse(text); err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	for _, need := range []string{OpMutate, OpCrossover} {
		if root.Lookup(need) == nil {
			return nil, fmt.Errorf("%s: no %q template defined", origin, need)
		}
	}
	sum := sha256.Sum256([]byte(bp.Hash + "\x00" + common + "\x00" + userCommon + "\x00" + ecText + "\x00" + text))
	return &EvolvePrompt{Base: bp, Name: name, Origin: origin, Hash: hex.EncodeToString(sum[:]), tmpl: root}, nil
}

// The operators' template names.
const (
	OpMutate    = "mutate"
	OpCrossover = "crossover"
)

// EvolveData is what the evolution templates see, besides the problem's PromptData.
type EvolveData struct {
	*PromptData
	// Operator is OpMutate or OpCrossover.
	Operator string
	Parents  []ParentData
	// Fitness is the run's fitness name; Archive is set for MAP-Elites, whose Axes are named.
	Fitness string
	Archive bool
	Axes    []string
}

// ParentData is one parent as the prompt shows it.
type ParentData struct {
	// Text is the level written in the problem's format.
	Text                                         string
	Quality, Controllability, Diversity, Fitness float64
	// Features are the MAP-Elites fields and their values, Cell the archive cell as "x,y" ("").
	Features []Feature
	Cell     string
}

// Feature is one MAP-Elites coordinate of a parent.
type Feature struct {
	Field string
	Value float64
}

// Messages renders the opening conversation of one variation.
func (p *EvolvePrompt) Messages(d *EvolveData) ([]Message, error) {
	return opening(p.tmpl, p.Name, d.Operator, d, fmt.Errorf("prompt %s: %q renders an empty message", p.Name, d.Operator))
}

// evolveRepairData is what "repair" sees in an evolution conversation.
type evolveRepairData struct {
	*EvolveData
	Error string
	Reply string
}

// Repair renders the re-ask after an invalid reply.
func (p *EvolvePrompt) Repair(d *EvolveData, reply string, problem error) (string, error) {
	return reask(p.tmpl, p.Name, evolveRepairData{EvolveData: d, Error: problem.Error(), Reply: reply}, problem)
}

package llm

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"text/template"

	"pcgwb/assets"
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
	common, err := fs.ReadFile(assets.Prompts(), CommonTemplate+".tmpl")
	if err != nil {
		return nil, err
	}
	root := template.New(CommonTemplate).Funcs(templateFuncs).Option("missingkey=error")
	if _, err := root.Parse(string(common)); err != nil {
		return nil, fmt.Errorf("embedded common.tmpl: %w", err)
	}
	userCommon := ""
	if text, origin, err := t.Read(CommonTemplate); err == nil && !strings.HasPrefix(origin, "embedded:") {
		if _, err := root.New(CommonTemplate + "-user").Parse(text); err != nil {
			return nil, fmt.Errorf("%s: %w", origin, err)
		}
		userCommon = text
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
	sum := sha256.Sum256([]byte(bp.Hash + "\x00" + string(common) + "\x00" + userCommon + "\x00" + ecText + "\x00" + text))
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

func (p *EvolvePrompt) exec(name string, data any) (string, error) {
	if p.tmpl.Lookup(name) == nil {
		return "", nil
	}
	var buf bytes.Buffer
	if err := p.tmpl.ExecuteTemplate(&buf, name, data); err != nil {
		return "", fmt.Errorf("prompt %s: %w", p.Name, err)
	}
	return strings.TrimSpace(buf.String()), nil
}

// Messages renders the opening conversation of one variation.
func (p *EvolvePrompt) Messages(d *EvolveData) ([]Message, error) {
	sys, err := p.exec("system", d)
	if err != nil {
		return nil, err
	}
	user, err := p.exec(d.Operator, d)
	if err != nil {
		return nil, err
	}
	if user == "" {
		return nil, fmt.Errorf("prompt %s: %q renders an empty message", p.Name, d.Operator)
	}
	var out []Message
	if sys != "" {
		out = append(out, Message{Role: RoleSystem, Content: sys})
	}
	return append(out, Message{Role: RoleUser, Content: user}), nil
}

// evolveRepairData is what "repair" sees in an evolution conversation.
type evolveRepairData struct {
	*EvolveData
	Error string
	Reply string
}

// Repair renders the re-ask after an invalid reply.
func (p *EvolvePrompt) Repair(d *EvolveData, reply string, problem error) (string, error) {
	msg, err := p.exec("repair", evolveRepairData{EvolveData: d, Error: problem.Error(), Reply: reply})
	if err != nil {
		return "", err
	}
	if msg == "" {
		msg = "That answer was not valid: " + problem.Error() + " Please answer again."
	}
	return msg, nil
}

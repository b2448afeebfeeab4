package llm

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"pcgwb/assets"
	"pcgwb/internal/safeio"
	"pcgwb/problems"
	"pcgwb/problems/space"
)

// Prompt templates are text/template files named <name>.tmpl. For a problem the first that
// exists of <problem>.tmpl ("zelda-large-v0"), <problem without -v0>.tmpl ("zelda-large") and
// <family>.tmpl ("zelda") is used, else generic.tmpl, which works for any problem from its
// content space. Each is parsed together with common.tmpl, whose named templates ("format",
// "examples", "control", "answer", "system", "repair") it can use or redefine. A folder given
// by the user is searched before the embedded set, file by file, so overriding one problem's
// prompt (or only common.tmpl) is a matter of copying that one file.
//
// The executed templates are: the file's body (the first user message), "system" (the system
// message; empty for none) and "repair" (the re-ask after an invalid reply, with .Error and
// .Reply). A tile-map template declares the characters it uses in a comment:
//
//	{{/* tiles
//	0 # solid wall
//	1 . empty floor
//	*/}}
//
// which the parser then reads back from replies.

var errNoTemplate = errors.New("no prompt template")

// CommonTemplate is the file every prompt is parsed with.
const CommonTemplate = "common"

// GenericTemplate is the fallback for problems without their own template.
const GenericTemplate = "generic"

// Templates finds prompt templates in a user folder (optional) and then in the embedded set.
type Templates struct {
	// Dir is searched first; empty for the embedded set only.
	Dir string
}

// maxTemplateBytes bounds a prompt template read from a --prompts folder.
const maxTemplateBytes = 1 << 20

// Read returns a template's text and where it came from.
func (t Templates) Read(name string) (text, origin string, err error) {
	file := name + ".tmpl"
	if t.Dir != "" {
		p := filepath.Join(t.Dir, file)
		b, err := safeio.ReadFile(p, maxTemplateBytes)
		if err == nil {
			return string(b), p, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", "", err
		}
	}
	b, err := fs.ReadFile(assets.Prompts(), file)
	if err != nil {
		return "", "", fmt.Errorf("%w %q", errNoTemplate, file)
	}
	return string(b), "embedded:" + file, nil
}

// Names lists the templates available (user folder and embedded), without ".tmpl".
func (t Templates) Names() []string {
	seen := map[string]bool{}
	add := func(fsys fs.FS) {
		entries, _ := fs.ReadDir(fsys, ".")
		for _, e := range entries {
			if n, ok := strings.CutSuffix(e.Name(), ".tmpl"); ok && !e.IsDir() {
				seen[n] = true
			}
		}
	}
	if t.Dir != "" {
		add(os.DirFS(t.Dir))
	}
	add(assets.Prompts())
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Candidates lists the template names tried for a problem, most specific first.
func Candidates(problem string) []string {
	out := []string{problem}
	if base, ok := strings.CutSuffix(problem, "-v0"); ok {
		out = append(out, base)
	}
	if fam := string(problems.FamilyOf(problem)); fam != out[len(out)-1] {
		out = append(out, fam)
	}
	return append(out, GenericTemplate)
}

// Load parses the prompt for a problem, or the named template when name is not empty.
func (t Templates) Load(problem, name string) (*Prompt, error) {
	names := Candidates(problem)
	if name != "" {
		names = []string{name}
	}
	for _, n := range names {
		text, origin, err := t.Read(n)
		if err != nil {
			if name != "" || !errors.Is(err, errNoTemplate) {
				return nil, err
			}
			continue
		}
		return t.parse(n, text, origin)
	}
	return nil, fmt.Errorf("no prompt template for %s", problem)
}

// Parse builds a prompt from a template text (the GUI's editor), with common.tmpl from t.
func (t Templates) Parse(name, text string) (*Prompt, error) { return t.parse(name, text, "editor") }

func (t Templates) parse(name, text, origin string) (*Prompt, error) {
	legend, err := ParseLegend(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	root, common, userCommon, err := t.commonRoot()
	if err != nil {
		return nil, err
	}
	if _, err := root.New(mainTemplate).Parse(text); err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	sum := sha256.Sum256([]byte(common + "\x00" + userCommon + "\x00" + text))
	return &Prompt{Name: name, Origin: origin, Legend: legend, Text: text, Hash: hex.EncodeToString(sum[:]), tmpl: root}, nil
}

// commonRoot starts a prompt set: the embedded common.tmpl first, then the user's on top of
// it, so a user's common.tmpl redefines only the parts it contains. It returns both texts
// ("" when the user has none), which a prompt's hash covers.
func (t Templates) commonRoot() (root *template.Template, common, userCommon string, err error) {
	embedded, err := fs.ReadFile(assets.Prompts(), CommonTemplate+".tmpl")
	if err != nil {
		return nil, "", "", err
	}
	root = template.New(CommonTemplate).Funcs(templateFuncs).Option("missingkey=error")
	if _, err := root.Parse(string(embedded)); err != nil {
		return nil, "", "", fmt.Errorf("embedded common.tmpl: %w", err)
	}
	if text, origin, err := t.Read(CommonTemplate); err == nil && !strings.HasPrefix(origin, "embedded:") {
		if _, err := root.New(CommonTemplate + "-user").Parse(text); err != nil {
			return nil, "", "", fmt.Errorf("%s: %w", origin, err)
		}
		userCommon = text
	}
	return root, string(embedded), userCommon, nil
}

const mainTemplate = "main"

// Prompt is a parsed template set for one problem.
type Prompt struct {
	// Name is the template's name (without .tmpl), Origin its file or "embedded:...".
	Name, Origin string
	Legend       Legend
	// Text is the template's source.
	Text string
	// Hash is the SHA-256 of everything the prompt is made of (common parts included), so a
	// run records exactly which templates it used.
	Hash string
	tmpl *template.Template
}

// render executes the template called name of the prompt set t (named prompt in errors),
// trimmed; a template the set does not define renders "".
func render(t *template.Template, prompt, name string, data any) (string, error) {
	if t.Lookup(name) == nil {
		return "", nil
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, name, data); err != nil {
		return "", fmt.Errorf("prompt %s: %w", prompt, err)
	}
	return strings.TrimSpace(buf.String()), nil
}

// opening renders an opening conversation of the prompt set t: the "system" message (when
// the set defines one) and the user message of template user, which must not be empty (the
// error is then empty's).
func opening(t *template.Template, prompt, user string, data any, empty error) ([]Message, error) {
	sys, err := render(t, prompt, "system", data)
	if err != nil {
		return nil, err
	}
	msg, err := render(t, prompt, user, data)
	if err != nil {
		return nil, err
	}
	if msg == "" {
		return nil, empty
	}
	var out []Message
	if sys != "" {
		out = append(out, Message{Role: RoleSystem, Content: sys})
	}
	return append(out, Message{Role: RoleUser, Content: msg}), nil
}

// reask renders the "repair" template of the prompt set t with data (which carries the
// error and the reply), or a plain re-ask naming the problem when the set has none.
func reask(t *template.Template, prompt string, data any, problem error) (string, error) {
	msg, err := render(t, prompt, "repair", data)
	if err != nil {
		return "", err
	}
	if msg == "" {
		msg = "That answer was not valid: " + problem.Error() + " Please answer again."
	}
	return msg, nil
}

// Messages renders the opening conversation: the system message (if the template has one)
// and the user message.
func (p *Prompt) Messages(data *PromptData) ([]Message, error) {
	return opening(p.tmpl, p.Name, mainTemplate, data, fmt.Errorf("prompt %s renders an empty message", p.Name))
}

// RepairData is what the "repair" template sees.
type RepairData struct {
	*PromptData
	Error string
	Reply string
}

// Repair renders the re-ask after an invalid reply.
func (p *Prompt) Repair(data *PromptData, reply string, problem error) (string, error) {
	return reask(p.tmpl, p.Name, RepairData{PromptData: data, Error: problem.Error(), Reply: reply}, problem)
}

// PromptData is what a prompt template sees.
type PromptData struct {
	// Problem is the registered name ("zelda-v0"), Family its problems.FamilyOf ("zelda").
	Problem, Family string
	// Description is the problem's own summary (problems.Describer), or "".
	Description string
	Params      problems.Params
	// Format says what a content looks like (FormatDescription).
	Format string
	// Rows and Cols are set for 2-D tile maps, Length for 1-D arrays.
	Rows, Cols, Length int
	Tiles              Legend
	// Examples are the example levels shown, best first.
	Examples []Example
	// Control is the control target ("" when the prompt does not ask for one): ControlText
	// in words, Control as JSON.
	Control, ControlText string
	// ControlValues is the control target itself ({{.ControlValues.path}}), nil when not asked.
	ControlValues map[string]any
	// ControlFormat describes the control space.
	ControlFormat string
	space         space.Space
}

// Example is one example level as the prompt shows it.
type Example struct {
	// Text is the content written as the model should answer (FormatContent).
	Text    string
	Quality float64
	// Content is the normalized content.
	Content any `json:"-"`
}

// NewPromptData describes a problem for its templates (without examples or control).
func NewPromptData(name string, p problems.Problem, legend Legend) *PromptData {
	d := &PromptData{Problem: name, Tiles: legend, space: p.ContentSpace()}
	d.Family = string(problems.FamilyOf(name))
	if e, ok := problems.Lookup(name); ok {
		d.Params = e.Params
	}
	if ds, ok := p.(problems.Describer); ok {
		d.Description = ds.Description()
	}
	d.Format = FormatDescription(p.ContentSpace(), legend)
	d.ControlFormat = FormatDescription(p.ControlSpace(), nil)
	if a, ok := p.ContentSpace().(space.Array); ok {
		switch len(a.Dims) {
		case 1:
			d.Length = a.Dims[0]
		case 2:
			d.Rows, d.Cols = a.Dims[0], a.Dims[1]
		}
	}
	return d
}

// WithControl returns a copy asking for the control target c.
func (d *PromptData) WithControl(c any) *PromptData {
	cp := *d
	b, _ := json.Marshal(c)
	cp.Control = string(b)
	cp.ControlText = controlText(c)
	cp.ControlValues, _ = c.(map[string]any)
	return &cp
}

// WithExamples returns a copy showing the examples.
func (d *PromptData) WithExamples(ex []Example) *PromptData {
	cp := *d
	cp.Examples = ex
	return &cp
}

// FormatContent writes a content as this prompt shows levels.
func (d *PromptData) FormatContent(v any) string { return FormatContent(v, d.space, d.Tiles) }

func controlText(c any) string {
	m, ok := c.(map[string]any)
	if !ok {
		b, _ := json.Marshal(c)
		return string(b)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		b, _ := json.Marshal(m[k])
		parts[i] = fmt.Sprintf("%s = %s", k, b)
	}
	return strings.Join(parts, ", ")
}

var templateFuncs = template.FuncMap{
	"json": func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	},
	"add":     func(a, b any) int { return toInt(a) + toInt(b) },
	"sub":     func(a, b any) int { return toInt(a) - toInt(b) },
	"mul":     func(a, b any) int { return toInt(a) * toInt(b) },
	"percent": func(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) },
	"fixed":   func(f float64) string { return fmt.Sprintf("%.2f", f) },
	"indent": func(n int, s string) string {
		pad := strings.Repeat(" ", n)
		return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
	},
	"param": func(p problems.Params, key string) any { return p[key] },
	"imperfect": func(ex []Example) bool {
		for _, e := range ex {
			if e.Quality < 1 {
				return true
			}
		}
		return false
	},
}

// toInt reads the numbers templates meet: ints, and floats from JSON-decoded parameters.
func toInt(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case float64:
		return int(x)
	case json.Number:
		n, _ := x.Int64()
		return int(n)
	}
	return 0
}

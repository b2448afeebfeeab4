package script

import (
	"bytes"
	"errors"
	"fmt"
	"pcgwb/games/duel/core"
	"regexp"
	"runtime"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// MaxActions caps NUM_ACTIONS. It replaces gg-bench's regular expression against exponentially
// large action spaces (spec §15.2).
const MaxActions = 512

// MaxObsSize caps OBS_SIZE.
const MaxObsSize = 4096

const (
	maxRender = 64 << 10 // bytes of one render
	MaxLabel  = 200      // bytes of one action label
	maxNest   = 100      // syntax nesting depth
	maxLog    = 4 << 10  // bytes of print() output kept per game
)

// MaxTitle and MaxRules bound a script's TITLE and RULES: they are shown in the GUI and sent to
// language models, so a script cannot make either do script-sized work (a rulebook of gg-bench
// is a few KiB). A longer one is a load fault.
const (
	MaxTitle = 256
	MaxRules = 16 << 10
)

// fileOptions are the Starlark dialect of game scripts: no while loops, no recursion and no
// reassignment of globals (spec §15.3), so a script is a bounded, pure function of its input;
// sets and top-level for/if are allowed for building tables.
var fileOptions = &syntax.FileOptions{
	Set:             true,
	While:           false,
	TopLevelControl: true,
	GlobalReassign:  false,
	Recursion:       false,
}

// The contract functions, in a fixed order.
const (
	fnInitial = iota
	fnToMove
	fnLegal
	fnApply
	fnOutcome
	fnObserve
	fnRender
	fnLabel
	fnCells
	numFns
)

var contractFns = [numFns]struct {
	name  string
	arity int
}{
	{"initial_state", 1},
	{"to_move", 1},
	{"legal_actions", 1},
	{"apply", 2},
	{"outcome", 1},
	{"observe", 2},
	{"render", 1},
	{"action_label", 2},
	{"action_cells", 2},
}

// Program is a compiled game script. It is safe for concurrent use; each goroutine plays on its
// own instance from New.
type Program struct {
	name   string
	prog   *starlark.Program
	limits Limits
	sizes  sizeLimits
	source []byte
}

// Compile parses, checks and compiles a game script. Every error is a *Fault of kind
// FaultLoad.
func Compile(name string, src []byte, lim Limits) (p *Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, &core.Fault{Kind: core.FaultLoad, Msg: fmt.Sprintf("compiler panic: %v", r)}
		}
	}()
	lim = lim.WithDefaults()
	if len(src) > lim.MaxSource {
		return nil, &core.Fault{Kind: core.FaultLoad, Msg: fmt.Sprintf("script of %d bytes exceeds the limit of %d", len(src), lim.MaxSource)}
	}
	if d := bracketDepth(src); d > maxNest {
		return nil, &core.Fault{Kind: core.FaultLoad, Msg: fmt.Sprintf("brackets nested %d deep (limit %d)", d, maxNest)}
	}
	f, err := fileOptions.Parse(name, src, 0)
	if err != nil {
		return nil, &core.Fault{Kind: core.FaultLoad, Msg: err.Error() + explainParseError(src, err), Err: err}
	}
	for _, s := range f.Stmts {
		if l, ok := s.(*syntax.LoadStmt); ok {
			pos, _ := l.Span()
			return nil, &core.Fault{Kind: core.FaultLoad, Msg: fmt.Sprintf("%s: load() is not available: a game is one self-contained file", pos)}
		}
	}
	if err := rewriteFile(f, 4*maxNest); err != nil {
		return nil, &core.Fault{Kind: core.FaultLoad, Msg: err.Error(), Err: err}
	}
	pre := guardBuiltins()
	prog, err := starlark.FileProgram(f, pre.Has)
	if err != nil {
		return nil, &core.Fault{Kind: core.FaultLoad, Msg: err.Error(), Err: err}
	}
	return &Program{
		name:   name,
		prog:   prog,
		limits: lim,
		sizes:  sizeLimits{maxElems: lim.MaxElems, maxString: lim.MaxString, maxIntBits: lim.MaxIntBits},
		source: bytes.Clone(src),
	}, nil
}

// bracketDepth is the deepest nesting of brackets outside strings and comments; the parser
// recurses once per level, so absurd nesting is rejected before parsing.
func bracketDepth(src []byte) int {
	depth, deepest := 0, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case '"', '\'':
			if i+2 < len(src) && src[i+1] == c && src[i+2] == c {
				end := bytes.Index(src[i+3:], []byte{c, c, c})
				if end < 0 {
					return deepest
				}
				i += 3 + end + 2
				continue
			}
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '(', '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ')', ']', '}':
			depth--
		}
	}
	return deepest
}

// Name is the game's name (the file name without its extension, or the built-in's name).
func (p *Program) Name() string { return p.name }

// Source is the script text.
func (p *Program) Source() []byte { return p.source }

// Limits are the sandbox limits the program runs under.
func (p *Program) Limits() Limits { return p.limits }

// Load compiles a script and makes one instance of it.
func Load(name string, src []byte, lim Limits) (*ScriptGame, error) {
	p, err := Compile(name, src, lim)
	if err != nil {
		return nil, err
	}
	return p.New()
}

// ScriptGame is one instance of a game script: its frozen globals and the Starlark thread that
// runs its calls. Not safe for concurrent use; Clone makes another instance.
type ScriptGame struct {
	prog   *Program
	thread *starlark.Thread
	slot   *callSlot
	fns    [numFns]starlark.Callable
	info   core.Info
	dirty  bool // the thread was cancelled and must be reset before the next call
	// stuckLoses: STUCK_LOSES = True, a player with no legal move loses
	stuckLoses bool
	log        *strings.Builder
	cleanup    runtime.Cleanup
}

// New initialises an instance: it runs the script's top level under the call limits and checks
// that the contract's names are defined with the right kinds.
func (p *Program) New() (*ScriptGame, error) {
	// The thread (reachable from the watchdog) must not reach g, or g would never be
	// collected and its cleanup never run: print writes to a buffer of its own.
	log := new(strings.Builder)
	g := &ScriptGame{prog: p, log: log}
	th := &starlark.Thread{Name: p.name}
	th.Print = func(_ *starlark.Thread, msg string) {
		if log.Len() < maxLog {
			log.WriteString(msg)
			log.WriteByte('\n')
		}
	}
	sizes := p.sizes
	th.SetLocal(limitsKey, &sizes)
	g.thread = th
	g.slot = &callSlot{thread: th, callTime: p.limits.CallTime, memory: p.limits.Memory}
	th.OnMaxSteps = g.slot.onMaxSteps
	registerSlot(g.slot)
	g.cleanup = runtime.AddCleanup(g, unregisterSlot, g.slot)

	var globals starlark.StringDict
	err := g.guard("<module>", func() error {
		var err error
		globals, err = p.prog.Init(th, guardBuiltins())
		return err
	})
	if err != nil {
		g.Close()
		f := core.FaultOf(err)
		if f.Kind == core.FaultScript {
			f.Kind = core.FaultLoad
		}
		return nil, f
	}
	globals.Freeze()
	if err := g.bind(globals); err != nil {
		g.Close()
		return nil, err
	}
	return g, nil
}

func (g *ScriptGame) bind(globals starlark.StringDict) error {
	loadf := func(format string, a ...any) error {
		return &core.Fault{Kind: core.FaultLoad, Msg: fmt.Sprintf(format, a...)}
	}
	g.info = core.Info{Name: g.prog.name}
	for i, c := range contractFns {
		v, ok := globals[c.name]
		if !ok && (i == fnObserve || i == fnCells) {
			continue // optional: Observe then answers the empty vector, cells come from labels
		}
		if !ok {
			return loadf("the script does not define %s()", c.name)
		}
		fn, ok := v.(*starlark.Function)
		if !ok {
			return loadf("%s is a %s, not a function", c.name, v.Type())
		}
		positional := fn.NumParams() - fn.NumKwonlyParams()
		if fn.HasVarargs() {
			positional--
		}
		if fn.HasKwargs() {
			positional--
		}
		required := 0
		for j := 0; j < positional; j++ {
			if fn.ParamDefault(j) == nil {
				required++
			}
		}
		if required > c.arity || (positional < c.arity && !fn.HasVarargs()) {
			return loadf("%s must take %d argument(s), it takes %d", c.name, c.arity, required)
		}
		g.fns[i] = fn
	}
	intConst := func(name string, lo, hi int) (int, error) {
		v, ok := globals[name]
		if !ok {
			return 0, loadf("the script does not define %s", name)
		}
		n, ok := v.(starlark.Int)
		if !ok {
			return 0, loadf("%s is a %s, not an int", name, v.Type())
		}
		k, ok := n.Int64()
		if !ok || k < int64(lo) || k > int64(hi) {
			return 0, loadf("%s = %s is outside [%d, %d]", name, n, lo, hi)
		}
		return int(k), nil
	}
	var err error
	if g.info.NumActions, err = intConst("NUM_ACTIONS", 1, MaxActions); err != nil {
		return err
	}
	if _, ok := globals["OBS_SIZE"]; ok || g.fns[fnObserve] != nil {
		if g.info.ObsSize, err = intConst("OBS_SIZE", 0, MaxObsSize); err != nil {
			return err
		}
	}
	if v, ok := globals["STUCK_LOSES"]; ok {
		b, ok := v.(starlark.Bool)
		if !ok {
			return loadf("STUCK_LOSES is a %s, not True or False", v.Type())
		}
		g.stuckLoses = bool(b)
	}
	if v, ok := globals["PLAYERS"]; ok {
		seq, ok := v.(starlark.Indexable)
		if _, isStr := v.(starlark.String); !ok || isStr || seq.Len() != 2 {
			return loadf("PLAYERS must be a list or tuple of the two players' names, first mover first")
		}
		for i := 0; i < 2; i++ {
			name, ok := seq.Index(i).(starlark.String)
			if !ok || name == "" || len(name) > MaxLabel {
				return loadf("PLAYERS[%d] must be a non-empty string of at most %d bytes", i, MaxLabel)
			}
			g.info.Players[i] = string(name)
		}
		if g.info.Players[0] == g.info.Players[1] {
			return loadf("PLAYERS names both players %q", g.info.Players[0])
		}
	}
	for _, f := range []struct {
		name  string
		dst   *string
		limit int
	}{{"TITLE", &g.info.Title, MaxTitle}, {"RULES", &g.info.Rules, MaxRules}} {
		if v, ok := globals[f.name]; ok {
			s, ok := v.(starlark.String)
			if !ok {
				return loadf("%s is a %s, not a string", f.name, v.Type())
			}
			if len(s) > f.limit {
				return loadf("%s is %d bytes, the limit is %d", f.name, len(s), f.limit)
			}
			*f.dst = string(s)
		}
	}
	return nil
}

// Clone makes another instance of the same program, for use on another goroutine. States of
// one instance are valid in every other.
func (g *ScriptGame) Clone() (*ScriptGame, error) { return g.prog.New() }

// Program is the compiled script this instance runs.
func (g *ScriptGame) Program() *Program { return g.prog }

// Close releases the instance's watchdog registration. Using the game afterwards still works
// but is no longer stopped by the wall-time and memory limits.
func (g *ScriptGame) Close() {
	g.cleanup.Stop()
	unregisterSlot(g.slot)
}

// Log is what the script printed (bounded), for debugging and repair prompts.
func (g *ScriptGame) Log() string { return g.log.String() }

// Steps is the number of Starlark steps this instance has executed.
func (g *ScriptGame) Steps() uint64 { return g.thread.Steps }

// Info describes the game.
func (g *ScriptGame) Info() core.Info { return g.info }

// guard runs one call of script code under the per-call limits and turns whatever goes wrong,
// including a Go panic below the script, into a *Fault.
func (g *ScriptGame) guard(fn string, body func() error) (err error) {
	g.begin()
	defer g.end(fn, &err)
	return body()
}

// begin arms the limits for one call.
func (g *ScriptGame) begin() {
	th := g.thread
	if g.dirty {
		th.Uncancel()
		g.slot.stopped.Store(nil)
		g.dirty = false
	}
	g.slot.arm(g.prog.limits.Steps)
	g.slot.start.Store(monoNow())
}

// end disarms the limits and classifies the call's error or panic; it must be deferred.
func (g *ScriptGame) end(fn string, err *error) {
	g.slot.start.Store(0)
	if r := recover(); r != nil {
		*err = &core.Fault{Kind: core.FaultPanic, Func: fn, Msg: fmt.Sprint(r)}
	}
	if *err != nil {
		g.dirty = true
		*err = g.classify(fn, *err)
	}
}

func (g *ScriptGame) classify(fn string, err error) error {
	if f := core.FaultOf(err); f != nil {
		if f.Func == "" {
			f.Func = fn
		}
		return f
	}
	if k := g.slot.stopped.Load(); k != nil {
		msg := "wall-time limit of " + g.prog.limits.CallTime.String() + " exceeded"
		if cpuClock.Load() {
			msg = "CPU-time limit of " + g.prog.limits.CallTime.String() + " per call exceeded"
		}
		if *k == core.FaultMemory {
			msg = fmt.Sprintf("the heap passed the sandbox limit of %d MiB", g.prog.limits.Memory>>20)
		}
		return &core.Fault{Kind: *k, Func: fn, Msg: msg, Err: err}
	}
	var ge *guardError
	var ee *starlark.EvalError
	isEval := errors.As(err, &ee)
	switch {
	case errors.As(err, &ge):
		msg := ge.msg
		if isEval {
			msg = Clip(ee.Backtrace(), 2000)
		}
		return &core.Fault{Kind: core.FaultMemory, Func: fn, Msg: msg, Err: err}
	case isEval && strings.Contains(ee.Msg, "cancelled: too many steps"):
		return &core.Fault{Kind: core.FaultSteps, Func: fn, Msg: fmt.Sprintf("more than %d execution steps in one call", g.prog.limits.Steps), Err: err}
	case isEval:
		return &core.Fault{Kind: core.FaultScript, Func: fn, Msg: Clip(ee.Backtrace(), 2000), Err: err}
	}
	return &core.Fault{Kind: core.FaultScript, Func: fn, Msg: Clip(err.Error(), 2000), Err: err}
}

func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + " …"
}

func (g *ScriptGame) call(i int, args ...starlark.Value) (v starlark.Value, err error) {
	g.begin()
	defer g.end(contractFns[i].name, &err)
	return starlark.Call(g.thread, g.fns[i], args, nil)
}

func StateValue(s core.State) (starlark.Value, error) {
	v, ok := s.(starlark.Value)
	if !ok || v == nil {
		return nil, fmt.Errorf("duel: %T is not a state of a script game", s)
	}
	return v, nil
}

// Initial is initial_state(seed), frozen.
func (g *ScriptGame) Initial(seed int64) (core.State, error) {
	v, err := g.call(fnInitial, starlark.MakeInt64(seed))
	if err != nil {
		return nil, err
	}
	if v == starlark.None {
		return nil, core.Contractf("initial_state", "returned None instead of a state")
	}
	v.Freeze()
	return v, nil
}

// ToMove is to_move(state), checked to be 0 or 1.
func (g *ScriptGame) ToMove(s core.State) (int, error) {
	sv, err := StateValue(s)
	if err != nil {
		return 0, err
	}
	v, err := g.call(fnToMove, sv)
	if err != nil {
		return 0, err
	}
	if n, ok := g.player(v); ok {
		return n, nil
	}
	return 0, core.Contractf("to_move", "returned %s, want 0 or 1 (0 moves first)%s", describe(v), g.playersHint(v))
}

// Legal is legal_actions(state), checked to be a strictly increasing list of actions in range.
func (g *ScriptGame) Legal(s core.State) ([]int, error) {
	sv, err := StateValue(s)
	if err != nil {
		return nil, err
	}
	v, err := g.call(fnLegal, sv)
	if err != nil {
		return nil, err
	}
	seq, ok := v.(starlark.Indexable)
	if _, isStr := v.(starlark.String); !ok || isStr {
		return nil, core.Contractf("legal_actions", "returned %s, want a list of ints", describe(v))
	}
	n := seq.Len()
	out := make([]int, n)
	for i := 0; i < n; i++ {
		a, ok := smallInt(seq.Index(i))
		if !ok {
			return nil, core.Contractf("legal_actions", "element %d is %s, want an int", i, describe(seq.Index(i)))
		}
		if a < 0 || a >= g.info.NumActions {
			return nil, core.Contractf("legal_actions", "action %d is outside [0, NUM_ACTIONS=%d)", a, g.info.NumActions)
		}
		if i > 0 && a <= out[i-1] {
			return nil, core.Contractf("legal_actions", "the list is not sorted and duplicate-free (%d after %d)", a, out[i-1])
		}
		out[i] = a
	}
	return out, nil
}

// Apply is apply(state, action); the new state is frozen.
func (g *ScriptGame) Apply(s core.State, action int) (core.State, error) {
	sv, err := StateValue(s)
	if err != nil {
		return nil, err
	}
	v, err := g.call(fnApply, sv, starlark.MakeInt(action))
	if err != nil {
		return nil, err
	}
	if v == starlark.None {
		return nil, core.Contractf("apply", "returned None: apply must return the new state")
	}
	v.Freeze()
	return v, nil
}

// Outcome is outcome(state): None, 0, 1 or "draw".
func (g *ScriptGame) Outcome(s core.State) (core.Outcome, error) {
	sv, err := StateValue(s)
	if err != nil {
		return core.Ongoing, err
	}
	v, err := g.call(fnOutcome, sv)
	if err != nil {
		return core.Ongoing, err
	}
	if v == starlark.None {
		if g.stuckLoses {
			return g.stuck(s)
		}
		return core.Ongoing, nil
	}
	if n, ok := g.player(v); ok {
		return core.WinFor(n), nil
	}
	if str, ok := v.(starlark.String); ok && str == "draw" {
		return core.Draw, nil
	}
	return core.Ongoing, core.Contractf("outcome", "returned %s, want None, 0, 1 or \"draw\"%s", describe(v), g.playersHint(v))
}

// Observe is observe(state, player), checked to be OBS_SIZE numbers.
func (g *ScriptGame) Observe(s core.State, player int) ([]float64, error) {
	sv, err := StateValue(s)
	if err != nil {
		return nil, err
	}
	if g.fns[fnObserve] == nil {
		return make([]float64, g.info.ObsSize), nil
	}
	v, err := g.call(fnObserve, sv, starlark.MakeInt(player))
	if err != nil {
		return nil, err
	}
	seq, ok := v.(starlark.Indexable)
	if _, isStr := v.(starlark.String); !ok || isStr {
		return nil, core.Contractf("observe", "returned %s, want a list of numbers", describe(v))
	}
	if seq.Len() != g.info.ObsSize {
		return nil, core.Contractf("observe", "returned %d numbers, OBS_SIZE is %d", seq.Len(), g.info.ObsSize)
	}
	out := make([]float64, seq.Len())
	for i := range out {
		switch x := seq.Index(i).(type) {
		case starlark.Int:
			f, _ := starlark.AsFloat(x)
			out[i] = f
		case starlark.Float:
			out[i] = float64(x)
		case starlark.Bool:
			if x {
				out[i] = 1
			}
		default:
			return nil, core.Contractf("observe", "element %d is %s, want a number", i, describe(x))
		}
	}
	return out, nil
}

// Render is render(state), checked to be a non-empty string of bounded size.
func (g *ScriptGame) Render(s core.State) (string, error) {
	sv, err := StateValue(s)
	if err != nil {
		return "", err
	}
	v, err := g.call(fnRender, sv)
	if err != nil {
		return "", err
	}
	str, ok := v.(starlark.String)
	switch {
	case !ok:
		return "", core.Contractf("render", "returned %s, want a string", describe(v))
	case strings.TrimSpace(string(str)) == "":
		return "", core.Contractf("render", "returned an empty string")
	case len(str) > maxRender:
		return "", core.Contractf("render", "returned %d bytes, the limit is %d", len(str), maxRender)
	}
	return string(str), nil
}

// ActionLabel is action_label(state, action), checked to be a short non-empty string.
func (g *ScriptGame) ActionLabel(s core.State, action int) (string, error) {
	sv, err := StateValue(s)
	if err != nil {
		return "", err
	}
	v, err := g.call(fnLabel, sv, starlark.MakeInt(action))
	if err != nil {
		return "", err
	}
	str, ok := v.(starlark.String)
	switch {
	case !ok:
		return "", core.Contractf("action_label", "returned %s, want a string", describe(v))
	case strings.TrimSpace(string(str)) == "":
		return "", core.Contractf("action_label", "returned an empty string for action %d", action)
	case len(str) > MaxLabel:
		return "", core.Contractf("action_label", "returned %d bytes for action %d, the limit is %d", len(str), action, MaxLabel)
	}
	return string(str), nil
}

func smallInt(v starlark.Value) (int, bool) {
	i, ok := v.(starlark.Int)
	if !ok {
		return 0, false
	}
	n, ok := i.Int64()
	if !ok || n != int64(int(n)) {
		return 0, false
	}
	return int(n), true
}

// describe names a script value in an error message without printing all of it, which could
// be huge.
func describe(v starlark.Value) string {
	if v == nil {
		return "nothing"
	}
	if RenderSize(v, 80) <= 80 {
		return fmt.Sprintf("%s %s", v.Type(), v.String())
	}
	if ix, ok := v.(starlark.Indexable); ok {
		return fmt.Sprintf("a %s of length %d", v.Type(), ix.Len())
	}
	return "a " + v.Type()
}

// CheckData reports whether a state holds only data (None, bools, numbers, strings, lists,
// tuples, dicts, sets), so it can be compared, rendered and shared; functions or other values
// in a state are a contract fault.
func CheckData(s core.State) error {
	v, err := StateValue(s)
	if err != nil {
		return err
	}
	var walk func(v starlark.Value, depth int) error
	walk = func(v starlark.Value, depth int) error {
		if depth > 64 {
			return fmt.Errorf("the state is nested more than 64 levels deep")
		}
		switch v := v.(type) {
		case starlark.NoneType, starlark.Bool, starlark.Int, starlark.Float, starlark.String, starlark.Bytes:
			return nil
		case *starlark.List:
			for i := 0; i < v.Len(); i++ {
				if err := walk(v.Index(i), depth+1); err != nil {
					return err
				}
			}
		case starlark.Tuple:
			for _, e := range v {
				if err := walk(e, depth+1); err != nil {
					return err
				}
			}
		case *starlark.Dict:
			for _, kv := range v.Items() {
				if err := walk(kv[0], depth+1); err != nil {
					return err
				}
				if err := walk(kv[1], depth+1); err != nil {
					return err
				}
			}
		case *starlark.Set:
			iter := v.Iterate()
			defer iter.Done()
			var e starlark.Value
			for iter.Next(&e) {
				if err := walk(e, depth+1); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("the state holds a %s; states must be plain data", v.Type())
		}
		return nil
	}
	return walk(v, 0)
}

// StateKey is a canonical text of a state, for determinism checks and transposition lookups.
// It is empty when the state is too big to print cheaply.
func StateKey(s core.State) string {
	v, ok := s.(starlark.Value)
	if !ok || RenderSize(v, 1<<16) > 1<<16 {
		return ""
	}
	return v.String()
}

// player reads a player from a script value: 0 or 1, or one of the PLAYERS names.
func (g *ScriptGame) player(v starlark.Value) (int, bool) {
	if n, ok := smallInt(v); ok && (n == 0 || n == 1) {
		return n, true
	}
	if str, ok := v.(starlark.String); ok && g.info.Players[0] != "" {
		for i, name := range g.info.Players {
			if string(str) == name {
				return i, true
			}
		}
	}
	return 0, false
}

// playersHint explains the player contract after a value that broke it.
func (g *ScriptGame) playersHint(v starlark.Value) string {
	if n, ok := smallInt(v); ok && n == 2 {
		return " (players are 0 and 1 in code, whatever the rulebook calls them; text may say Player 1 and Player 2)"
	}
	if _, ok := v.(starlark.String); ok && g.info.Players[0] == "" {
		return " (to use the rulebook's names for the players, define PLAYERS = (\"first\", \"second\"))"
	}
	return ""
}

// stuck is the outcome under STUCK_LOSES: the game is over when the player to move has no
// legal move, and that player has lost.
func (g *ScriptGame) stuck(s core.State) (core.Outcome, error) {
	legal, err := g.Legal(s)
	if err != nil || len(legal) > 0 {
		return core.Ongoing, err
	}
	p, err := g.ToMove(s)
	if err != nil {
		return core.Ongoing, err
	}
	return core.WinFor(1 - p), nil
}

// explainParseError adds what a Python habit needs to know to a parse error: Starlark has no
// import statement and no f-strings.
func explainParseError(src []byte, err error) string {
	var hints []string
	for _, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "from ") && strings.Contains(t, " import ") {
			hints = append(hints, "Starlark has no import statement: a game is one self-contained file, and the usual helpers (len, range, sorted, min, max, abs, ...) are built in")
			break
		}
	}
	if fstring.MatchString(string(src)) {
		hints = append(hints, `Starlark has no f-strings: write "%d points" % n or "{} points".format(n)`)
	}
	if len(hints) == 0 {
		return ""
	}
	return " (" + strings.Join(hints, "; ") + ")"
}

var fstring = regexp.MustCompile(`(^|[^A-Za-z0-9_])[fF][rR]?["']`)

// ActionCells is action_cells(state, action) for each action: the (row, column) pairs, from 0,
// of the board cells the action touches. defined is false when the script has no action_cells.
func (g *ScriptGame) ActionCells(s core.State, actions []int) ([][]core.Square, bool, error) {
	if g.fns[fnCells] == nil {
		return nil, false, nil
	}
	sv, err := StateValue(s)
	if err != nil {
		return nil, true, err
	}
	out := make([][]core.Square, len(actions))
	for i, a := range actions {
		v, err := g.call(fnCells, sv, starlark.MakeInt(a))
		if err != nil {
			return nil, true, err
		}
		if out[i], err = cellsOf(v, a); err != nil {
			return nil, true, err
		}
	}
	return out, true, nil
}

// cellsOf checks action_cells' answer: a list of at most MaxGridSide² (row, column) pairs.
func cellsOf(v starlark.Value, action int) ([]core.Square, error) {
	bad := func(format string, a ...any) error {
		return core.Contractf("action_cells", "for action %d: "+format, append([]any{action}, a...)...)
	}
	seq, ok := v.(starlark.Indexable)
	if _, isStr := v.(starlark.String); !ok || isStr {
		return nil, bad("returned %s, want a list of (row, column) pairs", describe(v))
	}
	if seq.Len() > core.MaxGridSide*core.MaxGridSide {
		return nil, bad("returned %d cells, the limit is %d", seq.Len(), core.MaxGridSide*core.MaxGridSide)
	}
	cells := make([]core.Square, 0, seq.Len())
	for i := 0; i < seq.Len(); i++ {
		pair, ok := seq.Index(i).(starlark.Indexable)
		if _, isStr := seq.Index(i).(starlark.String); !ok || isStr || pair.Len() != 2 {
			return nil, bad("element %d is %s, want a (row, column) pair", i, describe(seq.Index(i)))
		}
		r, okR := smallInt(pair.Index(0))
		c, okC := smallInt(pair.Index(1))
		if !okR || !okC || r < 0 || c < 0 || r >= core.MaxGridSide || c >= core.MaxGridSide {
			return nil, bad("element %d is %s, want two ints in [0, %d)", i, describe(seq.Index(i)), core.MaxGridSide)
		}
		cells = append(cells, core.Square{Row: r, Col: c})
	}
	return cells, nil
}

// CancelCall cancels the call in progress (if any) with reason; the game must be told
// MarkCancelled before its next call when the cancel may have come between two calls.
func (g *ScriptGame) CancelCall(reason string) { g.thread.Cancel(reason) }

// MarkCancelled makes the next call reset the cancelled thread first.
func (g *ScriptGame) MarkCancelled() { g.dirty = true }

// IsContractFunc reports whether name is one of the contract's functions.
func IsContractFunc(name string) bool {
	for _, c := range contractFns {
		if c.name == name {
			return true
		}
	}
	return false
}

package script

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Starlark bounds time (the step counter counts every bytecode instruction) but not memory, and
// a few operations allocate far more in one step than their operands hold: "x" * (1 << 29),
// list(range(1 << 40)), sep.join of many copies of one long string, or str() of a list that
// holds the same long string a million times. Before compiling, the loader rewrites the
// operators and methods that can do this into calls of guard built-ins that check the size of
// the result first. The guard names start with '$', so no script can spell or shadow them.
// Growth by repeated doubling (s = s + s) is left to the heap watchdog (sandbox.go), which
// catches it between steps. Rarer amplifiers (the text of an error about a huge dict key,
// hashing a tuple of a million long strings) are not guarded here: the child-process mode
// (isolate.go) is the hard boundary for those.

const (
	guardMul  = "$mul"
	guardMod  = "$mod"
	guardAttr = "$attr"
)

// guardedMethods are the string methods whose result can dwarf their operands.
var guardedMethods = map[string]bool{"join": true, "replace": true, "format": true}

// sizeLimits are the sandbox's bounds on what one operation may build; the guard built-ins
// read them from the thread.
type sizeLimits struct {
	maxElems   int // elements of a list or tuple made by repetition, and of a range
	maxString  int // bytes of a string made by repetition, join, replace, format, %, str
	maxIntBits int // bits of an int made by multiplication
}

const limitsKey = "duel.limits"

func threadLimits(th *starlark.Thread) *sizeLimits {
	if l, ok := th.Local(limitsKey).(*sizeLimits); ok {
		return l
	}
	return &sizeLimits{maxElems: 1 << 20, maxString: 1 << 22, maxIntBits: 1 << 14}
}

// guardError is what a guard returns when an operation would exceed the sandbox's bounds.
type guardError struct{ msg string }

func (e *guardError) Error() string { return e.msg }

func tooBig(format string, a ...any) error { return &guardError{fmt.Sprintf(format, a...)} }

// rewriteFile replaces, in place, the operators and attribute reads the guards check. It also
// rejects nesting deeper than maxDepth, which would otherwise recurse deeply in the compiler.
func rewriteFile(f *syntax.File, maxDepth int) error {
	r := rewriter{maxDepth: maxDepth}
	r.stmts(f.Stmts)
	return r.err
}

type rewriter struct {
	depth, maxDepth int
	err             error
}

func (r *rewriter) enter(n syntax.Node) bool {
	r.depth++
	if r.depth > r.maxDepth && r.err == nil {
		pos, _ := n.Span()
		r.err = fmt.Errorf("%s: nesting deeper than %d levels", pos, r.maxDepth)
	}
	return r.err == nil
}

func (r *rewriter) leave() { r.depth-- }

func (r *rewriter) stmts(list []syntax.Stmt) {
	for _, s := range list {
		r.stmt(s)
	}
}

func (r *rewriter) stmt(s syntax.Stmt) {
	if !r.enter(s) {
		return
	}
	defer r.leave()
	switch s := s.(type) {
	case *syntax.AssignStmt:
		s.LHS = r.expr(s.LHS)
		s.RHS = r.expr(s.RHS)
		// x *= y is x = x * y for every Starlark type (only += on lists works in place), so the
		// rewrite keeps the meaning; an index or attribute on the left is evaluated twice.
		switch s.Op {
		case syntax.STAR_EQ:
			s.Op, s.RHS = syntax.EQ, guardCall(guardMul, s.OpPos, s.LHS, s.RHS)
		case syntax.PERCENT_EQ:
			s.Op, s.RHS = syntax.EQ, guardCall(guardMod, s.OpPos, s.LHS, s.RHS)
		}
	case *syntax.DefStmt:
		for i, p := range s.Params {
			s.Params[i] = r.param(p)
		}
		r.stmts(s.Body)
	case *syntax.ExprStmt:
		s.X = r.expr(s.X)
	case *syntax.ForStmt:
		s.Vars = r.expr(s.Vars)
		s.X = r.expr(s.X)
		r.stmts(s.Body)
	case *syntax.WhileStmt:
		s.Cond = r.expr(s.Cond)
		r.stmts(s.Body)
	case *syntax.IfStmt:
		s.Cond = r.expr(s.Cond)
		r.stmts(s.True)
		r.stmts(s.False)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = r.expr(s.Result)
		}
	case *syntax.LoadStmt, *syntax.BranchStmt:
	}
}

// param rewrites the default value of a parameter but not the parameter syntax itself
// (name=default is a BinaryExpr with EQ, *args a UnaryExpr with STAR).
func (r *rewriter) param(p syntax.Expr) syntax.Expr {
	if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
		b.Y = r.expr(b.Y)
	}
	return p
}

func (r *rewriter) exprs(list []syntax.Expr) {
	for i, e := range list {
		list[i] = r.expr(e)
	}
}

func (r *rewriter) expr(e syntax.Expr) syntax.Expr {
	if e == nil || !r.enter(e) {
		return e
	}
	defer r.leave()
	switch e := e.(type) {
	case *syntax.BinaryExpr:
		e.X = r.expr(e.X)
		e.Y = r.expr(e.Y)
		// Operations that cannot amplify stay plain, which matters in the inner loops of a
		// search: % with a number on the right formats one short number at most, and * by
		// -2..2 grows its operand no faster than s + s does.
		switch e.Op {
		case syntax.STAR:
			safe := isNumberLiteral(e.X) && isNumberLiteral(e.Y) || isSmallIntLiteral(e.X) || isSmallIntLiteral(e.Y)
			if !safe {
				return guardCall(guardMul, e.OpPos, e.X, e.Y)
			}
		case syntax.PERCENT:
			if !isNumberLiteral(e.X) && !isNumberLiteral(e.Y) {
				return guardCall(guardMod, e.OpPos, e.X, e.Y)
			}
		}
	case *syntax.CallExpr:
		e.Fn = r.expr(e.Fn)
		for i, a := range e.Args {
			// keyword arguments are name=value BinaryExprs; *args and **kwargs UnaryExprs
			if b, ok := a.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
				b.Y = r.expr(b.Y)
				continue
			}
			e.Args[i] = r.expr(a)
		}
	case *syntax.Comprehension:
		e.Body = r.expr(e.Body)
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				c.Vars = r.expr(c.Vars)
				c.X = r.expr(c.X)
			case *syntax.IfClause:
				c.Cond = r.expr(c.Cond)
			}
		}
	case *syntax.CondExpr:
		e.Cond = r.expr(e.Cond)
		e.True = r.expr(e.True)
		e.False = r.expr(e.False)
	case *syntax.DictEntry:
		e.Key = r.expr(e.Key)
		e.Value = r.expr(e.Value)
	case *syntax.DictExpr:
		r.exprs(e.List)
	case *syntax.DotExpr:
		e.X = r.expr(e.X)
		if guardedMethods[e.Name.Name] {
			name := &syntax.Literal{Token: syntax.STRING, TokenPos: e.NamePos, Raw: `"` + e.Name.Name + `"`, Value: e.Name.Name}
			return guardCall(guardAttr, e.Dot, e.X, name)
		}
	case *syntax.IndexExpr:
		e.X = r.expr(e.X)
		e.Y = r.expr(e.Y)
	case *syntax.LambdaExpr:
		for i, p := range e.Params {
			e.Params[i] = r.param(p)
		}
		e.Body = r.expr(e.Body)
	case *syntax.ListExpr:
		r.exprs(e.List)
	case *syntax.ParenExpr:
		e.X = r.expr(e.X)
	case *syntax.SliceExpr:
		e.X = r.expr(e.X)
		e.Lo = r.expr(e.Lo)
		e.Hi = r.expr(e.Hi)
		e.Step = r.expr(e.Step)
	case *syntax.TupleExpr:
		r.exprs(e.List)
	case *syntax.UnaryExpr:
		e.X = r.expr(e.X)
	case *syntax.Ident, *syntax.Literal:
	}
	return e
}

func isNumberLiteral(e syntax.Expr) bool {
	lit := signedLiteral(e)
	return lit != nil && (lit.Token == syntax.INT || lit.Token == syntax.FLOAT)
}

func isSmallIntLiteral(e syntax.Expr) bool {
	lit := signedLiteral(e)
	if lit == nil || lit.Token != syntax.INT {
		return false
	}
	n, ok := lit.Value.(int64)
	return ok && n <= 2
}

// signedLiteral is the literal under any parentheses and unary + and - signs, or nil when e is
// not such a literal.
func signedLiteral(e syntax.Expr) *syntax.Literal {
	for {
		switch x := e.(type) {
		case *syntax.ParenExpr:
			e = x.X
		case *syntax.UnaryExpr:
			if x.Op != syntax.MINUS && x.Op != syntax.PLUS {
				return nil
			}
			e = x.X
		case *syntax.Literal:
			return x
		default:
			return nil
		}
	}
}

func guardCall(name string, pos syntax.Position, args ...syntax.Expr) syntax.Expr {
	return &syntax.CallExpr{
		Fn:     &syntax.Ident{NamePos: pos, Name: name},
		Lparen: pos,
		Args:   args,
		Rparen: pos,
	}
}

// guardBuiltins are the predeclared names of the sandbox: the guards the rewrite calls, guarded
// versions of the universal built-ins that allocate in one step, and sum(), which Starlark
// lacks but generated code reaches for.
func guardBuiltins() starlark.StringDict {
	return starlark.StringDict{
		guardMul:  starlark.NewBuiltin("*", guardedMul),
		guardMod:  starlark.NewBuiltin("%", guardedMod),
		guardAttr: starlark.NewBuiltin("getattr", guardedAttr),
		"getattr": starlark.NewBuiltin("getattr", guardedGetattr),
		"range":   starlark.NewBuiltin("range", guardedRange),
		"str":     renderGuard("str"),
		"repr":    renderGuard("repr"),
		"print":   renderGuard("print"),
		"fail":    renderGuard("fail"),
		"sum":     starlark.NewBuiltin("sum", sum),
	}
}

func guardedMul(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, y := args[0], args[1]
	lim := threadLimits(th)
	switch xv := x.(type) {
	case starlark.Int:
		switch yv := y.(type) {
		case starlark.Int:
			if _, ok := xv.Int64(); !ok || !fitsInt64(yv) {
				if bits := xv.BigInt().BitLen() + yv.BigInt().BitLen(); bits > lim.maxIntBits {
					return nil, tooBig("integer product of about %d bits exceeds the sandbox limit of %d bits", bits, lim.maxIntBits)
				}
			}
		default:
			if err := checkRepeat(y, xv, lim); err != nil {
				return nil, err
			}
		}
	default:
		if n, ok := y.(starlark.Int); ok {
			if err := checkRepeat(x, n, lim); err != nil {
				return nil, err
			}
		}
	}
	return starlark.Binary(syntax.STAR, x, y)
}

func fitsInt64(i starlark.Int) bool { _, ok := i.Int64(); return ok }

func checkRepeat(seq starlark.Value, n starlark.Int, lim *sizeLimits) error {
	k, ok := n.Int64()
	if !ok || k <= 0 {
		return nil // starlark reports counts that are too large itself
	}
	switch s := seq.(type) {
	case starlark.String, starlark.Bytes:
		// Len is the length in bytes for both; Type names them "string" and "bytes".
		if n := int64(s.(starlark.Indexable).Len()); n > int64(lim.maxString)/k {
			return tooBig("%s repetition of %d bytes exceeds the sandbox limit of %d", s.Type(), n*k, lim.maxString)
		}
	case starlark.Indexable:
		if int64(s.Len()) > int64(lim.maxElems)/k {
			return tooBig("repetition of %d elements exceeds the sandbox limit of %d", int64(s.Len())*k, lim.maxElems)
		}
	}
	return nil
}

func guardedMod(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, y := args[0], args[1]
	if f, ok := x.(starlark.String); ok {
		lim := threadLimits(th)
		// each conversion in the format can render the whole operand (a dict read by %(key)s
		// several times), so bound the result by that
		per := RenderSize(y, lim.maxString)
		if n := strings.Count(string(f), "%"); len(f)+n*per > lim.maxString {
			return nil, tooBig("string formatting could produce more than the sandbox limit of %d bytes", lim.maxString)
		}
	}
	return starlark.Binary(syntax.PERCENT, x, y)
}

// guardedAttr is x.name for the guarded method names: for a string the method is wrapped in a
// size check, for anything else it is the ordinary attribute.
func guardedAttr(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if m, ok := guardedMethod(args[0], args[1]); ok {
		return m, nil
	}
	return universal("getattr").CallInternal(th, args, nil)
}

func guardedGetattr(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) >= 2 && len(kwargs) == 0 {
		if m, ok := guardedMethod(args[0], args[1]); ok {
			return m, nil
		}
	}
	return universal("getattr").CallInternal(th, args, kwargs)
}

// guardedMethod is x.name wrapped in a size check when x is a string and name one of the
// guarded methods; ok is false for anything else.
func guardedMethod(x, name starlark.Value) (m starlark.Value, ok bool) {
	s, isStr := x.(starlark.String)
	n, isName := name.(starlark.String)
	if !isStr || !isName || !guardedMethods[string(n)] {
		return nil, false
	}
	return starlark.NewBuiltin(string(n), guardedStringMethod).BindReceiver(s), true
}

func guardedStringMethod(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	s := b.Receiver().(starlark.String)
	lim := threadLimits(th)
	var size int
	switch b.Name() {
	case "join":
		if len(args) == 1 {
			size = joinSize(len(s), args[0], lim.maxString)
		}
	case "replace":
		if len(args) >= 2 {
			old, ok1 := args[0].(starlark.String)
			repl, ok2 := args[1].(starlark.String)
			if ok1 && ok2 {
				n := len(s) + 1 // replacing "" inserts at every position
				if len(old) > 0 {
					n = len(s) / len(old)
				}
				size = len(s) + n*max(0, len(repl)-len(old))
			}
		}
	case "format":
		per := argsRenderSize(args, kwargs, lim.maxString)
		size = len(s) + strings.Count(string(s), "{")*per
	}
	if size > lim.maxString {
		return nil, tooBig("str.%s could produce more than the sandbox limit of %d bytes", b.Name(), lim.maxString)
	}
	m, err := s.Attr(b.Name())
	if err != nil {
		return nil, err
	}
	return m.(*starlark.Builtin).CallInternal(th, args, kwargs)
}

func joinSize(sep int, iterable starlark.Value, budget int) int {
	it, ok := iterable.(starlark.Iterable)
	if !ok {
		return 0 // join reports the type error
	}
	iter := it.Iterate()
	defer iter.Done()
	size := 0
	var x starlark.Value
	for iter.Next(&x) {
		if s, ok := x.(starlark.String); ok {
			size += len(s)
		}
		size += sep
		if size > budget {
			return size
		}
	}
	return size
}

func guardedRange(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	r, err := universal("range").CallInternal(th, args, kwargs)
	if err != nil {
		return nil, err
	}
	if lim := threadLimits(th); r.(starlark.Indexable).Len() > lim.maxElems {
		return nil, tooBig("range of %d elements exceeds the sandbox limit of %d", r.(starlark.Indexable).Len(), lim.maxElems)
	}
	return r, nil
}

// universal is a built-in of Starlark's universe, called directly by the guards (through
// CallInternal, without a second frame on the thread's stack).
func universal(name string) *starlark.Builtin { return starlark.Universe[name].(*starlark.Builtin) }

// renderGuard wraps a built-in that turns its arguments into text.
func renderGuard(name string) *starlark.Builtin {
	orig := universal(name)
	return starlark.NewBuiltin(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		lim := threadLimits(th)
		if size := argsRenderSize(args, kwargs, lim.maxString); size > lim.maxString {
			return nil, tooBig("%s() of a value whose text exceeds the sandbox limit of %d bytes", name, lim.maxString)
		}
		return orig.CallInternal(th, args, kwargs)
	})
}

// argsRenderSize is the RenderSize of a call's arguments and keyword values together.
func argsRenderSize(args starlark.Tuple, kwargs []starlark.Tuple, budget int) int {
	size := 0
	for _, a := range args {
		size += RenderSize(a, budget)
	}
	for _, kv := range kwargs {
		size += RenderSize(kv[1], budget)
	}
	return size
}

// RenderSize estimates the length of v's text, counting shared values once per reference (as
// str() does); it stops counting once the estimate passes budget.
func RenderSize(v starlark.Value, budget int) int {
	var walk func(v starlark.Value, depth int) int
	n := 0
	walk = func(v starlark.Value, depth int) int {
		if n > budget {
			return n
		}
		if depth > 1000 {
			n = budget + 1
			return n
		}
		switch v := v.(type) {
		case starlark.String:
			n += len(v) + 2
		case starlark.Bytes:
			n += 4*len(v) + 3
		case starlark.Int:
			if _, ok := v.Int64(); ok {
				n += 20
			} else {
				n += v.BigInt().BitLen()/3 + 2
			}
		case starlark.Float:
			n += 25
		case starlark.NoneType, starlark.Bool:
			n += 5
		case *starlark.List, starlark.Tuple:
			seq := v.(starlark.Indexable)
			n += 2
			for i := 0; i < seq.Len() && n <= budget; i++ {
				n += 2
				walk(seq.Index(i), depth+1)
			}
		case *starlark.Dict:
			n += 2
			for _, kv := range v.Items() {
				if n > budget {
					break
				}
				n += 4
				walk(kv[0], depth+1)
				walk(kv[1], depth+1)
			}
		case *starlark.Set:
			n += 5
			iter := v.Iterate()
			var e starlark.Value
			for n <= budget && iter.Next(&e) {
				n += 2
				walk(e, depth+1)
			}
			iter.Done()
		default:
			n += 64
		}
		return n
	}
	return walk(v, 0)
}

// sum is Python's sum over numbers: sum(iterable, start=0).
func sum(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var iterable starlark.Iterable
	var start starlark.Value = starlark.MakeInt(0)
	if err := starlark.UnpackPositionalArgs("sum", args, kwargs, 1, &iterable, &start); err != nil {
		return nil, err
	}
	iter := iterable.Iterate()
	defer iter.Done()
	acc := start
	var x starlark.Value
	for iter.Next(&x) {
		switch x.(type) {
		case starlark.Int, starlark.Float:
		default:
			return nil, fmt.Errorf("sum: cannot add %s", x.Type())
		}
		v, err := starlark.Binary(syntax.PLUS, acc, x)
		if err != nil {
			return nil, err
		}
		acc = v
	}
	return acc, nil
}

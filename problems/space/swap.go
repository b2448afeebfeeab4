package space

// Swap is the reference's contentSwap: walk c1 and c2 in parallel in the space's order (dicts
// by key order, lists element by element) and at each scalar take c2's value with probability p
// while the swap budget lasts. maxSwaps < 0 means unlimited. A random number is drawn only while
// the budget is not exhausted, which fixes the stream consumed. Uniform crossover is p = 0.5; the
// paper's mutation is Swap(s, c, s.Sample(r), 0.05, -1, r).
func Swap(s Space, c1, c2 any, p float64, maxSwaps int, r Rand) any {
	budget := maxSwaps
	return swap(s, c1, c2, p, &budget, r)
}

func swap(s Space, a, b any, p float64, budget *int, r Rand) any {
	switch sp := s.(type) {
	case Dict:
		x, _ := a.(map[string]any)
		y, _ := b.(map[string]any)
		out := make(map[string]any, len(x))
		for _, f := range sp {
			out[f.Key] = swap(f.Space, x[f.Key], y[f.Key], p, budget, r)
		}
		return out
	case List:
		x, _ := a.([]any)
		y, _ := b.([]any)
		out := make([]any, len(sp))
		for i, e := range sp {
			out[i] = swap(e, x[i], y[i], p, budget, r)
		}
		return out
	case Array:
		return swapArray(sp, 0, a, b, p, budget, r)
	}
	if *budget != 0 && r.Float64() < p {
		*budget--
		return Clone(b)
	}
	return Clone(a)
}

func swapArray(s Array, d int, a, b any, p float64, budget *int, r Rand) any {
	if d == len(s.Dims) {
		return swap(s.Leaf, a, b, p, budget, r)
	}
	x, _ := a.([]any)
	y, _ := b.([]any)
	out := make([]any, s.Dims[d])
	for i := range out {
		out[i] = swapArray(s, d+1, x[i], y[i], p, budget, r)
	}
	return out
}

// Equal is the reference's isContentEqual: dicts compare over a's keys, lists over a's length,
// numbers by value whatever their Go type.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !Equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(y) < len(x) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	fa, oka := asFloat(a)
	fb, okb := asFloat(b)
	if oka && okb {
		return fa == fb
	}
	return a == b
}

// Clone deep-copies a JSON-shaped value.
func Clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Clone(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Clone(e)
		}
		return out
	}
	return v
}

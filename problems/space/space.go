package space

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Rand is the randomness a space needs. *math/rand/v2.Rand satisfies it; so can an emulation of
// another generator when a sampling stream must be reproduced exactly.
type Rand interface {
	IntN(n int) int
	Float64() float64
}

// Space is a set of values that can be sampled, validated, flattened and rebuilt.
type Space interface {
	// Sample draws a fresh value. Leaves are drawn depth-first in list / key order.
	Sample(r Rand) any
	// Range describes the space as JSON-shaped data ({"min":..,"max":..} per leaf; max exclusive).
	Range() any
	// Check reports why v is not a member of the space, naming the offending position
	// relative to path (for example "content[3][4]"). nil means v is a member.
	Check(v any, path string) error
	// Normalize converts a decoded JSON value (float64 numbers, json.Number) into the canonical
	// member (int leaves), or explains, with its path, why it cannot.
	Normalize(v any, path string) (any, error)

	flatten(v any, out []float64) []float64
	restructure(vals []float64) (any, []float64, error)
	leaves() int
}

// Contains reports whether v is a member of s (the reference's isSampled).
func Contains(s Space, v any) bool { return s.Check(v, "") == nil }

// Flat flattens v to a list of floats in the space's traversal order (the reference's
// sampleFlat / flatten).
func Flat(s Space, v any) []float64 { return s.flatten(v, make([]float64, 0, s.leaves())) }

// Size is the number of scalar leaves of a value of s.
func Size(s Space) int { return s.leaves() }

// Restructure rebuilds a value of s from a flat list, consuming it front to back. Integer
// leaves truncate toward zero and clamp to [min, max] with max inclusive, as the reference does.
func Restructure(s Space, vals []float64) (any, error) {
	v, _, err := s.restructure(vals)
	return v, err
}

// SampleFlat samples then flattens.
func SampleFlat(s Space, r Rand) []float64 { return Flat(s, s.Sample(r)) }

// Int is the reference's IntegerSpace: integers in [Min, Max).
type Int struct{ Min, Max int }

func (s Int) Sample(r Rand) any { return s.Min + r.IntN(s.Max-s.Min) }
func (s Int) Range() any        { return map[string]any{"min": s.Min, "max": s.Max} }
func (s Int) leaves() int       { return 1 }

func (s Int) Check(v any, path string) error {
	n, ok := asInt(v)
	if !ok {
		if integral(v) { // a whole number too large for an int: quoted as written
			return fmt.Errorf("%s: value %s is outside [%d, %d)", pathOr(path), describe(v), s.Min, s.Max)
		}
		return fmt.Errorf("%s: %s is not an integer", pathOr(path), describe(v))
	}
	if n < s.Min || n >= s.Max {
		return fmt.Errorf("%s: value %s is outside [%d, %d)", pathOr(path), describe(v), s.Min, s.Max)
	}
	return nil
}

func (s Int) Normalize(v any, path string) (any, error) {
	if err := s.Check(v, path); err != nil {
		return nil, err
	}
	n, _ := asInt(v)
	return n, nil
}

func (s Int) flatten(v any, out []float64) []float64 {
	n, _ := asInt(v)
	return append(out, float64(n))
}

func (s Int) restructure(vals []float64) (any, []float64, error) {
	if len(vals) == 0 {
		return nil, nil, errShort
	}
	n := truncInt(vals[0])
	n = max(s.Min, min(s.Max, n))
	return n, vals[1:], nil
}

// Float is the reference's FloatSpace: floats in [Min, Max).
type Float struct{ Min, Max float64 }

func (s Float) Sample(r Rand) any { return r.Float64()*(s.Max-s.Min) + s.Min }
func (s Float) Range() any        { return map[string]any{"min": s.Min, "max": s.Max} }
func (s Float) leaves() int       { return 1 }

func (s Float) Check(v any, path string) error {
	f, ok := asFloat(v)
	if !ok {
		return fmt.Errorf("%s: %s is not a number", pathOr(path), describe(v))
	}
	if !(f >= s.Min && f < s.Max) {
		return fmt.Errorf("%s: value %v is outside [%v, %v)", pathOr(path), f, s.Min, s.Max)
	}
	return nil
}

func (s Float) Normalize(v any, path string) (any, error) {
	if err := s.Check(v, path); err != nil {
		return nil, err
	}
	f, _ := asFloat(v)
	return f, nil
}

func (s Float) flatten(v any, out []float64) []float64 {
	f, _ := asFloat(v)
	return append(out, f)
}

func (s Float) restructure(vals []float64) (any, []float64, error) {
	if len(vals) == 0 {
		return nil, nil, errShort
	}
	return math.Max(s.Min, math.Min(s.Max, vals[0])), vals[1:], nil
}

// Const is a constant leaf of a generic space (the reference turns None into the constant 1).
type Const struct{ Value any }

func (s Const) Sample(Rand) any { return Clone(s.Value) }
func (s Const) Range() any      { return map[string]any{"min": s.Value, "max": s.Value} }
func (s Const) leaves() int     { return 1 }

func (s Const) Check(v any, path string) error {
	if !Equal(s.Value, v) {
		return fmt.Errorf("%s: expected the constant %s, got %s", pathOr(path), describe(s.Value), describe(v))
	}
	return nil
}

func (s Const) Normalize(v any, path string) (any, error) {
	if err := s.Check(v, path); err != nil {
		return nil, err
	}
	return Clone(s.Value), nil
}

func (s Const) flatten(v any, out []float64) []float64 {
	f, _ := asFloat(s.Value)
	return append(out, f)
}

func (s Const) restructure(vals []float64) (any, []float64, error) {
	if len(vals) == 0 {
		return nil, nil, errShort
	}
	return Clone(s.Value), vals[1:], nil
}

// List is a generic space over a fixed-length list of (possibly different) spaces.
type List []Space

func (s List) Sample(r Rand) any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e.Sample(r)
	}
	return out
}

func (s List) Range() any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e.Range()
	}
	return out
}

func (s List) leaves() int {
	n := 0
	for _, e := range s {
		n += e.leaves()
	}
	return n
}

// Check accepts a longer list, as the reference does: only the space's positions are checked.
func (s List) Check(v any, path string) error {
	l, ok := v.([]any)
	if !ok {
		return fmt.Errorf("%s: expected a list of %d, got %s", pathOr(path), len(s), describe(v))
	}
	if len(l) < len(s) {
		return fmt.Errorf("%s: expected %d elements, got %d", pathOr(path), len(s), len(l))
	}
	for i, e := range s {
		if err := e.Check(l[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	return nil
}

// Normalize also requires the exact length: extra elements would be silently dropped otherwise.
func (s List) Normalize(v any, path string) (any, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: expected a list of %d, got %s", pathOr(path), len(s), describe(v))
	}
	if len(l) != len(s) {
		return nil, fmt.Errorf("%s: expected %d elements, got %d", pathOr(path), len(s), len(l))
	}
	out := make([]any, len(s))
	for i, e := range s {
		n, err := e.Normalize(l[i], fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func (s List) flatten(v any, out []float64) []float64 {
	l, _ := v.([]any)
	for i, e := range s {
		out = e.flatten(l[i], out)
	}
	return out
}

func (s List) restructure(vals []float64) (any, []float64, error) {
	out := make([]any, len(s))
	for i, e := range s {
		var err error
		if out[i], vals, err = e.restructure(vals); err != nil {
			return nil, nil, err
		}
	}
	return out, vals, nil
}

// Field is one key of a Dict space.
type Field struct {
	Key   string
	Space Space
}

// Dict is the reference's DictionarySpace; Fields keep the reference's key order, which fixes
// the order of random draws and of flattening.
type Dict []Field

func (s Dict) Sample(r Rand) any {
	out := make(map[string]any, len(s))
	for _, f := range s {
		out[f.Key] = f.Space.Sample(r)
	}
	return out
}

func (s Dict) Range() any {
	out := make(map[string]any, len(s))
	for _, f := range s {
		out[f.Key] = f.Space.Range()
	}
	return out
}

func (s Dict) leaves() int {
	n := 0
	for _, f := range s {
		n += f.Space.leaves()
	}
	return n
}

// Keys lists the dictionary's keys in the space's order.
func (s Dict) Keys() []string {
	out := make([]string, len(s))
	for i, f := range s {
		out[i] = f.Key
	}
	return out
}

func (s Dict) Check(v any, path string) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: expected an object with keys %s, got %s", pathOr(path), strings.Join(s.Keys(), ", "), describe(v))
	}
	for _, f := range s {
		x, ok := m[f.Key]
		if !ok {
			return fmt.Errorf("%s: missing key %q", pathOr(path), f.Key)
		}
		if err := f.Space.Check(x, path+"."+f.Key); err != nil {
			return err
		}
	}
	return nil
}

// Normalize drops unknown keys (the reference ignores them too).
func (s Dict) Normalize(v any, path string) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: expected an object with keys %s, got %s", pathOr(path), strings.Join(s.Keys(), ", "), describe(v))
	}
	out := make(map[string]any, len(s))
	for _, f := range s {
		x, ok := m[f.Key]
		if !ok {
			return nil, fmt.Errorf("%s: missing key %q", pathOr(path), f.Key)
		}
		n, err := f.Space.Normalize(x, path+"."+f.Key)
		if err != nil {
			return nil, err
		}
		out[f.Key] = n
	}
	return out, nil
}

func (s Dict) flatten(v any, out []float64) []float64 {
	m, _ := v.(map[string]any)
	for _, f := range s {
		out = f.Space.flatten(m[f.Key], out)
	}
	return out
}

func (s Dict) restructure(vals []float64) (any, []float64, error) {
	out := make(map[string]any, len(s))
	for _, f := range s {
		var err error
		if out[f.Key], vals, err = f.Space.restructure(vals); err != nil {
			return nil, nil, err
		}
	}
	return out, vals, nil
}

// Array is the reference's ArraySpace: a nested list of shape Dims whose every element is drawn
// from the same leaf (so one stream fills it in row-major order).
type Array struct {
	Dims []int
	Leaf Space
}

// Grid is the common 2-D array of integers in [0, values): rows × cols.
func Grid(rows, cols, values int) Array {
	return Array{Dims: []int{rows, cols}, Leaf: Int{0, values}}
}

func (s Array) Sample(r Rand) any { return s.sample(r, 0) }

func (s Array) sample(r Rand, d int) any {
	if d == len(s.Dims) {
		return s.Leaf.Sample(r)
	}
	out := make([]any, s.Dims[d])
	for i := range out {
		out[i] = s.sample(r, d+1)
	}
	return out
}

// Range is the leaf's range, as in the reference.
func (s Array) Range() any { return s.Leaf.Range() }

func (s Array) leaves() int {
	n := s.Leaf.leaves()
	for _, d := range s.Dims {
		n *= d
	}
	return n
}

func (s Array) Check(v any, path string) error { return s.walk(v, path, 0, false, nil) }

func (s Array) Normalize(v any, path string) (any, error) {
	var out any
	err := s.walk(v, path, 0, true, &out)
	return out, err
}

// walk validates v at depth d; with exact it also rejects longer lists and builds the
// normalized copy into out.
func (s Array) walk(v any, path string, d int, exact bool, out *any) error {
	if d == len(s.Dims) {
		if !exact {
			return s.Leaf.Check(v, path)
		}
		n, err := s.Leaf.Normalize(v, path)
		*out = n
		return err
	}
	l, ok := v.([]any)
	if !ok {
		return fmt.Errorf("%s: expected a list of %d, got %s", pathOr(path), s.Dims[d], describe(v))
	}
	if len(l) < s.Dims[d] || (exact && len(l) != s.Dims[d]) {
		return fmt.Errorf("%s: expected %d elements, got %d (shape %v)", pathOr(path), s.Dims[d], len(l), s.Dims)
	}
	var res []any
	if exact {
		res = make([]any, s.Dims[d])
	}
	for i := 0; i < s.Dims[d]; i++ {
		var sub *any
		if exact {
			sub = &res[i]
		}
		if err := s.walk(l[i], fmt.Sprintf("%s[%d]", path, i), d+1, exact, sub); err != nil {
			return err
		}
	}
	if exact {
		*out = res
	}
	return nil
}

func (s Array) flatten(v any, out []float64) []float64 { return s.flat(v, 0, out) }

func (s Array) flat(v any, d int, out []float64) []float64 {
	if d == len(s.Dims) {
		return s.Leaf.flatten(v, out)
	}
	l, _ := v.([]any)
	for i := 0; i < s.Dims[d]; i++ {
		out = s.flat(l[i], d+1, out)
	}
	return out
}

func (s Array) restructure(vals []float64) (any, []float64, error) { return s.rebuild(vals, 0) }

func (s Array) rebuild(vals []float64, d int) (any, []float64, error) {
	if d == len(s.Dims) {
		return s.Leaf.restructure(vals)
	}
	out := make([]any, s.Dims[d])
	for i := range out {
		var err error
		if out[i], vals, err = s.rebuild(vals, d+1); err != nil {
			return nil, nil, err
		}
	}
	return out, vals, nil
}

var errShort = fmt.Errorf("restructure: the flat list is shorter than the space")

func pathOr(p string) string {
	if p == "" {
		return "value"
	}
	return p
}

func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	case string:
		return "the string " + excerpt(v.(string))
	case json.Number: // as written
		if n := string(v.(json.Number)); len(n) > 40 {
			return fmt.Sprintf("%s… (%d characters)", n[:40], len(n))
		}
		return string(v.(json.Number))
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// excerpt quotes at most 40 bytes of a hostile value (a number of a million digits included).
func excerpt(s string) string {
	if len(s) <= 40 {
		return strconv.Quote(s)
	}
	cut := 40
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("… (%d bytes)", len(s))
}

// truncInt is Python's int() on a float: toward zero, saturating instead of overflowing.
func truncInt(f float64) int {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt
	case f <= math.MinInt64:
		return math.MinInt
	}
	return int(f)
}

// maxExactInt bounds the whole numbers taken from floats: every integer up to it is exact in a
// float64 and fits an int.
const maxExactInt = 1 << 53

// asInt accepts whole JSON numbers (3, 3.0, 3e0) that fit an int. A fraction (1.5) is not an
// integer: silently truncating it would evaluate a content other than the one written.
func asInt(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) || x != math.Trunc(x) || math.Abs(x) > maxExactInt {
			return 0, false
		}
		return int(x), true
	case json.Number:
		if n, err := x.Int64(); err == nil && int64(int(n)) == n {
			return int(n), true
		}
		f, err := x.Float64()
		if err != nil || f != math.Trunc(f) || math.Abs(f) > maxExactInt {
			return 0, false
		}
		return int(f), true
	}
	return 0, false
}

// integral tells whole numbers asInt refuses only for their size.
func integral(v any) bool {
	switch x := v.(type) {
	case float64:
		return !math.IsInf(x, 0) && x == math.Trunc(x)
	case json.Number:
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return true
		} else if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return true
		}
		f, err := x.Float64()
		return (err == nil || math.IsInf(f, 0)) && f == math.Trunc(f)
	}
	return false
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x)
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

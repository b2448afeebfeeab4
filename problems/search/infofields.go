package search

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"pcgwb/problems"
)

// FlattenInfo is the one flattening of an info into its numeric fields by dotted path
// ("solution.length"), booleans as 0 or 1: what MAP-Elites axes, the gallery's sort keys and
// filters read. It walks the info's values as encoding/json would encode them (json tags,
// omitempty, embedded structs, maps) without encoding them; only a value with its own
// MarshalJSON is encoded to see what it holds. An info that JSON could not encode (NaN, Inf)
// is an error.
func FlattenInfo(info problems.Info) (map[string]float64, error) {
	out := map[string]float64{}
	if err := flatten(reflect.ValueOf(info), "", out); err != nil {
		return nil, err
	}
	return out, nil
}

// NumericFields lists the dotted paths of an info's numeric (and boolean) fields, sorted: what
// MAP-Elites can use as axes.
func NumericFields(info problems.Info) []string {
	m, err := FlattenInfo(info)
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var marshalerType = reflect.TypeFor[json.Marshaler]()

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

func flatten(v reflect.Value, prefix string, out map[string]float64) error {
	if !v.IsValid() {
		return nil
	}
	if v.Kind() != reflect.Pointer && v.Kind() != reflect.Interface && v.Type().Implements(marshalerType) ||
		v.Kind() == reflect.Pointer && !v.IsNil() && v.Type().Implements(marshalerType) {
		return flattenEncoded(v.Interface(), prefix, out)
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return flatten(v.Elem(), prefix, out)
	case reflect.Struct:
		return flattenStruct(v, prefix, out)
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return nil // not an object the axes can name
		}
		iter := v.MapRange()
		for iter.Next() {
			if err := flatten(iter.Value(), join(prefix, iter.Key().String()), out); err != nil {
				return err
			}
		}
	case reflect.Bool:
		out[prefix] = 0
		if v.Bool() {
			out[prefix] = 1
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		out[prefix] = float64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		out[prefix] = float64(v.Uint())
	case reflect.Float32:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("info does not encode: %s is %v", prefix, f)
		}
		// as JSON writes a float32 and reads it back as a float64
		out[prefix], _ = strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 32), 64)
	case reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("info does not encode: %s is %v", prefix, f)
		}
		out[prefix] = f
	}
	return nil
}

func flattenStruct(v reflect.Value, prefix string, out map[string]float64) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fv := v.Field(i)
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if !sf.IsExported() && sf.Type.Kind() == reflect.Pointer {
					continue // encoding/json ignores these
				}
				if err := flatten(fv, prefix, out); err != nil {
					return err
				}
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		omit := false
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				omit = omit || isEmpty(fv)
			case "omitzero":
				omit = omit || fv.IsZero()
			case "string":
				omit = true // a number written as a string is no numeric field
			}
		}
		if omit {
			continue
		}
		if err := flatten(fv, join(prefix, name), out); err != nil {
			return err
		}
	}
	return nil
}

// isEmpty is encoding/json's notion of an empty value (omitempty).
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// flattenEncoded reads a value with its own JSON encoding through that encoding.
func flattenEncoded(x any, prefix string, out map[string]float64) error {
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Errorf("info does not encode: %w", err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return flatten(reflect.ValueOf(v), prefix, out)
}

package talakat

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// splitParse is modifier.parse as it was written with strings.Split: the reference for the
// cut-by-cut parse.
func splitParse(m *modifier, s string) error {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		if i == 4 {
			switch strings.ToLower(strings.TrimSpace(p)) {
			case "reverse":
				m.bounds = boundsReverse
			case "circle":
				m.bounds = boundsCircle
			default:
				m.bounds = boundsClamp
			}
			break
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return fmt.Errorf("modifier %q: %v", s, err)
		}
		switch i {
		case 0:
			m.min = v
		case 1:
			m.max = v
		case 2:
			m.rate = v
		case 3:
			m.timeBetween = v
		}
	}
	return nil
}

// FuzzModifierParse: the parse that cuts the parts one by one sets the same fields and gives
// the same error as the one that split them first.
func FuzzModifierParse(f *testing.F) {
	for _, s := range []string{"40", "10, 20, 5, 2, reverse", "10,20,5,1,circle,extra,1", "", ",", "1,,2", "a, 2", "1, 2, 3, 4, NONE", " 7 , 8 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, b := newModifier(1, 2), newModifier(1, 2)
		errA, errB := a.parse(s), splitParse(&b, s)
		if fmt.Sprint(errA) != fmt.Sprint(errB) || !reflect.DeepEqual(a, b) {
			t.Fatalf("%q: %+v (%v), want %+v (%v)", s, a, errA, b, errB)
		}
	})
}

// FuzzParseFlatObject: reading into a reused buffer (left over from another object) gives
// what reading into a fresh one gives, lists included.
func FuzzParseFlatObject(f *testing.F) {
	f.Add(`{"pattern": ["bullet", "wait", "spawner_3"], "patternTime": "4", "patternRepeat":"0"}`,
		`{"spawnedAngle": "player", "pattern": ["bullet"]}`)
	f.Add(`{"a": "1"}`, `{"a": ["x", "y", "z"], "b": ["w"], "c": "v"}`)
	f.Add(`{"a": [}`, `{}`)
	f.Add(`not an object`, `{"k": "v"`)
	f.Fuzz(func(t *testing.T, s, before string) {
		fresh, errFresh := parseFlatObject(s, nil)
		buf, _ := parseFlatObject(before, nil)
		reused, errReused := parseFlatObject(s, buf)
		if fmt.Sprint(errFresh) != fmt.Sprint(errReused) {
			t.Fatalf("%q after %q: error %v, want %v", s, before, errReused, errFresh)
		}
		if len(fresh) != len(reused) {
			t.Fatalf("%q after %q: %d fields, want %d", s, before, len(reused), len(fresh))
		}
		for i := range fresh {
			a, b := fresh[i], reused[i]
			if a.key != b.key || a.value != b.value || !slicesEqual(a.list, b.list) {
				t.Fatalf("%q after %q: field %d is %+v, want %+v", s, before, i, b, a)
			}
		}
	})
}

// slicesEqual compares lists by their strings (a reused empty list equals a nil one).
func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

package problems

// ControlInt reads an integer field of a dictionary control, tolerating JSON floats (truncated,
// as Python's int() does); a missing field reads as 0.
func ControlInt(control Control, key string) int {
	m, _ := control.(map[string]any)
	switch v := m[key].(type) {
	case int:
		return v
	case float64:
		return int(v)
	}
	return 0
}

package shape

// Abs is the absolute value of an int.
func Abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Sign is -1, 0 or 1 as v is negative, zero or positive.
func Sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

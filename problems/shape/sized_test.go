package shape

import "testing"

func TestGridSized(t *testing.T) {
	c := []any{[]any{0, 1, 2}, []any{3, 4, 5}}
	g, err := GridSized("demo", c, 3, 2)
	if err != nil || g.W != 3 || g.H != 2 || g.At(2, 1) != 5 {
		t.Fatalf("GridSized = %+v, %v", g, err)
	}
	if _, err := GridSized("demo", c, 2, 3); err == nil || err.Error() != "demo: content is 3×2, want 2×3" {
		t.Errorf("wrong size: %v", err)
	}
	if _, err := GridSized("demo", []any{}, 3, 2); err == nil || err.Error() != "content is not a non-empty list of rows" {
		t.Errorf("not a grid: %v", err)
	}
}

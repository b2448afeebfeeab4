package shape

import "fmt"

// GridSized is GridFromContent for a content that must be w tiles wide and h high, as a
// problem's variant fixes it. A content of another size is an error that names the problem:
// "zelda: content is 13×7, want 11×7" (width × height).
func GridSized(problem string, v any, w, h int) (Grid, error) {
	g, err := GridFromContent(v)
	if err != nil {
		return g, err
	}
	if g.W != w || g.H != h {
		return g, fmt.Errorf("%s: content is %d×%d, want %d×%d", problem, g.W, g.H, w, h)
	}
	return g, nil
}

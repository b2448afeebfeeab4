package solver

// StatusText is the reference's status string of a game state: "lose" for a lost state (a
// lost state never counts as won, as the agents test Lose first), "win" for a won one, and
// "running" otherwise.
func StatusText[S interface {
	Win() bool
	Lose() bool
}](s S) string {
	switch {
	case s.Lose():
		return "lose"
	case s.Win():
		return "win"
	}
	return "running"
}

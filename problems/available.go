package problems

// Unavailable says why a registered problem cannot be made on this machine (for example its
// data files are missing), or nil when it can. An unknown name is an error too.
func Unavailable(name string) error {
	e, ok := Lookup(name)
	if !ok {
		return unknownName(name)
	}
	if e.Available == nil {
		return nil
	}
	return e.Available()
}

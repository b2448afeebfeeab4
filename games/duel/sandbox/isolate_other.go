//go:build !linux

package sandbox

import (
	"runtime/debug"
)

// LimitSelf applies what limits the platform allows: outside Linux only the Go heap's soft
// limit, so the child process there relies on the in-process guards and the parent's wall
// clock.
func LimitSelf(l ChildLimits) error {
	l = l.withDefaults()
	debug.SetMemoryLimit(int64(l.Memory))
	return nil
}

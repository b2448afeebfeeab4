//go:build unix

package safeio

import "syscall"

// openFlags makes opening a FIFO that slipped past the check return at once instead of blocking.
const openFlags = syscall.O_NONBLOCK

// noFollow makes opening a symbolic link fail (ELOOP) instead of opening its target.
const noFollow = syscall.O_NOFOLLOW

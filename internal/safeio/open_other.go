//go:build !unix

package safeio

const openFlags = 0

// noFollow is 0 where the open call has no such flag: OpenLog checks with Lstat instead.
const noFollow = 0

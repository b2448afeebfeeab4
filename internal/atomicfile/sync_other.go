//go:build !unix

package atomicfile

func isEINVAL(error) bool { return false }

// Package all registers every problem of the benchmark: import it for its side effect.
package all

// Package script is the Starlark runtime of the duel harness: it compiles a game script
// (Compile, Load, the built-in games under Builtins), checks the contract it defines and runs
// its calls under in-interpreter limits (Limits: steps, time, memory and the size guards of
// guard.go, with one watchdog per process). It runs scripts in the current process; the hard
// boundary around untrusted scripts is the sandbox package's worker process.
package script

// Package sandbox runs untrusted game scripts out of process. In-process limits stop runaway
// loops, recursion, module loading and the usual one-step memory bombs (../script/guard.go,
// ../script/sandbox.go); the hard boundary is a sandbox worker process (worker.go, remote.go):
// a warm copy of the same binary, in a process group of its own, under an address-space and
// CPU-time limit with a bounded stack and no core dumps, killed with its parent. Every command
// and the GUI play scripts through a Remote game (Pool.Open), whose states are handles into
// the worker; built-in agents search inside the worker (Remote.RunAgent, which duel.ActOn
// uses), so a sandboxed MCTS move costs about what an in-process one does. Budgets are CPU
// time, per call, per move and per game (Budgets): a busy machine does not change a verdict.
// A worker that crashes, overflows, runs out of memory or overruns is killed and the game is
// scored as the script's fault with the reason named (isolate.go). The worker's environment
// holds no credential (SandboxEnv).
//
// The worker is the program itself re-executed with WorkerEnv set: its main (or a test
// binary's TestMain) must call RunSandboxChild first thing when IsSandboxChild. The packages
// whose work runs inside the worker register it at init: a validation is a Job
// (RegisterJob, Pool.RunJob), a training iteration's self-play a GameOp (RegisterGameOp,
// Remote.Call), and a learned agent's moves travel as a spec (RegisterAgentSpecs).
//
// The package imports only the game contract (core), the Starlark runtime (script) and the
// built-in agents (agents): no Fyne, no Ebiten, nothing of the app.
package sandbox

// Package validate runs gg-bench's filters on a game script (gg-bench §7 and the acceptance
// pipeline of spec §15.3): load, execution, termination, random playouts, determinism,
// degenerate play and the skill round robin, stopping at the first that rejects, with
// warnings for what makes an accepted game a poor benchmark game (a slow game, a state that
// grows without bound). Program and Source run the filters in this process;
// Sandboxed runs them in a sandbox worker, where a crash, an overflow, running out of
// memory or overrunning the CPU budget rejects the game in the filter it was in (the worker
// runs validations as a registered job: this package registers it at init).
package validate

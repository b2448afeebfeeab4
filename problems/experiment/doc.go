// Package experiment runs generators as data: one folder per run, sweeps of many runs across
// cores, and reports (CSV and the paper's figures as PNG).
//
// A run folder holds
//
//	config.json      everything needed to reproduce the run (problem, generator, fitness,
//	                 generations, seed and every generator setting, defaults filled in)
//	events.jsonl     one search.Event per generation (generation 0 is the first population),
//	                 appended and synced as each generation completes
//	checkpoint.json  the generator's complete state after the last recorded generation,
//	                 random source included, replaced atomically every generation
//	final.json       the final population (content, control, info, metrics, fitness), written
//	                 atomically when the last generation is done
//
// A run killed at any moment resumes from its checkpoint and loses at most the generation in
// flight: events.jsonl is cut back to the checkpoint's length (the checkpoint records it), so a
// line written after the last checkpoint is dropped and rewritten. Because the generator state
// includes its random source, a resumed run ends with the same final.json as one never
// interrupted, and the same seed always gives the same final.json (events.jsonl differs only in
// the elapsed times). One folder must be run by one process at a time.
//
// A sweep lays its runs out as OUT/<problem>/<fitness>/<generator>/<seed>/, the layout of the
// paper's experiments repository.
package experiment

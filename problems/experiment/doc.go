// Package experiment runs generators as data: one folder per run, sweeps of many runs across
// cores, and reports (summary.csv, runs.csv, the paper's figures as PNG, SVG or PDF, the
// differences between groups and LaTeX tables; the statistics are pcgwb/stats').
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
// the elapsed times).
//
// Run.ExecuteWith is the workbench's one run loop and the only writer of run folders: it
// drives any registered generator (search.Register; the LLM generator registers itself from
// pcgwb/llm and gets its client as the run's Runtime), and a generator with files of its own
// (FolderUser: the LLM generator's replies.jsonl, usage.jsonl, llm.json, prompt.txt) writes
// them through the Folder it is given: logs append-only, whole files atomically. One folder is
// run by one process at a time: ExecuteWith takes the folder's lock (folderlock), a sweep
// also locks its output folder, and a second writer gets a *folderlock.HeldError naming the
// holder's pid. Temporary files of crashed writers are removed when the lock is taken. Every
// file read back is checked first; damage is a *FileError naming the file and the field.
//
// Record is a run folder as the report and the GUI read it. The one rule for unfinished runs:
// only finished runs count in a group's final values; every run's recorded generations count
// in its curves. Groups are keyed by the whole configuration but its seeds (the search's and
// every seed of a generator's own section, such as the LLM's llm.seed), one run per distinct
// seed; intervals (Interval, stats.Interval) stay inside the value's range.
//
// A sweep lays its runs out as OUT/<problem>/<fitness>/<generator>/<seed>/, the layout of the
// paper's experiments repository.
package experiment

// Package search holds the workbench's generators: the paper's random search, μ+λ evolution
// strategy and genetic algorithm (as amidos2006/benchmark_experiments runs them), plus a
// MAP-Elites archive and constructive baselines. All of them share one contract (Generator):
// Reset builds and evaluates the first population, Step runs one generation, Population lists
// the current individuals best first, and Save / Load capture everything needed to continue a
// run exactly where it stopped.
//
// Randomness. The reference draws contents from each space's own unseeded numpy generator and
// everything else from the generator's seeded one, so its runs cannot be repeated. Here every
// draw (contents, controls, selection, crossover, mutation) comes from ONE seeded PCG source,
// in a fixed order, and its state is part of the saved State: the same seed gives the same run
// bit for bit, and a run saved and loaded at generation k continues exactly as one that never
// stopped. The draw order is: for a new individual its content, then its control; for a
// mutation the fresh content sample, then the swap decisions; for a crossover the swap
// decisions, then the control pick.
//
// Evaluation. A content's info is computed once (in parallel across cores, see
// problems.Infos) and cached with it: an individual keeps its info for life, identical contents
// share one info, and pairwise diversities between infos already compared in the previous batch
// are reused. Quality, controllability and diversity are then read from the infos exactly as the
// reference's evaluate() does; diversity is the greedy set diversity within the batch evaluated
// together (the whole new population for GA, the λ children for ES and random search), which is
// what the reference's evaluateChromosomes computes.
package search

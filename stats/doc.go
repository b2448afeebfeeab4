// Package stats is the workbench's one statistics layer: every comparison that Compare,
// `report`, `report --paper`, `birds compare`, `duel eval/score` and `playtest report` make
// goes through it, so that a number and its interval mean the same thing everywhere.
//
// It follows Arcuri & Briand's guidance for comparing randomised algorithms (“A practical
// guide for using statistical tests to assess randomized algorithms in software engineering”,
// ICSE 2011): report each group with its interval, the difference between two groups with its
// interval, a rank test (Mann–Whitney U) for the p-value, the Vargha–Delaney Â12 effect size,
// and a correction (Holm) when a family of comparisons is made.
//
//   - Proportions of independent trials: Wilson's score interval (Wilson).
//   - Means: the percentile bootstrap (BootstrapMean, Bootstrap), never outside the values'
//     range and without a normality assumption.
//   - Two independent groups: Diff (bootstrap interval of the difference of means), MannWhitney
//     (exact p for small samples without ties, normal approximation with tie correction
//     otherwise), Permutation, A12, and Compare which gathers them.
//   - Paired units (the same seed under two fitnesses, the same letter under two prompts, the
//     same game under two models): PairedDiff, Wilcoxon (signed-rank), PairedPermutation and
//     ComparePaired.
//   - Nested data (plays nested in participants and levels): ClusterMean and ClusterDiff, a
//     cluster bootstrap that resamples whole units (and, when given, a crossed factor as well:
//     the two-way “pigeonhole” bootstrap).
//   - A family of p-values: Holm.
//
// Every interval is at the 95% level and carries the Method that produced it and the number
// of units it stands on. Every resampling is seeded, by default from the data themselves, so
// the same numbers always give the same interval. The package is pure Go and imports nothing
// of the workbench.
package stats

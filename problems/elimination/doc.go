// Package elimination is the PCG Benchmark's Elimination problem (elimination-*): a word puzzle
// of n letters from which the player removes letters to spell words. A good puzzle hides
// common short words and rarer long words (their frequency ranks near the variant's targets)
// and no word longer than six letters; controllability asks that no word longer than a target
// appears contiguously in the letter row.
//
// The word list (elimination/dictionary.txt) and the frequency ranks (elimination/count.txt)
// are the reference's data, found at run time through package data and loaded once per process.
package elimination

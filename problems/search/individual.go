package search

import (
	"fmt"
	"sort"
	"strings"

	"pcgwb/problems"
)

// Individual is a level inside a search: the scored level (problems.Scored) plus what the search
// keeps beside it. The info is computed once and kept; quality and controllability depend only
// on it, diversity on the batch the individual was evaluated in. The embedded Fitness is filled
// in only when the level leaves the run (Generator.Fitness is the value inside it). Its JSON
// is the embedded level's (a final.json entry): the search's own fields are not saved.
type Individual struct {
	problems.Scored

	// Features are the MAP-Elites coordinates (the chosen info fields), nil elsewhere.
	Features []float64

	key    string // canonical JSON of the content: the info cache key
	infoID uint64 // identity of the info, shared by identical contents
}

// NewIndividual is an unevaluated individual of content c judged against control k, in no
// archive cell.
func NewIndividual(c problems.Content, k problems.Control) *Individual {
	return &Individual{Scored: problems.Scored{Content: c, Control: k, Cell: problems.NoCell}}
}

// FitnessFunc turns an evaluated individual's three values into the value the search maximises.
type FitnessFunc func(quality, controllability, diversity float64) float64

// The paper's fitness functions, cascaded: controllability only counts once quality passes,
// diversity only once both pass.
const (
	FitnessQuality                 = "quality"
	FitnessQualityControl          = "quality_control"
	FitnessQualityControlDiversity = "quality_control_diversity"
)

var fitnesses = map[string]FitnessFunc{
	FitnessQuality: func(q, _, _ float64) float64 { return q },
	FitnessQualityControl: func(q, c, _ float64) float64 {
		r := q
		if q >= 1 {
			r += c
		}
		return r / 2.0
	},
	FitnessQualityControlDiversity: func(q, c, d float64) float64 {
		r := q
		if q >= 1 {
			r += c
		}
		if q >= 1 && c >= 1 {
			r += d
		}
		return r / 3.0
	},
}

// Fitnesses lists the fitness names.
func Fitnesses() []string {
	return []string{FitnessQuality, FitnessQualityControl, FitnessQualityControlDiversity}
}

// ParseFitness accepts a fitness name with or without the reference's "fitness_" prefix and
// returns the canonical name.
func ParseFitness(name string) (string, FitnessFunc, error) {
	n := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(name)), "fitness_")
	if f, ok := fitnesses[n]; ok {
		return n, f, nil
	}
	return "", nil, fmt.Errorf("unknown fitness %q (choose one of %s)", name, strings.Join(Fitnesses(), ", "))
}

// SortByFitness orders individuals best first, keeping the order of ties (Python's stable
// sort with reverse=True, which the reference uses everywhere): the order of every
// generator's population.
func SortByFitness(pop []*Individual, fit FitnessFunc) {
	vals := make(map[*Individual]float64, len(pop))
	for _, ind := range pop {
		vals[ind] = fit(ind.Quality, ind.Controllability, ind.Diversity)
	}
	sort.SliceStable(pop, func(i, j int) bool { return vals[pop[i]] > vals[pop[j]] })
}

package search

import "math"

// Stats summarise one value over a population.
type Stats struct {
	Min  float64 `json:"min"`
	Mean float64 `json:"mean"`
	Max  float64 `json:"max"`
}

// Event is the one record of a generation that everything listens to: the CLI progress line,
// the run's events.jsonl, the report's curves and the GUI's live plot.
type Event struct {
	Generator  string `json:"generator"`
	Generation int    `json:"generation"`
	// Evaluations counts the info computations so far.
	Evaluations int `json:"evaluations"`
	// ModelCalls counts the language-model replies so far (cached ones included: the budget
	// they stand for), 0 and left out for generators that use no model.
	ModelCalls int `json:"model_calls,omitempty"`
	// Tokens counts the language-model tokens so far (prompt and completion as the server
	// reported them; a cached reply counts what it cost when received, so a replay has the
	// same budget), 0 and left out for generators that use no model. With ModelCalls and
	// Elapsed it is a budget axis of the report (--x tokens).
	Tokens      int     `json:"tokens,omitempty"`
	Size        int     `json:"size"`
	BestFitness float64 `json:"best_fitness"`
	MeanFitness float64 `json:"mean_fitness"`
	Quality     Stats   `json:"quality"`
	// Controllability is spelled correctly here; the reference's files say "controlability".
	Controllability Stats `json:"controllability"`
	Diversity       Stats `json:"diversity"`
	// Feasible, Unique and Controlled count the individuals whose quality, diversity and
	// controllability reach 1.
	Feasible   int `json:"feasible"`
	Unique     int `json:"unique"`
	Controlled int `json:"controlled"`
	// Elapsed is the run's wall time in seconds up to this generation, across resumes; the
	// generator leaves it 0, the runner fills it in.
	Elapsed float64 `json:"elapsed_s"`
	// Archive is MAP-Elites' grid, nil for the other generators.
	Archive *ArchiveView `json:"archive,omitempty"`
}

// ArchiveView is a MAP-Elites archive as plotted: the axes and the fitness of every filled cell.
type ArchiveView struct {
	Axes   []Axis `json:"axes"`
	Filled int    `json:"filled"`
	Cells  []Cell `json:"cells"`
	// Outside counts, per axis, the elites whose value lies outside the axis's range: they are
	// kept in its end bins, where they crowd each other out. Left out when there are none.
	Outside []int `json:"outside,omitempty"`
}

// Cell is one filled archive cell.
type Cell struct {
	X        int     `json:"x"`
	Y        int     `json:"y"`
	Fitness  float64 `json:"fitness"`
	Feasible bool    `json:"feasible,omitempty"`
}

func (e *engine) Event() Event {
	ev := Summarize(e)
	if a, ok := e.alg.(archived); ok && len(e.pop) > 0 {
		ev.Archive = a.view()
	}
	return ev
}

// Summarize is the Event of a generator's current population: its counters, the fitness of its
// best individual and the mean fitness, the min/mean/max of each measure and the counts of
// feasible, unique and controlled individuals. Every Generator's Event starts from it; Archive is
// left to the generator and Elapsed to the runner.
func Summarize(g Generator) Event {
	pop := g.Population()
	ev := Event{Generator: g.Name(), Generation: g.Generation(), Evaluations: g.Evaluations(), Size: len(pop)}
	if len(pop) == 0 {
		return ev
	}
	var q, c, d, f stat
	for _, ind := range pop {
		q.add(ind.Quality)
		c.add(ind.Controllability)
		d.add(ind.Diversity)
		f.add(g.Fitness(ind))
		if ind.Feasible() {
			ev.Feasible++
		}
		if ind.Unique() {
			ev.Unique++
		}
		if ind.Controlled() {
			ev.Controlled++
		}
	}
	ev.BestFitness, ev.MeanFitness = g.Best(), f.mean()
	ev.Quality, ev.Controllability, ev.Diversity = q.stats(), c.stats(), d.stats()
	return ev
}

type stat struct {
	n             int
	sum, min, max float64
}

func (s *stat) add(v float64) {
	if s.n == 0 {
		s.min, s.max = v, v
	}
	s.n++
	s.sum += v
	s.min, s.max = math.Min(s.min, v), math.Max(s.max, v)
}

func (s *stat) mean() float64 { return s.sum / float64(s.n) }

func (s *stat) stats() Stats { return Stats{Min: s.min, Mean: s.mean(), Max: s.max} }

package problems

import "encoding/json"

// NoCell is the Cell of a level that is not in a MAP-Elites archive.
const NoCell = -1

// Scored is one evaluated level: the content, the control it was judged against, its info and
// the values the benchmark scores it by. It is the one type a level has once it is evaluated,
// from a sample set through a generator's population to final.json and the gallery, so a
// level read back from a run folder is the same value the run wrote. (Item stays the input:
// a content and control not yet evaluated.)
//
// Its JSON is an entry of final.json's population, with the reference's keys: the spelling
// "controlability", and "cell" only for a level of a MAP-Elites archive.
type Scored struct {
	Content Content
	Control Control
	// Info is nil until computed (a checkpoint does not store it); an info read back from
	// JSON is a JSON object (map[string]any).
	Info            Info
	Quality         float64
	Diversity       float64
	Controllability float64
	// Fitness is what the run ranked the level by. A generator fills it in when the level
	// leaves the run (inside a run the generator's fitness function is the one that counts);
	// a sample set ranks by quality.
	Fitness float64
	// Cell is the level's MAP-Elites archive cell (row-major), NoCell elsewhere.
	Cell int
	// Origin says what made the level in a run whose generator records it (the LLM-guided
	// evolution: search.OriginModel and the others), "" elsewhere; Born is the generation that
	// made it (a level born before the run's last generation was carried over).
	Origin string
	Born   int
}

// Feasible, Unique and Controlled are the benchmark's pass criteria (value >= 1), the counts the
// paper reports.
func (s *Scored) Feasible() bool   { return s.Quality >= 1 }
func (s *Scored) Unique() bool     { return s.Diversity >= 1 }
func (s *Scored) Controlled() bool { return s.Controllability >= 1 }

// Item is the level as an input item (content and control).
func (s *Scored) Item() Item { return Item{Content: s.Content, Control: s.Control} }

// scoredJSON is Scored on disk. The field order is final.json's, which must not change: the
// same seed gives a byte-identical file.
type scoredJSON struct {
	Content         Content `json:"content"`
	Control         Control `json:"control"`
	Info            Info    `json:"info"`
	Quality         float64 `json:"quality"`
	Diversity       float64 `json:"diversity"`
	Controllability float64 `json:"controlability"`
	Fitness         float64 `json:"fitness"`
	Cell            *int    `json:"cell,omitempty"`
	Origin          string  `json:"origin,omitempty"`
	Born            *int    `json:"born,omitempty"`
}

// MarshalJSON writes the level as a final.json entry ("cell" only when it has one).
func (s Scored) MarshalJSON() ([]byte, error) {
	w := scoredJSON{Content: s.Content, Control: s.Control, Info: s.Info, Quality: s.Quality,
		Diversity: s.Diversity, Controllability: s.Controllability, Fitness: s.Fitness}
	if s.Cell >= 0 {
		cell := s.Cell
		w.Cell = &cell
	}
	if s.Origin != "" {
		born := s.Born
		w.Origin, w.Born = s.Origin, &born
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads a final.json entry; an entry without "cell" gets NoCell.
func (s *Scored) UnmarshalJSON(data []byte) error {
	var w scoredJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*s = Scored{Content: w.Content, Control: w.Control, Info: w.Info, Quality: w.Quality,
		Diversity: w.Diversity, Controllability: w.Controllability, Fitness: w.Fitness, Cell: NoCell, Origin: w.Origin}
	if w.Cell != nil {
		s.Cell = *w.Cell
	}
	if w.Born != nil {
		s.Born = *w.Born
	}
	return nil
}

// ScoreItems pairs evaluated items with their evaluation (item i with the evaluation's values
// and info i, 0 and nil where it has none). The levels are ranked by quality (Fitness =
// Quality), as a quality run ranks them, and are in no archive.
func ScoreItems(items []Item, ev *Evaluation) []Scored {
	out := make([]Scored, len(items))
	for i, it := range items {
		s := Scored{Content: it.Content, Control: it.Control, Cell: NoCell}
		if ev != nil {
			s.Quality = valueAt(ev.Details.Quality, i)
			s.Diversity = valueAt(ev.Details.Diversity, i)
			s.Controllability = valueAt(ev.Details.Controllability, i)
			if i < len(ev.Infos) {
				s.Info = ev.Infos[i]
			}
		}
		s.Fitness = s.Quality
		out[i] = s
	}
	return out
}

// ItemsOf is the levels as input items (content and control), in order.
func ItemsOf(levels []Scored) []Item {
	out := make([]Item, len(levels))
	for i := range levels {
		out[i] = levels[i].Item()
	}
	return out
}

// PassRates are the shares of levels that pass quality, diversity and controllability: the
// percentages of the reference's evaluate() for the same set.
func PassRates(levels []Scored) (quality, diversity, controllability float64) {
	q, d, c := make([]float64, len(levels)), make([]float64, len(levels)), make([]float64, len(levels))
	for i := range levels {
		q[i], d[i], c[i] = levels[i].Quality, levels[i].Diversity, levels[i].Controllability
	}
	return passFraction(q), passFraction(d), passFraction(c)
}

func valueAt(vals []float64, i int) float64 {
	if i < len(vals) {
		return vals[i]
	}
	return 0
}

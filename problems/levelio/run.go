package levelio

import (
	"fmt"

	"pcgwb/problems"
	"pcgwb/problems/experiment"
)

// FromRun reads a run folder's final population (best first) as items of its problem, named
// by their place (#1 is the best).
func FromRun(dir string) (string, problems.Problem, []problems.Item, error) {
	final, err := experiment.ReadFinal(dir)
	if err != nil {
		return "", nil, nil, err
	}
	name := final.Config.Problem
	p, err := problems.Make(name)
	if err != nil {
		return "", nil, nil, fmt.Errorf("%s: %w", dir, err)
	}
	items := make([]problems.Item, len(final.Population))
	for i, ind := range final.Population {
		c, err := p.ContentSpace().Normalize(ind.Content, "content")
		if err != nil {
			return "", nil, nil, fmt.Errorf("%s: individual %d: %w", dir, i+1, err)
		}
		items[i] = problems.Item{ID: fmt.Sprintf("#%d", i+1), Content: c}
	}
	return name, p, items, nil
}

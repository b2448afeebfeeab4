package play

import (
	"encoding/json"
	"fmt"

	"pcgwb/problems"
)

// EncodeLevel is the one level encoding of the play hand-off (a parent to the play window's
// child, a playtest session to its levels): the project's item file (problems.ItemFile) naming
// the problem, holding exactly one item.
func EncodeLevel(problem string, item problems.Item) ([]byte, error) {
	data, err := json.Marshal(problems.ItemFile{Problem: problem, Items: []problems.Item{item}})
	if err != nil {
		return nil, fmt.Errorf("cannot encode the level: %w", err)
	}
	return data, nil
}

// DecodeLevel reads a level written by EncodeLevel for problem p (registered as problem): the
// file must name that problem and hold one item, which is normalized through p's spaces.
func DecodeLevel(problem string, p problems.Problem, data []byte) (problems.Item, error) {
	var head struct {
		Problem string `json:"problem"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return problems.Item{}, fmt.Errorf("not a level hand-off: %w", err)
	}
	if head.Problem != problem {
		return problems.Item{}, fmt.Errorf("the level is for problem %.60q, not %s", head.Problem, problem)
	}
	items, err := problems.DecodeItems(p, data)
	if err != nil {
		return problems.Item{}, err
	}
	if len(items) != 1 {
		return problems.Item{}, fmt.Errorf("a level hand-off holds one item, this one %d", len(items))
	}
	return items[0], nil
}

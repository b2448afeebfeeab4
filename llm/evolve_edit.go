package llm

import (
	"hash/fnv"

	"pcgwb/problems"
	"pcgwb/problems/space"
)

// KnownEdit is a small deterministic edit of levels written in a prompt's format (legend): the
// first parent with one leaf replaced by another value, the leaf and its value drawn from a
// source seeded by the hash of the parents' texts and seed (the request's). It is what the test model (llmtest.Evolver) answers, so a
// test knows each child the "model" makes, and a baseline a real model should beat. It returns
// "" when the first parent does not parse.
func KnownEdit(p problems.Problem, legend Legend, parents []string, seed int) string {
	if len(parents) == 0 {
		return ""
	}
	sp := p.ContentSpace()
	c, err := ParseContent("```\n"+parents[0]+"\n```", sp, legend)
	if err != nil {
		return ""
	}
	h := fnv.New64a()
	for _, t := range parents {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	rng := newRand(h.Sum64() + uint64(seed))
	vals := space.Flat(sp, c)
	if len(vals) == 0 {
		return ""
	}
	k := rng.IntN(len(vals))
	old := vals[k]
	for try := 0; try < 16 && vals[k] == old; try++ {
		vals[k] = space.SampleFlat(sp, rng)[k]
	}
	edited, err := space.Restructure(sp, vals)
	if err != nil {
		return ""
	}
	return FormatContent(edited, sp, legend)
}

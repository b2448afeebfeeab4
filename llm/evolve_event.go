package llm

import "pcgwb/problems/search"

// Event is the engine's event with the model calls so far (search.Event.ModelCalls: the
// replies, cached ones included, and the failed requests) and the tokens they cost
// (search.Event.Tokens), the budget axes of comparisons.
func (g *Evolver) Event() search.Event {
	ev := g.Generator.Event()
	ev.ModelCalls = g.op.stats.Calls
	ev.Tokens = g.op.stats.PromptTokens + g.op.stats.CompletionTokens
	return ev
}

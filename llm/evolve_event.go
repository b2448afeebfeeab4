package llm

import "pcgwb/problems/search"

// Event is the engine's event with the model calls so far (search.Event.ModelCalls: the
// replies, cached ones included, and the failed requests), the budget axis of comparisons.
func (g *Evolver) Event() search.Event {
	ev := g.Generator.Event()
	ev.ModelCalls = g.op.stats.Calls
	return ev
}

package app

import (
	"sync"
	"testing"
	"time"

	"pcgwb/problems"
)

// gatedName is the rooms problem whose level evaluations wait for permits the test hands out,
// so that a run can be held between two generations for as long as the test likes.
const gatedName = "apptest-gated-v0"

var infoGate = newGate()

func init() {
	problems.MustRegister(gatedName, problems.Params{}, func(problems.Params) (problems.Problem, error) {
		return &gatedRooms{}, nil
	})
}

type gatedRooms struct{ rooms }

func (g *gatedRooms) Info(c problems.Content) (problems.Info, error) {
	infoGate.take()
	return g.rooms.Info(c)
}

// gate hands out permits to start an evaluation; it is open (no limit) until set.
type gate struct {
	mu      sync.Mutex
	cond    *sync.Cond
	permits int // evaluations that may still start; negative: no limit
	waiting int // evaluations waiting for a permit
}

func newGate() *gate {
	g := &gate{permits: -1}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *gate) take() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waiting++
	for g.permits == 0 {
		g.cond.Wait()
	}
	g.waiting--
	if g.permits > 0 {
		g.permits--
	}
}

// set allows n more evaluations (negative: opens the gate).
func (g *gate) set(n int) {
	g.mu.Lock()
	g.permits = n
	g.mu.Unlock()
	g.cond.Broadcast()
}

// blocked reports that an evaluation waits for a permit.
func (g *gate) blocked() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiting > 0
}

// TestRunRedrawsOnlyOnNewData holds a run between generation 0 and 1 (its evaluations wait
// for permits) and lets the UI run meanwhile: the plots must not be redrawn while no new
// generation arrives. Once the run goes on they are, so the count is alive. The quiet stretch
// is an observation window (a property about nothing happening), not a synchronisation: every
// wait on something that must happen waits for that thing.
func TestRunRedrawsOnlyOnNewData(t *testing.T) {
	wb := newRunWorkbench(t)
	if err := wb.selectProblem(gatedName); err != nil {
		t.Fatal(err)
	}
	wait(t, wb)
	t.Cleanup(func() { infoGate.set(-1) }) // before the workbench's cleanup, which waits for the run
	const pop = 4
	infoGate.set(pop) // generation 0: one evaluation per individual, then the run waits
	rp := wb.run
	startRun(t, wb, "ga", pop, 3)
	eventually(t, "generation 0 shown and generation 1 held", func() bool {
		return len(rp.fitnessPlot.Spec().series) > 0 && len(rp.fitnessPlot.Spec().series[0].x) == 1 && infoGate.blocked()
	})
	await(t, rp.fitnessPlot.Wait)
	await(t, rp.countsPlot.Wait)
	fitness, counts := rp.fitnessPlot.Draws, rp.countsPlot.Draws
	letUIRun(func() { time.Sleep(4 * runUIInterval) })
	await(t, rp.fitnessPlot.Wait)
	await(t, rp.countsPlot.Wait)
	if rp.fitnessPlot.Draws != fitness || rp.countsPlot.Draws != counts {
		t.Errorf("the plots were redrawn without new data: fitness %d → %d draws, counts %d → %d",
			fitness, rp.fitnessPlot.Draws, counts, rp.countsPlot.Draws)
	}
	infoGate.set(-1)
	waitRun(t, wb)
	if rp.State() != RunFinished {
		t.Fatalf("state %v: %s", rp.State(), rp.errorText.Text)
	}
	if rp.fitnessPlot.Draws <= fitness || len(rp.fitnessPlot.Spec().series[0].x) != 4 {
		t.Errorf("the new generations were not drawn: %d draws, %d generations shown", rp.fitnessPlot.Draws, len(rp.fitnessPlot.Spec().series[0].x))
	}
}

package learn

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"testing"

	"pcgwb/internal/folderlock"
)

func smallTraining() TrainOptions {
	return TrainOptions{Budget: 1 << 62, SelectGames: 2, PlayIterations: 10, StrengthGames: -1,
		Config: TrainConfig{Seed: 7, GamesPerIter: 4, Simulations: 12, Hidden: 16, Epochs: 2}}
}

func inProcess(name string) func(bool) (core.Game, error) {
	return func(bool) (core.Game, error) { return script.LoadBuiltin(name, script.Limits{}) }
}

// TestTrainingIsDeterministicAndResumable: the same seed gives the same checkpoints, whether
// the run goes on in one go or is continued from its folder; a locked folder is refused.
func TestTrainingIsDeterministicAndResumable(t *testing.T) {
	ctx := context.Background()
	src, _ := script.BuiltinProgram("take-away", script.Limits{})
	one, two := t.TempDir(), t.TempDir()
	opts := smallTraining()
	opts.MaxIterations = 3
	run, b, err := RunTraining(ctx, inProcess("take-away"), src.Source(), one, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Checkpoints) != 3 || b.Checkpoint == "" || len(b.Candidates) != 3 || b.Tournament == nil {
		t.Fatalf("run %+v, benchmark %+v", run, b)
	}
	opts.MaxIterations = 1
	if _, _, err := RunTraining(ctx, inProcess("take-away"), src.Source(), two, opts); err != nil {
		t.Fatal(err)
	}
	opts.MaxIterations = 3
	run2, b2, err := RunTraining(ctx, inProcess("take-away"), src.Source(), two, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(run2.Iterations) != 3 {
		t.Fatalf("continued run has %d iterations", len(run2.Iterations))
	}
	for _, c := range run.Checkpoints {
		a, err1 := os.ReadFile(filepath.Join(one, c))
		bb, err2 := os.ReadFile(filepath.Join(two, c))
		if err1 != nil || err2 != nil || string(a) != string(bb) {
			t.Errorf("%s differs between the run in one go and the continued run", c)
		}
	}
	if b.Checkpoint != b2.Checkpoint || b.Agent != b2.Agent {
		t.Errorf("benchmarks differ: %s vs %s", b.Agent, b2.Agent)
	}
	// another script in the same folder is refused
	other, _ := script.BuiltinProgram("nim", script.Limits{})
	if _, _, err := RunTraining(ctx, inProcess("nim"), other.Source(), two, opts); err == nil {
		t.Error("training of another script continued the folder")
	}
	// a held folder is refused
	lock, err := folderlock.Acquire(one)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	if _, _, err := RunTraining(ctx, inProcess("take-away"), src.Source(), one, opts); !errors.Is(err, folderlock.ErrHeld) {
		t.Errorf("locked folder: %v", err)
	}
	if _, a, err := LoadBenchmark(one); err != nil || a.Name() != b.Agent {
		t.Errorf("LoadBenchmark: %v", err)
	}
}

// TestTrainingInTheSandboxMatches: an iteration run in a sandbox worker gives the network the
// same iteration gives in this process, and a NetAgent searching inside the worker plays the
// move it plays here.
func TestTrainingInTheSandboxMatches(t *testing.T) {
	ctx := context.Background()
	g, err := script.LoadBuiltin("tic-tac-toe", script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	cfg := smallTraining().Config
	net := InitialNet(g.Info(), cfg)
	here, _, err := Train(ctx, g, net, cfg, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl := &sandbox.Pool{MaxIdle: 1}
	defer pl.Close()
	src, _ := script.BuiltinProgram("tic-tac-toe", script.Limits{})
	r, err := pl.Open(ctx, "tic-tac-toe", src.Source(), sandbox.SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	there, st, err := Train(ctx, r, net, cfg, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if here.Hash() != there.Hash() || st.Games != cfg.GamesPerIter || st.Samples == 0 {
		t.Fatalf("sandboxed iteration differs (%s vs %s), stats %+v", here.Hash(), there.Hash(), st)
	}
	agent := &NetAgent{Net: here, Label: "t", Iterations: 30}
	a1, err := duel.Play(ctx, g, [2]core.Agent{agent, agents.Random{}}, 3, 0, [2]*rand.Rand{duel.SeatRNG(1, 0, 0), duel.SeatRNG(1, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	a2, err := duel.Play(ctx, r, [2]core.Agent{agent, agents.Random{}}, 3, 0, [2]*rand.Rand{duel.SeatRNG(1, 0, 0), duel.SeatRNG(1, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if a1.Fault != nil || a2.Fault != nil || len(a1.Moves) != len(a2.Moves) {
		t.Fatalf("in process %+v, in the sandbox %+v", a1, a2)
	}
	for i := range a1.Moves {
		if a1.Moves[i] != a2.Moves[i] {
			t.Fatalf("moves differ: %v vs %v", a1.Moves, a2.Moves)
		}
	}
}

func TestDefaultObservation(t *testing.T) {
	g, err := script.Load("noobs", []byte(gameSource("NUM_ACTIONS = 2\n", map[string]string{"observe": ""})), script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Info().ObsSize != 0 {
		t.Fatalf("the test game has OBS_SIZE %d", g.Info().ObsSize)
	}
	s0, _ := g.Initial(0)
	s1, _ := g.Apply(s0, 1)
	x0, _ := observation(g, s0, 0)
	x1, _ := observation(g, s1, 1)
	if len(x0) != defaultObsSize+1 || len(x1) != len(x0) {
		t.Fatalf("observation of %d and %d numbers", len(x0), len(x1))
	}
	same := true
	for i := range x0 {
		same = same && x0[i] == x1[i]
	}
	if same {
		t.Error("two different states give the same default observation")
	}
}

// TestReplayWindow: the window keeps the last Window iterations' samples, and a window saved
// ahead of train.json is cut back to the iterations train.json records.
func TestReplayWindow(t *testing.T) {
	r := &Replay{}
	for it := 0; it < 5; it++ {
		r.add(it, []sample{{Z: float64(it)}}, 3)
	}
	if got := r.samples(); len(got) != 3 || got[0].Z != 2 || got[2].Z != 4 {
		t.Fatalf("window %+v", got)
	}
	r.upTo(4)
	if got := r.samples(); len(got) != 2 || got[1].Z != 3 {
		t.Fatalf("cut back %+v", got)
	}
}

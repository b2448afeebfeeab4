package birds

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// The later trials of a level run at once on spare cores; the trials kept and every number
// in them are those of running them one after the other (all slots taken).
func TestParallelTrialsEqualSerialTrials(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 31))
	checked := 0
	for attempt := 0; checked < 6 && attempt < 200; attempt++ {
		lv, err := mustConvert(t, randomProgram(rng, 5+rng.IntN(30)))
		if err != nil {
			continue
		}
		serial := func() *Trials {
			// Take every slot: no trial can borrow a core.
			for i := 0; i < cap(coreSlots); i++ {
				coreSlots <- struct{}{}
			}
			defer func() {
				for i := 0; i < cap(coreSlots); i++ {
					<-coreSlots
				}
			}()
			tr, err := SimulateTrials(context.Background(), lv, DefaultSimConfig(), 9, MaxEvaluatorTrials)
			if err != nil {
				t.Fatal(err)
			}
			return tr
		}()
		if len(serial.Results) < 2 {
			continue // a standing level runs one trial either way
		}
		checked++
		parallel, err := SimulateTrials(context.Background(), lv, DefaultSimConfig(), 9, MaxEvaluatorTrials)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(summary(serial), summary(parallel)) {
			t.Fatalf("level %d: parallel trials %v, serial %v", attempt, summary(parallel), summary(serial))
		}
	}
	if checked < 6 {
		t.Fatalf("only %d toppling levels", checked)
	}
	if len(coreSlots) != 0 {
		t.Fatalf("%d core slots still held", len(coreSlots))
	}
}

func summary(tr *Trials) []string {
	out := []string{fmt.Sprint("best ", tr.Best)}
	for _, r := range tr.Results {
		out = append(out, fmt.Sprintf("%x %x %d %d", r.Score, r.Legacy, r.Moving, r.Total))
	}
	return out
}

package validate

import (
	"context"
	"os"
	"pcgwb/games/duel/script"
	"strings"
	"testing"
)

// TestDocsWorkedExample: the worked example of docs/duel-api.md loads, names its players as
// the rulebook does, ends by STUCK_LOSES and passes the filters.
func TestDocsWorkedExample(t *testing.T) {
	b, err := os.ReadFile("../../../docs/duel-api.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```python\n")
	src, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("no python block in the docs")
	}
	p, err := script.Compile("stones", []byte(src), script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := p.New()
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if g.Info().PlayerName(0) != "Red" || g.Info().PlayerName(1) != "Blue" {
		t.Errorf("players %v", g.Info().Players)
	}
	rep := Program(context.Background(), p, quickValidation)
	if !rep.Passed {
		t.Fatalf("rejected by %s: %s", rep.Rejected, rep.Reason)
	}
}

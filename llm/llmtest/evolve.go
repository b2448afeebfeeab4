package llmtest

import (
	"crypto/sha256"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Blocks returns the contents of the ``` code blocks of s, in order (an info string after the
// opening fence is dropped).
func Blocks(s string) []string {
	var out []string
	parts := strings.Split(s, "```")
	for i := 1; i+1 < len(parts); i += 2 {
		b := parts[i]
		if nl := strings.IndexByte(b, '\n'); nl >= 0 && !strings.ContainsAny(b[:nl], " \t{[") {
			b = b[nl+1:]
		}
		out = append(out, strings.Trim(b, "\n"))
	}
	return out
}

// Opening is the first user message of the conversation: the prompt that holds the parents.
func (c Call) Opening() string {
	for _, m := range c.Request.Messages {
		if m.Role == openai.ChatMessageRoleUser {
			return m.Content
		}
	}
	return ""
}

// Turn counts the model's earlier answers in the conversation (0 for the opening request).
func (c Call) Turn() int {
	n := 0
	for _, m := range c.Request.Messages {
		if m.Role == openai.ChatMessageRoleAssistant {
			n++
		}
	}
	return n
}

// Fenced writes s as a model answers a level: in a code block.
func Fenced(s string) string { return "```\n" + s + "\n```" }

// Evolver is a deterministic "model" for a variation operator: it reads the parent levels from
// the code blocks of the conversation's opening prompt and answers edit(parents) in a code
// block, whatever the turn; seed is the request's seed (0 when it has none), which tells apart
// the children asked of the same parents. An edit that returns "" answers prose.
func Evolver(edit func(parents []string, seed int) string) Handler {
	return func(call Call, _ int) Reply {
		seed := 0
		if call.Request.Seed != nil {
			seed = *call.Request.Seed
		}
		out := edit(Blocks(call.Opening()), seed)
		if out == "" {
			return Reply{Content: "I would rather not change this level."}
		}
		return Reply{Content: Fenced(out)}
	}
}

// Fault is one behaviour of the Broken model.
type Fault int

// The Broken model's behaviours, chosen per conversation.
const (
	// Good answers the edit.
	Good Fault = iota
	// Prose answers sentences without a level, every turn.
	Prose
	// WrongSize answers the parent without its last line first, the edit after a re-ask.
	WrongSize
	// Timeout holds every answer back for the Broken model's delay.
	Timeout
	faults
)

// FaultOf is the behaviour Broken gives a conversation: a function of its opening prompt only,
// so it does not depend on the order requests arrive in.
func FaultOf(opening string) Fault {
	sum := sha256.Sum256([]byte(opening))
	return Fault(int(sum[0]) % int(faults))
}

// Broken is a model that fails in the ways a real one does, per conversation (FaultOf): prose
// instead of a level, a level of the wrong size (then a good one when re-asked), and answers
// slower than delay (longer than the client's timeout, to provoke it); the others answer
// edit(parents) as Evolver does.
func Broken(edit func(parents []string, seed int) string, delay time.Duration) Handler {
	good := Evolver(edit)
	return func(call Call, seen int) Reply {
		switch FaultOf(call.Opening()) {
		case Prose:
			return Reply{Content: "What a lovely level! I would keep it exactly as it is, it has a great flow."}
		case WrongSize:
			if call.Turn() == 0 {
				parents := Blocks(call.Opening())
				if len(parents) == 0 {
					return Reply{Content: "no level"}
				}
				lines := strings.Split(parents[0], "\n")
				if len(lines) > 1 {
					lines = lines[:len(lines)-1]
				} else {
					lines = []string{lines[0] + lines[0]}
				}
				return Reply{Content: Fenced(strings.Join(lines, "\n"))}
			}
		case Timeout:
			return Reply{Content: "late", Delay: delay}
		}
		return good(call, seen)
	}
}

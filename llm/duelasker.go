package llm

import (
	"context"
	"errors"
	"fmt"

	"pcgwb/games/duel/llmplay"
)

// DuelAsker answers the duel package's queries (LLM players, game generation) with the client.
// Every query is a fresh conversation, as gg-bench's evaluation asks each turn.
type DuelAsker struct {
	Client *Client
	// Tag labels the requests in the usage log (default "duel").
	Tag string
	// OnFatal, when set, is told of an error that must stop the whole run rather than count as
	// the model's fault: an offline cache miss, and any request the client could not complete
	// after its own retries (a dead endpoint, a refused key, a server error). Only a reply the
	// model gave is the model's to answer for. llmplay.LLMPlayer retries any error and then faults
	// the game, so a command should cancel its context here and report the cause.
	OnFatal func(error)
}

var _ llmplay.Asker = (*DuelAsker)(nil)

func (a *DuelAsker) Ask(ctx context.Context, q llmplay.Query) (string, error) {
	var msgs []Message
	if q.System != "" {
		msgs = append(msgs, Message{Role: RoleSystem, Content: q.System})
	}
	msgs = append(msgs, Message{Role: RoleUser, Content: q.User})
	tag := a.Tag
	if tag == "" {
		tag = "duel"
	}
	// Sample is part of the cache key: gg-bench resends the identical prompt on a retry, and a
	// cached reply would repeat the same bad answer every time.
	resp, err := a.Client.Chat(WithTag(ctx, fmt.Sprintf("%s sample %d", tag, q.Sample)),
		Request{Messages: msgs, Sample: q.Sample})
	if err != nil {
		if a.OnFatal != nil && (errors.Is(err, ErrOfflineMiss) || ctx.Err() == nil) {
			a.OnFatal(fmt.Errorf("the model's endpoint failed: %w", err))
		}
		return "", err
	}
	return resp.Content, nil
}

package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"pcgwb/problems"
)

// This file is the plumbing both LLM generators share (the `llm` batches of Generator and
// the llm-ga / llm-mapelites operator of Evolver): one level's conversation with the model
// (request, tag, usage log, parse and check, re-ask), the concurrent batch of conversations,
// and the run's JSON-lines logs. The generators differ only in what they ask for and how they
// count it, so they pass those in as hooks.

// jsonLines writes one JSON value per line to a writer shared by several goroutines. A write
// error is kept (see Err) rather than failing the request whose answer is already in hand.
type jsonLines struct {
	mu  sync.Mutex
	w   io.Writer // nil: nothing is written
	err error
}

// write appends v as one line.
func (l *jsonLines) write(v any) {
	if l.w == nil {
		return
	}
	line, err := json.Marshal(v)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err == nil {
		_, err = l.w.Write(append(line, '\n'))
	}
	if err != nil && l.err == nil {
		l.err = err
	}
}

// Err is the first write error.
func (l *jsonLines) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// sampleSeed gives each sample its own seed (the configured seed plus the sample number), so
// asking n levels with one seed does not give the same level n times.
func sampleSeed(c *Client, sample int) *int {
	if c.cfg.Seed == nil {
		return nil
	}
	s := *c.cfg.Seed + sample
	return &s
}

// checkReply parses a reply and computes its info; a content the problem cannot analyse is an
// invalid reply too (the model is told why). computed says whether the info was computed (an
// evaluation spent), valid or not.
func checkReply(p problems.Problem, legend Legend, reply string) (content problems.Content, info problems.Info, computed bool, err error) {
	content, err = ParseContent(reply, p.ContentSpace(), legend)
	if err != nil {
		return nil, nil, false, err
	}
	info, err = safeInfo(p, content)
	if err != nil {
		return nil, nil, true, &ParseError{"The level is not valid: " + err.Error() + "."}
	}
	return content, info, true, nil
}

func safeInfo(p problems.Problem, c problems.Content) (info problems.Info, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return p.Info(c)
}

// errBatchStopped ends a level whose batch already failed, before it sends a request.
var errBatchStopped = errors.New("the batch stopped")

// conversation is one level's exchange with the model: the opening messages, then, while the
// reply is invalid and re-asks are left, the reply and a re-ask naming its error.
type conversation struct {
	p      problems.Problem
	client *Client
	usage  *UsageLog // nil: requests are not logged
	legend Legend

	generation, item, sample int
	// noun names the level in request tags ("item", "child"); errPrefix starts a request
	// error ("item 3").
	noun, errPrefix string
	control         problems.Control
	opening         []Message
	repairs         int
	repair          func(reply string, err error) (string, error)

	// stop, when set, is checked before every turn: once another level of the batch failed,
	// no new request is sent.
	stop *atomic.Bool
	// reaskInvalid asks a turn again past the cache when its cached reply fails validation;
	// the new answer replaces the cached one.
	reaskInvalid bool
	// onDelta, when set, streams the replies.
	onDelta func(turn, attempt int, text string)
	// onFailure, when set, may take a failed request (after the client's retries): it returns
	// the failure's message and true when the level survives it (and falls back).
	onFailure func(req Request, err error) (string, bool)
	// record logs an exchange; fallback is set on the last one of a level that ends without
	// a valid reply.
	record  func(ex Exchange, fallback bool)
	onReply func(ReplyEvent)
}

// outcome is how a conversation ended and what it cost.
type outcome struct {
	content problems.Content
	info    problems.Info
	// valid: the conversation ended with a usable level (repaired: after a re-ask); failed: a
	// request failed and onFailure took it. Neither, and no err: out of re-asks.
	valid, repaired, failed bool
	// replies counts the replies received (cached ones included), cached those from the cache;
	// a cached reply asked again (reaskInvalid) is not counted. infos counts the infos computed.
	replies, cached, repairs, infos int
	promptTokens, completionTokens  int
	err                             error
}

// run holds the conversation to its end. A request error that onFailure does not take (an
// offline miss, a cancellation, a refused request) and a template error are returned as err; an
// invalid reply is not an error.
func (cv *conversation) run(ctx context.Context) outcome {
	var out outcome
	msgs, sent := cv.opening, cv.opening
	refresh := false
	for turn := 0; ; turn++ {
		if cv.stop != nil && cv.stop.Load() {
			out.err = errBatchStopped
			return out
		}
		req := Request{Messages: msgs, Sample: cv.sample, Seed: sampleSeed(cv.client, cv.sample), Refresh: refresh}
		tctx := WithTag(ctx, fmt.Sprintf("generation %d %s %d turn %d", cv.generation, cv.noun, cv.item, turn))
		if cv.usage != nil {
			tctx = WithUsageLog(tctx, cv.usage)
		}
		var resp *Response
		var err error
		if cv.onDelta != nil {
			resp, err = cv.client.ChatStream(tctx, req, func(attempt int, d string) { cv.onDelta(turn, attempt, d) })
		} else {
			resp, err = cv.client.Chat(tctx, req)
		}
		if err != nil {
			if cv.onFailure != nil {
				if msg, ok := cv.onFailure(req, err); ok {
					out.failed = true
					cv.record(Exchange{Generation: cv.generation, Item: cv.item, Turn: turn, Sample: cv.sample,
						Sent: sent, Control: cv.control, Error: "request failed: " + msg}, true)
					return out
				}
			}
			out.err = fmt.Errorf("%s: %w", cv.errPrefix, err)
			return out
		}
		content, info, computed, perr := checkReply(cv.p, cv.legend, resp.Content)
		if computed {
			out.infos++
		}
		if perr != nil && resp.Cached && cv.reaskInvalid && !refresh {
			// A cached reply that fails validation is not replayed: the same turn is asked
			// again past the cache, and the new answer replaces the cached one.
			refresh = true
			turn--
			continue
		}
		refresh = false
		out.replies++
		out.promptTokens += resp.Usage.PromptTokens
		out.completionTokens += resp.Usage.CompletionTokens
		if resp.Cached {
			out.cached++
		}
		final := perr == nil || turn >= cv.repairs
		ev := ReplyEvent{Generation: cv.generation, Item: cv.item, Turn: turn, Control: cv.control, Cached: resp.Cached, Key: resp.Key, Final: final}
		ex := Exchange{Generation: cv.generation, Item: cv.item, Turn: turn, Sample: cv.sample, Key: resp.Key,
			Cached: resp.Cached, Sent: sent, Reply: resp.Content, Usage: resp.Usage, Control: cv.control, Seal: resp.Seal}
		if perr == nil {
			ev.Content, ev.Info = content, info
			ev.Quality = cv.p.Quality(info)
			ev.Controllability = cv.p.Controllability(info, cv.control)
			ex.Valid, ex.Content = true, content
		} else {
			ev.Error, ex.Error = perr.Error(), perr.Error()
		}
		cv.record(ex, perr != nil && final)
		if cv.onReply != nil {
			cv.onReply(ev)
		}
		if perr == nil {
			out.content, out.info, out.valid, out.repaired = content, info, true, turn > 0
			return out
		}
		if final {
			return out
		}
		repair, err := cv.repair(resp.Content, perr)
		if err != nil {
			out.err = err
			return out
		}
		sent = []Message{{Role: RoleUser, Content: repair}}
		msgs = append(append(append([]Message(nil), msgs...), Message{Role: RoleAssistant, Content: resp.Content}), sent...)
		out.repairs++
	}
}

// askAll holds n conversations at once (the client bounds the requests in flight); converse
// runs level i. A failed conversation sets stop, so the others send no new request, but the
// requests already sent run to their answer: an answer the server gave is cached, never
// bought twice. The error is ctx's, else the first failure in level order (a cancellation
// only when nothing else failed).
func askAll(ctx context.Context, n int, converse func(i int, stop *atomic.Bool) outcome) ([]outcome, error) {
	var stop atomic.Bool
	results := make([]outcome, n)
	// Not errgroup: a failure must not cancel the requests in flight, and the error is chosen
	// in level order, not as the first to fail in time.
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			results[i] = converse(i, &stop)
			if results[i].err != nil {
				stop.Store(true)
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var firstErr error
	for _, r := range results {
		if r.err != nil && !errors.Is(r.err, errBatchStopped) && (firstErr == nil || errors.Is(firstErr, context.Canceled)) {
			firstErr = r.err
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return results, nil
}

// Package llmtest is a local chat-completions server for tests: it speaks enough of the
// OpenAI protocol (plain and streamed replies, error bodies, Retry-After) for the llm package,
// the CLI and the GUI to be tested without a network, with scripted replies and faults.
package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Reply is what the server answers to one call: a reply, or a fault.
type Reply struct {
	Content string
	// FinishReason defaults to "stop".
	FinishReason string
	// Status, when not 0 or 200, answers with an OpenAI error body and this status.
	Status int
	// RetryAfter is sent as the Retry-After header when set.
	RetryAfter string
	// Delay holds the answer back (to provoke client timeouts); it ends early when the client
	// gives up.
	Delay time.Duration
	// Malformed answers 200 with a body that is not JSON.
	Malformed bool
	// EmptyChoices answers 200 with "choices": [].
	EmptyChoices bool
	// Truncate sends half the reply and ends the response cleanly, without a finish reason or
	// [DONE] (streams), or sends half the JSON body (plain replies).
	Truncate bool
	// Abort cuts the connection after half the reply.
	Abort bool
	// Usage overrides the token counts (default: words of the prompt and of the reply).
	Usage *openai.Usage
}

// Call is one request the server received.
type Call struct {
	// N numbers calls from 1 in arrival order.
	N       int
	Request openai.ChatCompletionRequest
	// Authorization is the header as received (tests check the key is sent there only).
	Authorization string
}

// Prompt is the conversation's text: every message's content, joined by newlines.
func (c Call) Prompt() string {
	var parts []string
	for _, m := range c.Request.Messages {
		parts = append(parts, m.Content)
	}
	return strings.Join(parts, "\n")
}

// LastUser is the content of the last user message.
func (c Call) LastUser() string {
	for i := len(c.Request.Messages) - 1; i >= 0; i-- {
		if c.Request.Messages[i].Role == openai.ChatMessageRoleUser {
			return c.Request.Messages[i].Content
		}
	}
	return ""
}

// Handler decides the reply to a call. seen counts earlier calls of the same request (model,
// conversation, seed, temperature, max tokens), so a handler can fail the first attempt and
// answer the retry.
type Handler func(call Call, seen int) Reply

// Server is a running fake endpoint; Close it when done.
type Server struct {
	*httptest.Server
	mu      sync.Mutex
	calls   []Call
	seen    map[string]int
	handler Handler
}

// New starts a server answering with h.
func New(h Handler) *Server {
	s := &Server{handler: h, seen: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// BaseURL is the API root to give the client.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Calls returns the calls so far, in arrival order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Script answers the calls in order with replies; the last one repeats.
func Script(replies ...Reply) Handler {
	var mu sync.Mutex
	i := 0
	return func(Call, int) Reply {
		mu.Lock()
		defer mu.Unlock()
		r := replies[min(i, len(replies)-1)]
		i++
		return r
	}
}

// Text answers every call with the same content.
func Text(content string) Handler { return func(Call, int) Reply { return Reply{Content: content} } }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		writeError(w, http.StatusNotFound, "not found: "+r.URL.Path)
		return
	}
	var req openai.ChatCompletionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "bad request body: "+err.Error())
		return
	}
	// Conversations are told apart by everything that makes them another request, so retries
	// of one item are counted together and other items with the same prompt are not.
	conv, _ := json.Marshal([]any{req.Model, req.Messages, req.Seed, req.Temperature, req.MaxTokens})
	s.mu.Lock()
	call := Call{N: len(s.calls) + 1, Request: req, Authorization: r.Header.Get("Authorization")}
	s.calls = append(s.calls, call)
	seen := s.seen[string(conv)]
	s.seen[string(conv)]++
	s.mu.Unlock()

	rep := s.handler(call, seen)
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if rep.RetryAfter != "" {
		w.Header().Set("Retry-After", rep.RetryAfter)
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		writeError(w, rep.Status, fmt.Sprintf("scripted failure %d", rep.Status))
		return
	}
	finish := rep.FinishReason
	if finish == "" {
		finish = "stop"
	}
	usage := openai.Usage{PromptTokens: words(call.Prompt()), CompletionTokens: words(rep.Content)}
	if rep.Usage != nil {
		usage = *rep.Usage
	}
	usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
	if req.Stream {
		s.stream(w, req, rep, finish, usage)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.Malformed {
		fmt.Fprint(w, `{"id": "x", "choices": [ {"message": oops`)
		return
	}
	resp := map[string]any{"id": fmt.Sprintf("chatcmpl-%d", call.N), "object": "chat.completion", "created": 0,
		"model": req.Model, "usage": usage, "choices": []any{}}
	if !rep.EmptyChoices {
		resp["choices"] = []any{map[string]any{"index": 0, "finish_reason": finish,
			"message": map[string]any{"role": "assistant", "content": rep.Content}}}
	}
	body, _ := json.Marshal(resp)
	if rep.Truncate || rep.Abort {
		w.Write(body[:len(body)/2])
		if rep.Abort {
			panic(http.ErrAbortHandler)
		}
		return
	}
	w.Write(body)
}

func (s *Server) stream(w http.ResponseWriter, req openai.ChatCompletionRequest, rep Reply, finish string, usage openai.Usage) {
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-s", "object": "chat.completion.chunk", "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	if rep.Malformed {
		fmt.Fprint(w, "data: {\"choices\": [oops\n\n")
		return
	}
	if rep.EmptyChoices {
		send(map[string]any{"id": "chatcmpl-s", "object": "chat.completion.chunk", "model": req.Model, "choices": []any{}})
		fmt.Fprint(w, "data: [DONE]\n\n")
		return
	}
	send(chunk(map[string]any{"role": "assistant"}, nil))
	pieces := split(rep.Content, 3)
	if rep.Truncate || rep.Abort {
		pieces = pieces[:len(pieces)/2+1]
		pieces[len(pieces)-1] = pieces[len(pieces)-1][:len(pieces[len(pieces)-1])/2]
	}
	for _, p := range pieces {
		send(chunk(map[string]any{"content": p}, nil))
	}
	if rep.Truncate {
		return
	}
	if rep.Abort {
		panic(http.ErrAbortHandler)
	}
	send(chunk(map[string]any{}, finish))
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		send(map[string]any{"id": "chatcmpl-s", "object": "chat.completion.chunk", "model": req.Model, "choices": []any{}, "usage": usage})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// split cuts s into n pieces of about equal size (on rune boundaries).
func split(s string, n int) []string {
	r := []rune(s)
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, string(r[i*len(r)/n:(i+1)*len(r)/n]))
	}
	return out
}

func words(s string) int { return len(strings.Fields(s)) }

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "test_error", "code": status}})
}

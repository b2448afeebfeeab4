package llm_test

import (
	"context"
	"fmt"
	"os"

	"pcgwb/llm"
	"pcgwb/llm/llmtest"
)

// A Client talks to any OpenAI-compatible endpoint (here a local test server). With a cache
// folder every reply is kept under its request's key: asking the same request again (same
// messages, same sample number) is answered from the cache without a call, and an offline
// client answers from the cache alone, which is how a run is replayed without paying twice.
func ExampleClient_Chat() {
	srv := llmtest.New(llmtest.Text("#####\n#...#\n#####"))
	defer srv.Close()
	cache, err := os.MkdirTemp("", "llm-cache")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(cache)

	ctx := context.Background()
	req := llm.Request{Messages: []llm.Message{{Role: "user", Content: "Draw a small room."}}}
	online, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "test", CacheDir: cache})
	if err != nil {
		fmt.Println(err)
		return
	}
	first, err := online.Chat(ctx, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	again, _ := online.Chat(ctx, req)
	offline, _ := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "test", CacheDir: cache, Offline: true})
	replay, err := offline.Chat(ctx, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(first.Content)
	fmt.Println("from the cache:", first.Cached, again.Cached, replay.Cached)
	fmt.Println("calls the server saw:", len(srv.Calls()))
	// Output:
	// #####
	// #...#
	// #####
	// from the cache: false true true
	// calls the server saw: 1
}

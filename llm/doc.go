// Package llm lets any OpenAI-compatible chat model (OpenAI, or a local Ollama, vLLM or
// llama.cpp server) act as a content generator, so what a model writes can be compared with
// what evolution finds on the same metrics.
//
//   - Client talks to the endpoint through github.com/sashabaranov/go-openai: retries with
//     exponential backoff and jitter on timeouts, 429 (honouring Retry-After) and 5xx, a
//     concurrency limit, cancellation through the context, and a token and cost log.
//   - Cache stores every request and its response on disk under the SHA-256 of the canonical
//     request (never the API key), so a run replays offline (Config.Offline) and reproducibly.
//   - Generator is an LLM generator for the PCG Benchmark problems. It implements
//     search.Generator and Execute writes the same run folder as the evolutionary generators
//     (config.json, events.jsonl, final.json), plus the raw exchanges and the usage log.
//     Prompts are text/template files (assets/prompts, overridable from a folder); replies are
//     parsed tolerantly (code fences, prose, character or number grids, JSON objects) and
//     normalised through the problem's content space; invalid replies are re-asked with the
//     error a bounded number of times and counted.
//   - RunBirdsPrompts sends a ChatGPT4PCG prompt (single- or multi-turn) for every letter and
//     trial and saves the answers in the competition's folder layout (TEAM/raw/L/TEAM_L_n.txt).
//
// The API key is a value in Config (from an environment variable or the GUI's preferences). It
// is sent in the Authorization header and nowhere else: it is not part of the cache key, not
// written to any file, and redacted from error messages.
package llm

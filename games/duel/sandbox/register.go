package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"pcgwb/games/duel/core"
	"sync"
)

// The worker knows no game concern beyond the contract and the built-in agents: the packages
// whose work must run inside it (a validation, a training iteration's self-play, a learned
// agent's moves) register it at init, and the worker binary (the workbench, a test binary)
// links them. A request for an operation nobody registered is answered with an error.

// A Job is work that runs in a worker on a script's source, with no game loaded (a
// validation): it gets the request's name, source and arguments (JSON) and a progress
// callback whose last stage names the stage a worker that dies was in (Pool.RunJob).
type Job func(ctx context.Context, name string, src []byte, args json.RawMessage, progress func(stage string)) (any, error)

// A GameOp is work that runs in a worker on its loaded game (a training iteration's
// self-play), asked for with Remote.Call.
type GameOp func(ctx context.Context, g core.Game, args json.RawMessage) (any, error)

var registry struct {
	sync.RWMutex
	jobs    map[string]Job
	gameOps map[string]GameOp
	specs   func(spec json.RawMessage) (core.Agent, error)
}

// builtinOps are the protocol's own requests: no registration may take their names.
var builtinOps = map[string]bool{"load": true, "reset": true, "free": true, "log": true, "initial": true, "inspect": true,
	"apply": true, "observe": true, "render": true, "label": true, "labels": true, "cells": true, "act": true}

// RegisterJob makes op a job the worker runs; it is meant for init functions.
func RegisterJob(op string, j Job) {
	registry.Lock()
	defer registry.Unlock()
	checkOp(op)
	if registry.jobs == nil {
		registry.jobs = map[string]Job{}
	}
	registry.jobs[op] = j
}

// RegisterGameOp makes op an operation the worker runs on its loaded game; it is meant for
// init functions.
func RegisterGameOp(op string, f GameOp) {
	registry.Lock()
	defer registry.Unlock()
	checkOp(op)
	if registry.gameOps == nil {
		registry.gameOps = map[string]GameOp{}
	}
	registry.gameOps[op] = f
}

// RegisterAgentSpecs sets how the worker rebuilds an agent sent with a spec (Remote.RunAgent):
// a learned agent's network travels that way. It is meant for an init function.
func RegisterAgentSpecs(f func(spec json.RawMessage) (core.Agent, error)) {
	registry.Lock()
	defer registry.Unlock()
	registry.specs = f
}

func checkOp(op string) {
	if builtinOps[op] || registry.jobs[op] != nil || registry.gameOps[op] != nil {
		panic(fmt.Sprintf("sandbox: operation %q registered twice", op))
	}
}

func registeredJob(op string) Job {
	registry.RLock()
	defer registry.RUnlock()
	return registry.jobs[op]
}

func registeredGameOp(op string) GameOp {
	registry.RLock()
	defer registry.RUnlock()
	return registry.gameOps[op]
}

func agentFromSpec(spec json.RawMessage) (core.Agent, error) {
	registry.RLock()
	f := registry.specs
	registry.RUnlock()
	if f == nil {
		return nil, fmt.Errorf("the sandbox worker cannot rebuild an agent from a spec: none is registered")
	}
	return f(spec)
}

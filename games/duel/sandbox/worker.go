package sandbox

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"time"
)

// WorkerEnv is set in the environment of a sandbox worker: a re-executed copy of the same
// binary (the workbench, or a test binary) that serves one game at a time to its parent over
// stdin and stdout, under OS limits. Its value is the worker's memory limit in MiB.
const WorkerEnv = "PCGWB_DUEL_WORKER"

// IsSandboxChild reports whether this process was started as a sandbox process (a pool
// worker, or the one-shot child of `duel validate`). The program's main must then call
// RunSandboxChild before doing anything else.
func IsSandboxChild() bool { return os.Getenv(WorkerEnv) != "" || os.Getenv(ChildEnv) != "" }

// RunSandboxChild runs this process as the sandbox process its environment asks for and
// returns the exit status. A pool worker serves its parent on stdin/stdout; the one-shot child
// of `duel validate` applies its OS limits and then runs oneShot (the command line again).
func RunSandboxChild(oneShot func() int) int {
	if v := os.Getenv(WorkerEnv); v != "" {
		var lim ChildLimits
		if mib, err := strconv.ParseUint(v, 10, 64); err == nil && mib > 0 {
			lim.Memory = mib << 20
		}
		return ServeWorker(os.Stdin, os.Stdout, lim)
	}
	var lim ChildLimits
	if mib, err := strconv.ParseUint(os.Getenv(ChildEnv), 10, 64); err == nil && mib > 0 {
		lim.Memory = mib << 20
	}
	if err := LimitSelf(lim); err != nil {
		fmt.Fprintln(os.Stderr, "workbench: sandbox limits:", err)
		return 3
	}
	if oneShot == nil {
		return 3
	}
	return oneShot()
}

// The protocol: each message is a 4-byte big-endian length and that many bytes of JSON. The
// parent sends a workerRequest and the worker answers with one workerReply; nothing else is
// written to stdout (a script's print goes to the game's own bounded log).
const (
	maxRequest = 64 << 20 // a request holds at most a script's source
	maxReply   = MaxReply
)

// MaxReply is the largest reply a worker may send, in bytes: a registered operation's result
// must fit in it (a reply holds at most a render or a label, MaxString each, otherwise).
const MaxReply = 16 << 20

type workerRequest struct {
	Op     string        `json:"op"`
	Name   string        `json:"name,omitempty"`
	Source []byte        `json:"source,omitempty"`
	Limits script.Limits `json:"limits"`
	ID     uint64        `json:"id,omitempty"`
	IDs    []uint64      `json:"ids,omitempty"`
	Seed   int64         `json:"seed,omitempty"`
	Action int           `json:"action,omitempty"`
	Player int           `json:"player,omitempty"`
	// Act: the agent's name (ParseAgent), the turn and the move's random seed.
	Agent    string `json:"agent,omitempty"`
	RNG      uint64 `json:"rng,omitempty"`
	Legal    []int  `json:"legal,omitempty"`
	Ply      int    `json:"ply,omitempty"`
	MaxPlies int    `json:"max_plies,omitempty"`
	// Budget is the CPU time the request may use (0: no budget beyond the per-call one);
	// BudgetName says whose budget it is, for the fault's message.
	Budget     time.Duration `json:"budget,omitempty"`
	BudgetName string        `json:"budget_name,omitempty"`
	// Inspect asks initial and apply to answer with the inspection of the state they made.
	Inspect bool `json:"inspect,omitempty"`
	// Spec: an agent ParseAgent cannot make from its name (a NetAgent), as JSON.
	Spec json.RawMessage `json:"spec,omitempty"`
	// Args: the arguments of a registered job or game operation (a validation's options, a
	// training iteration), as JSON.
	Args json.RawMessage `json:"args,omitempty"`
}

type workerReply struct {
	Fault *core.Fault `json:"fault,omitempty"`
	// Error is a failure that is not the script's (a bad request).
	Error  string     `json:"error,omitempty"`
	Info   *core.Info `json:"info,omitempty"`
	ID     uint64     `json:"id,omitempty"`
	Int    int        `json:"int,omitempty"`
	Ints   []int      `json:"ints,omitempty"`
	Floats []float64  `json:"floats,omitempty"`
	Text   string     `json:"text,omitempty"`
	// Labels: the labels of Legal's actions; Cells: the cells of each (Defined: the script
	// has action_cells).
	Texts   []string        `json:"texts,omitempty"`
	Cells   [][]core.Square `json:"cells,omitempty"`
	Defined bool            `json:"defined,omitempty"`
	Outcome core.Outcome    `json:"outcome,omitempty"`
	// Inspect: the faults of to_move and legal_actions, reported apart from outcome's.
	MoveFault  *core.Fault `json:"move_fault,omitempty"`
	LegalFault *core.Fault `json:"legal_fault,omitempty"`
	// Result: what a registered job or game operation returned (a validation's report, a
	// training iteration's samples), as JSON.
	Result json.RawMessage `json:"result,omitempty"`
	// Inspected: Outcome, Int (to_move) and Ints (legal_actions) are those of the state an
	// initial or apply request made.
	Inspected bool `json:"inspected,omitempty"`
	// Exiting: the worker answered for a request that could not be stopped and is ending.
	Exiting bool `json:"exiting,omitempty"`
	// CPU is the worker's CPU time spent on the request.
	CPU time.Duration `json:"cpu"`
	// Seq is the request's number in the worker's life (1 for the first): the parent checks
	// that an answer is to the request it sent.
	Seq uint64 `json:"seq"`
}

func writeFrame(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	// one write: on an unbuffered pipe each write is a system call
	frame := make([]byte, 4, 4+len(b))
	binary.BigEndian.PutUint32(frame, uint32(len(b)))
	_, err = w.Write(append(frame, b...))
	return err
}

// errFrameTooBig is a message longer than the protocol allows.
var errFrameTooBig = errors.New("message too large")

func readFrame(r io.Reader, limit int, v any) error {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if int64(n) > int64(limit) {
		return fmt.Errorf("%w: %d bytes (limit %d)", errFrameTooBig, n, limit)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// worker is the child side: one loaded game and the states the parent holds handles to.
type worker struct {
	game   *script.ScriptGame
	states map[uint64]core.State
	next   uint64
	agents map[string]core.Agent

	// out is shared with the budget watchdog, which may answer for a request that never returns.
	outMu    sync.Mutex
	out      *bufio.Writer
	answered bool

	// budget of the request in progress, read by the watchdog; seq counts the requests
	mu        sync.Mutex
	busy      bool
	seq       uint64
	reqStart  time.Duration
	reqBudget time.Duration
	reqName   string
	cancelReq context.CancelFunc
	overrun   bool

	exit func(code int) // os.Exit
}

// workerGrace is how much CPU time past its budget a request may take to stop by itself
// (a cancelled script stops at its next step) before the worker answers for it and exits: one
// Starlark step can run for ever (hashing a huge value), and only the process's end stops it.
const workerGrace = script.StuckGrace

// workerTick is how often the worker's watchdog reads the process's CPU time.
const workerTick = 5 * time.Millisecond

// ServeWorker is a sandbox worker's main loop: it applies the OS limits (address space, CPU
// time, no core dumps, a bounded stack), then answers requests until its input closes.
func ServeWorker(in io.Reader, out io.Writer, lim ChildLimits) int {
	if lim.CPU == 0 {
		lim.CPU = workerCPULimit
	}
	if err := LimitSelf(lim); err != nil {
		fmt.Fprintln(os.Stderr, "duel worker: sandbox limits:", err)
		return 3
	}
	// a deep recursion dies early and small, not after filling a gigabyte of stack
	debug.SetMaxStack(maxWorkerStack)
	// search allocates a state per move and keeps little alive: collecting less often cuts
	// MCTS time by about a third, for a few MiB more heap
	debug.SetGCPercent(400)
	// budgets are CPU time here: a loaded machine does not stop a call that did little work
	script.UseCPUClock()
	w := &worker{states: map[uint64]core.State{}, agents: map[string]core.Agent{}, out: bufio.NewWriterSize(out, 64<<10), exit: os.Exit}
	go w.watch()
	stuck := func(limit time.Duration) {
		w.mu.Lock()
		seq := w.seq
		w.mu.Unlock()
		w.die(seq, &core.Fault{Kind: core.FaultTimeout, Msg: fmt.Sprintf("one step of the script ran past the CPU-time limit of %s per call and did not stop: the sandbox worker was ended", limit)})
	}
	script.OnStuckCall(stuck)
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		var req workerRequest
		if err := readFrame(br, maxRequest, &req); err != nil {
			if errors.Is(err, io.EOF) {
				return 0
			}
			fmt.Fprintln(os.Stderr, "duel worker: bad request:", err)
			return 3
		}
		rep := w.serve(req)
		w.outMu.Lock()
		if w.answered { // the watchdog answered and is ending the process
			w.outMu.Unlock()
			select {}
		}
		err := writeFrame(w.out, rep)
		if err == nil {
			err = w.out.Flush()
		}
		w.outMu.Unlock()
		if err != nil {
			return 3
		}
	}
}

const (
	maxWorkerStack = 64 << 20
	// workerCPULimit is the OS limit on a worker's whole life; the pool retires a worker well
	// before it (workerRetireCPU).
	workerCPULimit  = 2 * time.Hour
	workerRetireCPU = 30 * time.Minute
)

// watch enforces the request's CPU budget: it cancels the request when it runs over, and if
// the request still does not return, answers for it and ends the process.
func (w *worker) watch() {
	for {
		time.Sleep(workerTick)
		w.mu.Lock()
		if !w.busy || w.reqBudget <= 0 {
			w.mu.Unlock()
			continue
		}
		used := script.CPUTime() - w.reqStart
		over := used > w.reqBudget
		hard := used > w.reqBudget+workerGrace
		if over && !w.overrun {
			w.overrun = true
			if w.cancelReq != nil {
				w.cancelReq()
			}
			if w.game != nil {
				w.game.CancelCall("CPU budget exceeded")
			}
		}
		name, budget, seq := w.reqName, w.reqBudget, w.seq
		w.mu.Unlock()
		if hard {
			w.die(seq, budgetFault(name, budget))
		}
	}
}

// die answers request seq with f and ends the process, if that request is still in progress.
// A request that returned in the meantime has its own answer (or is writing it): a second one
// would be read by the parent as the answer to its next request.
func (w *worker) die(seq uint64, f *core.Fault) {
	w.outMu.Lock() // held to the end: the main loop writes no answer after this one
	w.mu.Lock()
	if !w.busy || w.seq != seq {
		w.mu.Unlock()
		w.outMu.Unlock()
		return
	}
	used := script.CPUTime() - w.reqStart
	w.mu.Unlock()
	w.answered = true
	_ = writeFrame(w.out, workerReply{Fault: f, CPU: used, Exiting: true, Seq: seq})
	_ = w.out.Flush()
	w.exit(0)
}

func budgetFault(name string, budget time.Duration) *core.Fault {
	if name == "" {
		name = "request"
	}
	return &core.Fault{Kind: core.FaultTimeout, Msg: fmt.Sprintf("the %s used more than its CPU budget of %s", name, budget)}
}

func (w *worker) serve(req workerRequest) (rep workerReply) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := script.CPUTime()
	w.mu.Lock()
	w.seq++
	seq := w.seq
	w.busy, w.reqStart, w.reqBudget, w.reqName, w.cancelReq, w.overrun = true, start, req.Budget, req.BudgetName, cancel, false
	w.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			rep = workerReply{Fault: &core.Fault{Kind: core.FaultPanic, Msg: fmt.Sprint(r)}}
		}
		w.mu.Lock()
		overrun := w.overrun
		w.busy, w.cancelReq = false, nil
		w.mu.Unlock()
		if overrun && w.game != nil {
			w.game.MarkCancelled() // the cancel may have come between two calls
		}
		if overrun && (rep.Fault != nil || rep.Error != "") {
			rep.Fault, rep.Error = budgetFault(req.BudgetName, req.Budget), ""
		}
		rep.CPU, rep.Seq = script.CPUTime()-start, seq
	}()
	fault := func(err error) workerReply {
		if f := core.FaultOf(err); f != nil {
			return workerReply{Fault: f}
		}
		return workerReply{Error: err.Error()}
	}
	if job := registeredJob(req.Op); job != nil {
		w.reset()
		progress := func(stage string) { fmt.Fprintln(os.Stderr, stagePrefix+stage) }
		out, err := job(ctx, req.Name, req.Source, req.Args, progress)
		if err != nil {
			return fault(err)
		}
		return result(out)
	}
	if req.Op != "load" && req.Op != "reset" && w.game == nil {
		return workerReply{Error: "no game loaded"}
	}
	state := func() (core.State, error) {
		s, ok := w.states[req.ID]
		if !ok {
			return nil, fmt.Errorf("unknown state %d", req.ID)
		}
		return s, nil
	}
	switch req.Op {
	case "load":
		w.reset()
		runtime.GC() // the last game's garbage is not the new one's

		p, err := script.Compile(req.Name, req.Source, req.Limits)
		if err != nil {
			return fault(err)
		}
		g, err := p.New()
		if err != nil {
			return fault(err)
		}
		w.game = g
		info := g.Info()
		return workerReply{Info: &info}
	case "reset":
		w.reset()
		return workerReply{}
	case "free":
		for _, id := range req.IDs {
			delete(w.states, id)
		}
		return workerReply{}
	case "log":
		return workerReply{Text: w.game.Log()}
	case "initial":
		s, err := w.game.Initial(req.Seed)
		if err != nil {
			return fault(err)
		}
		rep := workerReply{ID: w.keep(s)}
		if req.Inspect {
			w.inspectAfter(&rep, s, req, start)
		}
		return rep
	}
	if op := registeredGameOp(req.Op); op != nil {
		out, err := op(ctx, w.game, req.Args)
		if err != nil {
			return fault(err)
		}
		return result(out)
	}
	s, err := state()
	if err != nil {
		return fault(err)
	}
	switch req.Op {
	case "inspect":
		var rep workerReply
		if err := w.inspect(&rep, s); err != nil {
			return fault(err)
		}
		return rep
	case "apply":
		next, err := w.game.Apply(s, req.Action)
		if err != nil {
			return fault(err)
		}
		rep := workerReply{ID: w.keep(next)}
		if req.Inspect {
			w.inspectAfter(&rep, next, req, start)
		}
		return rep
	case "observe":
		obs, err := w.game.Observe(s, req.Player)
		if err != nil {
			return fault(err)
		}
		return workerReply{Floats: obs}
	case "render":
		txt, err := w.game.Render(s)
		if err != nil {
			return fault(err)
		}
		return workerReply{Text: txt}
	case "label":
		txt, err := w.game.ActionLabel(s, req.Action)
		if err != nil {
			return fault(err)
		}
		return workerReply{Text: txt}
	case "labels":
		txts, err := core.ActionLabels(w.game, s, req.Legal)
		if err != nil {
			return fault(err)
		}
		return workerReply{Texts: txts}
	case "cells":
		cells, defined, err := w.game.ActionCells(s, req.Legal)
		if err != nil {
			return fault(err)
		}
		return workerReply{Cells: cells, Defined: defined}
	case "act":
		agent, ok := w.agents[req.Agent]
		if len(req.Spec) > 0 {
			a, err := w.specAgent(req.Agent, req.Spec)
			if err != nil {
				return workerReply{Error: err.Error()}
			}
			agent, ok = a, true
		}
		if !ok {
			a, err := agents.ParseAgent(req.Agent)
			if err != nil {
				return workerReply{Error: err.Error()}
			}
			agent, w.agents[req.Agent] = a, a
		}
		t := core.Turn{State: s, Legal: req.Legal, Player: req.Player, Ply: req.Ply, MaxPlies: req.MaxPlies}
		a, err := agent.Act(ctx, w.game, t, core.MoveRNG(req.RNG))
		if err != nil {
			return fault(err)
		}
		return workerReply{Int: a}
	}
	return workerReply{Error: fmt.Sprintf("unknown request %q", req.Op)}
}

// inspect fills rep with outcome, to_move and legal_actions of s; outcome's error is returned,
// the others' are reported in MoveFault and LegalFault.
func (w *worker) inspect(rep *workerReply, s core.State) error {
	o, err := w.game.Outcome(s)
	if err != nil {
		return err
	}
	rep.Outcome = o
	if o.Done() {
		return nil
	}
	p, err := w.game.ToMove(s)
	if err != nil {
		rep.MoveFault = faultOrScript(err)
		return nil
	}
	rep.Int = p
	legal, err := w.game.Legal(s)
	if err != nil {
		rep.LegalFault = faultOrScript(err)
		return nil
	}
	rep.Ints = legal
	return nil
}

// inspectAfter adds to the reply of initial or apply the inspection of the state it made, to
// save the parent a round trip per move. It runs as a request of its own would: with the
// budget starting over (less what the first part used, when the budget is the game's). An
// inspection that fails or runs over is left out (Inspected false): the parent then asks for
// it and meets the fault in a request of its own, named as before.
func (w *worker) inspectAfter(rep *workerReply, s core.State, req workerRequest, start time.Duration) {
	now := script.CPUTime()
	w.mu.Lock()
	if w.overrun {
		w.mu.Unlock()
		return
	}
	w.reqStart = now
	if req.BudgetName == "game" {
		if w.reqBudget = req.Budget - (now - start); w.reqBudget <= 0 {
			w.reqBudget = req.Budget
			w.mu.Unlock()
			return
		}
	}
	w.mu.Unlock()
	var in workerReply
	err := w.inspect(&in, s)
	w.mu.Lock()
	over := w.overrun
	w.mu.Unlock()
	if over || err != nil || in.MoveFault != nil || in.LegalFault != nil {
		return
	}
	rep.Inspected, rep.Outcome, rep.Int, rep.Ints = true, in.Outcome, in.Int, in.Ints
}

// result is the reply carrying a registered operation's result.
func result(out any) workerReply {
	b, err := json.Marshal(out)
	if err != nil {
		return workerReply{Error: err.Error()}
	}
	return workerReply{Result: b}
}

// specAgent is the worker's side of a move by an agent sent as a spec (a NetAgent): the agent
// is rebuilt from its spec once (by the registered AgentSpecs) and kept under its name.
func (w *worker) specAgent(name string, spec json.RawMessage) (core.Agent, error) {
	if a, ok := w.agents[name]; ok {
		return a, nil
	}
	a, err := agentFromSpec(spec)
	if err != nil {
		return nil, err
	}
	if len(w.agents) > 16 {
		clear(w.agents)
	}
	w.agents[name] = a
	return a, nil
}

func faultOrScript(err error) *core.Fault {
	if f := core.FaultOf(err); f != nil {
		return f
	}
	return &core.Fault{Kind: core.FaultScript, Msg: err.Error()}
}

func (w *worker) keep(s core.State) uint64 {
	w.next++
	w.states[w.next] = s
	return w.next
}

func (w *worker) reset() {
	if w.game != nil {
		w.game.Close()
		w.game = nil
	}
	clear(w.states)
}

package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"strconv"
	"sync"
	"time"
)

// Budgets are the CPU-time budgets of a sandboxed game: a loaded machine slows the wall clock,
// not the work a script does, so it does not change a verdict. Zero means the default.
type Budgets struct {
	// Call is the budget of one contract call (default: Limits.CallTime, 2 s).
	Call time.Duration `json:"call"`
	// Move is the budget of one agent move, its search included, and of each call between
	// moves (default 10 s).
	Move time.Duration `json:"move"`
	// Game is the budget of one game, from Initial to the end (default 60 s).
	Game time.Duration `json:"game"`
}

// DefaultBudgets are the budgets used when none are given.
var DefaultBudgets = Budgets{Call: 2 * time.Second, Move: 10 * time.Second, Game: time.Minute}

func (b Budgets) withDefaults() Budgets {
	if b.Call <= 0 {
		b.Call = DefaultBudgets.Call
	}
	if b.Move <= 0 {
		b.Move = DefaultBudgets.Move
	}
	if b.Game <= 0 {
		b.Game = DefaultBudgets.Game
	}
	return b
}

// SandboxOptions configure a sandboxed game.
type SandboxOptions struct {
	Budgets Budgets
	// Limits are the script's in-interpreter limits (steps, sizes); CallTime is taken from
	// Budgets.Call and counts CPU time.
	Limits script.Limits
}

// Pool keeps warm sandbox workers: processes of this same binary started with WorkerEnv,
// each under OS limits (address space, CPU time, no core dumps, a bounded stack), in a
// process group of its own and killed when the parent dies (Linux). A game borrows a worker
// for its lifetime (Open ... Close). The zero value is ready to use.
type Pool struct {
	// Exe is the binary to start (default: os.Executable()). It must call RunSandboxChild
	// first thing in main (or TestMain) when IsSandboxChild.
	Exe string
	// Memory is each worker's memory limit (default 1 GiB).
	Memory uint64
	// MaxIdle is how many idle workers are kept warm (default 4).
	MaxIdle int

	mu   sync.Mutex
	idle []*proc
}

// DefaultPool is the pool the commands and the GUI share.
var DefaultPool = &Pool{}

func (pl *Pool) memory() uint64 {
	if pl.Memory == 0 {
		return 1 << 30
	}
	return pl.Memory
}

// proc is one worker process.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *tailBuffer
	exited chan struct{}
	werr   error // cmd.Wait's result, set before exited closes
	lim    ChildLimits
	dead   *core.Fault // set once the process is gone
	cpu    time.Duration
	calls  int // round trips made
}

// tailBuffer keeps what a worker wrote to stderr, for naming a crash: the last bytes, the
// first bytes of the crash itself (a stack overflow's dump runs past the tail, and its cause is
// in its first line), and the last stage a job started (stagePrefix).
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	crash []byte // from the first crash marker on, at most crashHead bytes
	cut   bool   // bytes were dropped between crash and buf
	stage string
}

// stagePrefix marks the worker's stderr lines that name the stage a job starts (a
// validation's filter), so that a worker that dies is charged to the right stage.
const stagePrefix = "duel-filter: "

const (
	crashHead  = 4 << 10
	stderrTail = 16 << 10
)

// elided stands in Bytes for what was dropped between the crash's start and the tail.
const elided = "…"

var crashMarkers = [][]byte{[]byte("fatal error:"), []byte("panic:"), []byte("runtime:")}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.crash == nil {
		at := -1
		for _, m := range crashMarkers {
			if i := bytes.Index(p, m); i >= 0 && (at < 0 || i < at) {
				at = i
			}
		}
		if at >= 0 {
			t.crash = append([]byte{}, p[at:min(len(p), at+crashHead)]...)
		}
	} else if room := crashHead - len(t.crash); room > 0 {
		t.crash = append(t.crash, p[:min(room, len(p))]...)
	}
	for _, line := range bytes.Split(p, []byte("\n")) {
		if f, ok := bytes.CutPrefix(line, []byte(stagePrefix)); ok {
			t.stage = string(f)
		}
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > stderrTail {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-stderrTail:]...)
		if t.crash != nil {
			t.cut = true
		}
	}
	return len(p), nil
}

// Bytes is the tail, preceded by the crash's first bytes when the tail no longer holds them.
func (t *tailBuffer) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.cut {
		return append([]byte(nil), t.buf...)
	}
	out := append([]byte(nil), t.crash...)
	out = append(out, "\n"+elided+"\n"...)
	return append(out, t.buf...)
}

// lastStage is the last stage a job in this worker started, or "".
func (t *tailBuffer) lastStage() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stage
}

func (pl *Pool) spawn() (*proc, error) {
	exe := pl.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, err
		}
	}
	lim := ChildLimits{Memory: pl.memory(), CPU: workerCPULimit}.withDefaults()
	cmd := exec.Command(exe)
	cmd.Env = append(SandboxEnv(nil), WorkerEnv+"="+strconv.FormatUint(lim.Memory>>20, 10))
	cmd.SysProcAttr = workerProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, stdin: stdin, stdout: bufio.NewReaderSize(stdout, 64<<10), stderr: &tailBuffer{}, exited: make(chan struct{}), lim: lim}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting a sandbox worker: %w", err)
	}
	go func() {
		p.werr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func (pl *Pool) get() (*proc, error) {
	pl.mu.Lock()
	for len(pl.idle) > 0 {
		p := pl.idle[len(pl.idle)-1]
		pl.idle = pl.idle[:len(pl.idle)-1]
		select {
		case <-p.exited:
			continue
		default:
		}
		pl.mu.Unlock()
		return p, nil
	}
	pl.mu.Unlock()
	return pl.spawn()
}

func (pl *Pool) put(p *proc) {
	if p == nil {
		return
	}
	if p.dead != nil || p.cpu > workerRetireCPU {
		p.kill()
		return
	}
	pl.mu.Lock()
	maxIdle := pl.MaxIdle
	if maxIdle <= 0 {
		maxIdle = 4
	}
	if len(pl.idle) < maxIdle {
		pl.idle = append(pl.idle, p)
		p = nil
	}
	pl.mu.Unlock()
	if p != nil {
		p.kill()
	}
}

// Close ends the idle workers.
func (pl *Pool) Close() {
	pl.mu.Lock()
	idle := pl.idle
	pl.idle = nil
	pl.mu.Unlock()
	for _, p := range idle {
		p.kill()
	}
}

// kill ends the worker's process group and waits for it.
func (p *proc) kill() {
	killGroup(p.cmd.Process)
	_ = p.stdin.Close()
	<-p.exited
}

// call sends req and waits for the reply, or for ctx. A worker that dies, or whose reply is
// malformed or too large, is killed and named in a *Fault.
func (p *proc) call(ctx context.Context, req workerRequest) (workerReply, error) {
	if p.dead != nil {
		return workerReply{}, p.dead
	}
	if err := ctx.Err(); err != nil {
		return workerReply{}, err
	}
	// a cancelled context kills the worker, which ends the blocked write or read: no goroutine
	// per call (a round trip is a few tens of microseconds, and MCTS in a session makes many)
	p.calls++
	stop := context.AfterFunc(ctx, p.kill)
	err := writeFrame(p.stdin, req)
	var rep workerReply
	if err == nil {
		err = readFrame(p.stdout, maxReply, &rep)
	}
	if !stop() {
		<-p.exited // the kill has begun: wait for the process to be gone
		p.dead = &core.Fault{Kind: core.FaultAgent, Msg: "cancelled"}
		return workerReply{}, ctx.Err()
	}
	if err != nil {
		p.dead = p.crashFault(err)
		return workerReply{}, p.dead
	}
	if rep.Seq != uint64(p.calls) {
		// an answer to another request: the two sides no longer agree on what was asked
		p.kill()
		p.dead = &core.Fault{Kind: core.FaultPanic, Msg: fmt.Sprintf("the sandbox worker answered request %d when asked request %d", rep.Seq, p.calls)}
		return workerReply{}, p.dead
	}
	p.cpu += rep.CPU
	if rep.Exiting {
		p.dead = rep.Fault
		p.kill()
	}
	return rep, nil
}

// crashFault names why the worker stopped answering.
func (p *proc) crashFault(readErr error) *core.Fault {
	if errors.Is(readErr, errFrameTooBig) {
		p.kill()
		return &core.Fault{Kind: core.FaultContract, Msg: "the sandbox worker sent a reply larger than the protocol allows: " + readErr.Error()}
	}
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		p.kill()
	}
	stderr := p.stderr.Bytes()
	var ee *exec.ExitError
	if errors.As(p.werr, &ee) {
		return classifyCrash(ee, stderr, p.lim)
	}
	if len(stderr) > 0 && crashed(stderr) {
		return crashFault(-1, stderr, p.lim)
	}
	return &core.Fault{Kind: core.FaultPanic, Msg: fmt.Sprintf("the sandbox worker stopped answering (%v)", readErr)}
}

// Remote is a game script running in a sandbox worker: it implements Game with states that
// are handles to values held by the worker. Built-in agents playing it through Play or a
// Session search inside the worker (ActOn); other agents call it like any Game. A Remote is
// not safe for concurrent use; open one per goroutine.
type Remote struct {
	pool *Pool
	ctx  context.Context
	name string
	src  []byte
	opts SandboxOptions
	info core.Info
	p    *proc
	// gameCPU is the CPU time the current game (since Initial) has used; cpu all the CPU
	// time the worker spent on this game's requests.
	gameCPU, cpu time.Duration
	insp         inspection
	// use, when set, also bounds every call (Use).
	use context.Context
}

// Use makes every call of the game also end when ctx is done, until the next Use (nil: only
// the game's own context). A caller that must be able to walk away from a call (the GUI's
// cancel) uses it: a cancelled call kills its worker at once, whatever the script is doing,
// and the game is unusable (Alive is false) until its next Initial starts a fresh worker.
func (r *Remote) Use(ctx context.Context) { r.use = ctx }

// Alive reports whether the game's worker can still answer: false after a cancelled call, a
// crash or a budget that ended the worker, until the next Initial.
func (r *Remote) Alive() bool { return r.p != nil && r.p.dead == nil }

// remoteState is a handle to a state held by the worker.
type remoteState struct {
	r  *Remote
	id uint64
}

// inspection caches outcome, to_move and legal_actions of one state (one round trip).
type inspection struct {
	id                uint64
	outcome           core.Outcome
	player            int
	legal             []int
	moveErr, legalErr error
}

// Open starts a game script in a sandbox worker of the pool. ctx bounds the game's life:
// cancelling it kills the worker at once, whatever the script is doing.
func (pl *Pool) Open(ctx context.Context, name string, src []byte, opts SandboxOptions) (*Remote, error) {
	opts.Budgets = opts.Budgets.withDefaults()
	opts.Limits.CallTime = opts.Budgets.Call
	if opts.Limits.Memory == 0 {
		// the in-interpreter heap check names the call well before the OS limit kills the worker
		opts.Limits.Memory = pl.memory() / 2
	}
	r := &Remote{pool: pl, ctx: ctx, name: name, src: src, opts: opts}
	if err := r.start(); err != nil {
		return nil, err
	}
	return r, nil
}

// OpenSandboxed opens a built-in game or a .star file in the default pool.
func OpenSandboxed(ctx context.Context, nameOrPath string, opts SandboxOptions) (*Remote, error) {
	p, err := script.Open(nameOrPath, opts.Limits)
	if err != nil {
		return nil, err
	}
	return DefaultPool.Open(ctx, p.Name(), p.Source(), opts)
}

func (r *Remote) start() error {
	p, err := r.pool.get()
	if err != nil {
		return err
	}
	rep, err := p.call(r.ctx, workerRequest{Op: "load", Name: r.name, Source: r.src, Limits: r.opts.Limits,
		Budget: r.opts.Budgets.Move, BudgetName: "loading of the script"})
	if err == nil && rep.Fault != nil {
		if rep.Fault.Kind == core.FaultScript {
			rep.Fault.Kind = core.FaultLoad
		}
		err = rep.Fault
	} else if err == nil && rep.Error != "" {
		err = errors.New(rep.Error)
	}
	if err != nil {
		if f := core.FaultOf(err); f != nil && f.Kind != core.FaultLoad {
			f = &core.Fault{Kind: core.FaultLoad, Msg: f.Error(), Err: f}
			err = f
		}
		r.pool.put(p)
		return err
	}
	r.p, r.info = p, *rep.Info
	r.insp = inspection{}
	return nil
}

// Close gives the worker back to the pool (or ends it if it is broken).
func (r *Remote) Close() {
	if r.p != nil {
		r.pool.put(r.p)
		r.p = nil
	}
}

// Clone opens another instance of the same game in another worker.
func (r *Remote) Clone() (*Remote, error) {
	return r.pool.Open(r.ctx, r.name, r.src, r.opts)
}

// Name is the game's name.
func (r *Remote) Name() string { return r.name }

// CPU is the CPU time the sandbox worker has spent on this game's requests (as the worker
// measured it: the whole worker process, garbage collection included).
func (r *Remote) CPU() time.Duration { return r.cpu }

// Source is the script.
func (r *Remote) Source() []byte { return r.src }

// Info describes the game.
func (r *Remote) Info() core.Info { return r.info }

// Log is what the script printed (bounded).
func (r *Remote) Log() string {
	rep, err := r.do(r.ctx, workerRequest{Op: "log"})
	if err != nil {
		return ""
	}
	return rep.Text
}

// do sends one request under the move and game budgets.
func (r *Remote) do(ctx context.Context, req workerRequest) (workerReply, error) {
	if r.p == nil {
		return workerReply{}, &core.Fault{Kind: core.FaultPanic, Msg: "the game is closed"}
	}
	b := r.opts.Budgets
	left := b.Game - r.gameCPU
	if left <= 0 {
		return workerReply{}, budgetFault("game", b.Game)
	}
	req.Budget, req.BudgetName = b.Move, "move"
	if r.use != nil {
		var cancel context.CancelFunc
		ctx, cancel = mergeDone(ctx, r.use)
		defer cancel()
	}
	if left < b.Move {
		req.Budget, req.BudgetName = left, "game"
	}
	rep, err := r.p.call(ctx, req)
	r.gameCPU += rep.CPU
	r.cpu += rep.CPU
	if err != nil {
		return rep, err
	}
	if rep.Fault != nil {
		if rep.Fault.Kind == core.FaultTimeout && req.BudgetName == "game" {
			rep.Fault = budgetFault("game", b.Game)
		}
		return rep, rep.Fault
	}
	if rep.Error != "" {
		return rep, errors.New(rep.Error)
	}
	return rep, nil
}

func (r *Remote) id(s core.State) (uint64, error) {
	rs, ok := s.(remoteState)
	if !ok || rs.r != r {
		return 0, fmt.Errorf("duel: %T is not a state of this sandboxed game", s)
	}
	return rs.id, nil
}

// Initial starts a game: the game's CPU budget starts over. A worker that died in the
// previous game is replaced first.
func (r *Remote) Initial(seed int64) (core.State, error) {
	if r.p == nil || r.p.dead != nil {
		r.Close()
		if err := r.start(); err != nil {
			return nil, err
		}
	}
	r.gameCPU = 0
	rep, err := r.do(r.ctx, workerRequest{Op: "initial", Seed: seed, Inspect: true})
	if err != nil {
		return nil, err
	}
	r.inspected(rep)
	return remoteState{r, rep.ID}, nil
}

func (r *Remote) inspect(s core.State) (*inspection, error) {
	id, err := r.id(s)
	if err != nil {
		return nil, err
	}
	if r.insp.id == id && id != 0 {
		return &r.insp, nil
	}
	rep, err := r.do(r.ctx, workerRequest{Op: "inspect", ID: id})
	if err != nil {
		return nil, err
	}
	r.insp = inspection{id: id, outcome: rep.Outcome, player: rep.Int, legal: rep.Ints}
	if rep.MoveFault != nil {
		r.insp.moveErr = rep.MoveFault
	}
	if rep.LegalFault != nil {
		r.insp.legalErr = rep.LegalFault
	}
	return &r.insp, nil
}

// Outcome is outcome(state).
func (r *Remote) Outcome(s core.State) (core.Outcome, error) {
	in, err := r.inspect(s)
	if err != nil {
		return core.Ongoing, err
	}
	return in.outcome, nil
}

// ToMove is to_move(state); asked of a finished game it is an error.
func (r *Remote) ToMove(s core.State) (int, error) {
	in, err := r.inspect(s)
	if err != nil {
		return 0, err
	}
	if in.outcome.Done() {
		return 0, core.Contractf("to_move", "asked of a finished game")
	}
	return in.player, in.moveErr
}

// Legal is legal_actions(state).
func (r *Remote) Legal(s core.State) ([]int, error) {
	in, err := r.inspect(s)
	if err != nil {
		return nil, err
	}
	if in.outcome.Done() {
		return nil, nil
	}
	if in.moveErr != nil {
		return nil, in.moveErr
	}
	return append([]int(nil), in.legal...), in.legalErr
}

// Apply is apply(state, action).
func (r *Remote) Apply(s core.State, action int) (core.State, error) {
	id, err := r.id(s)
	if err != nil {
		return nil, err
	}
	rep, err := r.do(r.ctx, workerRequest{Op: "apply", ID: id, Action: action, Inspect: true})
	if err != nil {
		return nil, err
	}
	r.inspected(rep)
	return remoteState{r, rep.ID}, nil
}

// inspected keeps the inspection that came with a new state (one round trip per move instead
// of two: every caller asks for the turn of the state it just made).
func (r *Remote) inspected(rep workerReply) {
	if rep.Inspected && rep.ID != 0 {
		r.insp = inspection{id: rep.ID, outcome: rep.Outcome, player: rep.Int, legal: rep.Ints}
	}
}

// Observe is observe(state, player).
func (r *Remote) Observe(s core.State, player int) ([]float64, error) {
	id, err := r.id(s)
	if err != nil {
		return nil, err
	}
	rep, err := r.do(r.ctx, workerRequest{Op: "observe", ID: id, Player: player})
	return rep.Floats, err
}

// Render is render(state).
func (r *Remote) Render(s core.State) (string, error) {
	id, err := r.id(s)
	if err != nil {
		return "", err
	}
	rep, err := r.do(r.ctx, workerRequest{Op: "render", ID: id})
	return rep.Text, err
}

// ActionLabel is action_label(state, action).
func (r *Remote) ActionLabel(s core.State, action int) (string, error) {
	id, err := r.id(s)
	if err != nil {
		return "", err
	}
	rep, err := r.do(r.ctx, workerRequest{Op: "label", ID: id, Action: action})
	return rep.Text, err
}

// ActionLabels is action_label(state, a) for each action, in one round trip.
func (r *Remote) ActionLabels(s core.State, actions []int) ([]string, error) {
	id, err := r.id(s)
	if err != nil {
		return nil, err
	}
	if len(actions) == 0 {
		return nil, nil
	}
	out := make([]string, 0, len(actions))
	// in chunks: a reply holds at most maxReply bytes, and a label is up to MaxLabel
	for lo := 0; lo < len(actions); lo += labelChunk {
		chunk := actions[lo:min(lo+labelChunk, len(actions))]
		rep, err := r.do(r.ctx, workerRequest{Op: "labels", ID: id, Legal: chunk})
		if err == nil && len(rep.Texts) != len(chunk) {
			err = fmt.Errorf("duel: the sandbox worker sent %d labels for %d actions", len(rep.Texts), len(chunk))
		}
		if err != nil {
			return nil, err
		}
		out = append(out, rep.Texts...)
	}
	return out, nil
}

// labelChunk is how many labels one reply carries at most.
const labelChunk = maxReply / (4 * script.MaxLabel)

// ActionCells is action_cells(state, a) for each action, in one round trip (CellMapper).
func (r *Remote) ActionCells(s core.State, actions []int) ([][]core.Square, bool, error) {
	id, err := r.id(s)
	if err != nil {
		return nil, false, err
	}
	rep, err := r.do(r.ctx, workerRequest{Op: "cells", ID: id, Legal: actions})
	if err == nil && rep.Defined && len(rep.Cells) != len(actions) {
		err = fmt.Errorf("duel: the sandbox worker sent cells for %d of %d actions", len(rep.Cells), len(actions))
	}
	return rep.Cells, rep.Defined, err
}

// RunAgent asks the worker for the move of the agent named agent in t, with the move seed
// seed: a built-in agent ParseAgent makes from its name, or (spec set) one the registered
// AgentSpecs rebuild from spec. duel.ActOn sends built-in agents' moves here.
func (r *Remote) RunAgent(ctx context.Context, agent string, spec []byte, t core.Turn, seed uint64) (int, error) {
	id, err := r.id(t.State)
	if err != nil {
		return 0, err
	}
	ctx, cancel := mergeDone(ctx, r.ctx)
	defer cancel()
	rep, err := r.do(ctx, workerRequest{Op: "act", ID: id, Agent: agent, Spec: spec, RNG: seed, Legal: t.Legal,
		Player: t.Player, Ply: t.Ply, MaxPlies: t.MaxPlies})
	if err != nil {
		return 0, err
	}
	return rep.Int, nil
}

// Release tells the worker that the states are dropped (Play and Session call it).
func (r *Remote) Release(states ...core.State) {
	var ids []uint64
	for _, s := range states {
		if id, err := r.id(s); err == nil {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 || r.p == nil || r.p.dead != nil {
		return
	}
	if r.insp.id != 0 {
		for _, id := range ids {
			if id == r.insp.id {
				r.insp = inspection{}
			}
		}
	}
	_, _ = r.p.call(r.ctx, workerRequest{Op: "free", IDs: ids})
}

// Call runs the registered game operation op (RegisterGameOp) on the worker's game with args
// (sent as JSON) and returns its result and the CPU time the worker spent on it. It is
// budgeted as a game of its own, with the Move budget for the request; a nil ctx is the
// game's.
func (r *Remote) Call(ctx context.Context, op string, args any) (json.RawMessage, time.Duration, error) {
	b, err := json.Marshal(args)
	if err != nil {
		return nil, 0, err
	}
	if ctx == nil {
		ctx = r.ctx
	}
	r.gameCPU = 0
	rep, err := r.do(ctx, workerRequest{Op: op, Args: b})
	if err != nil {
		return nil, rep.CPU, err
	}
	return rep.Result, rep.CPU, nil
}

// RunJob runs the registered job op (RegisterJob) on a script's source in a worker of the
// pool, under a CPU budget named budgetName, and returns its result. When the job fails,
// stage is the last stage it started (empty if none): a worker that crashes, overflows, runs
// out of memory or overruns the budget is killed and the fault names why.
func (pl *Pool) RunJob(ctx context.Context, op, name string, src []byte, args any, budget time.Duration, budgetName string) (result json.RawMessage, stage string, err error) {
	b, err := json.Marshal(args)
	if err != nil {
		return nil, "", err
	}
	p, err := pl.get()
	if err != nil {
		return nil, "", err
	}
	defer pl.put(p)
	rep, err := p.call(ctx, workerRequest{Op: op, Name: name, Source: src, Args: b, Budget: budget, BudgetName: budgetName})
	if err == nil && rep.Fault != nil {
		err = rep.Fault
	} else if err == nil && rep.Error != "" {
		err = errors.New(rep.Error)
	}
	if err != nil {
		return nil, p.stderr.lastStage(), err
	}
	return rep.Result, "", nil
}

// ScriptMemory is the in-interpreter memory limit a script gets in the pool's workers when
// none is set: half a worker's, so that the interpreter's check names the call well before
// the OS limit kills the worker.
func (pl *Pool) ScriptMemory() uint64 { return pl.memory() / 2 }

// IdlePIDs are the process ids of the pool's idle workers, the next to be borrowed last.
func (pl *Pool) IdlePIDs() []int {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	var pids []int
	for _, p := range pl.idle {
		pids = append(pids, p.cmd.Process.Pid)
	}
	return pids
}

// mergeDone is a context cancelled when either a or b is.
func mergeDone(a, b context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(a)
	stop := context.AfterFunc(b, cancel)
	return ctx, func() { stop(); cancel() }
}

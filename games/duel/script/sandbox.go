package script

import (
	"pcgwb/games/duel/core"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"
)

// Limits bound what a game script may do. The zero value of a field means its default.
type Limits struct {
	// Steps is the Starlark execution-step budget of one call (default 1e6, gg-bench §15.4).
	Steps uint64 `json:"steps"`
	// CallTime is the wall-time budget of one call (default 2 s).
	CallTime time.Duration `json:"call_time"`
	// Memory is the Go heap size above which a call that has run for a while is stopped
	// (default 1 GiB). It is a measured bound on the whole process, checked every few
	// milliseconds; the child-process mode enforces a hard OS limit instead.
	Memory uint64 `json:"memory"`
	// MaxElems bounds the length of a range and of a list or tuple made by repetition
	// (default 1<<20); MaxString the bytes of a string one operation builds (default 4 MiB);
	// MaxIntBits the size of an int made by multiplication (default 16384).
	MaxElems   int `json:"max_elems"`
	MaxString  int `json:"max_string"`
	MaxIntBits int `json:"max_int_bits"`
	// MaxSource bounds the script's size in bytes (default 256 KiB).
	MaxSource int `json:"max_source"`
}

// DefaultLimits are the limits used when none are given.
var DefaultLimits = Limits{
	Steps:      1_000_000,
	CallTime:   2 * time.Second,
	Memory:     1 << 30,
	MaxElems:   1 << 20,
	MaxString:  4 << 20,
	MaxIntBits: 1 << 14,
	MaxSource:  256 << 10,
}

// WithDefaults is l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits
	if l.Steps == 0 {
		l.Steps = d.Steps
	}
	if l.CallTime == 0 {
		l.CallTime = d.CallTime
	}
	if l.Memory == 0 {
		l.Memory = d.Memory
	}
	if l.MaxElems == 0 {
		l.MaxElems = d.MaxElems
	}
	if l.MaxString == 0 {
		l.MaxString = d.MaxString
	}
	if l.MaxIntBits == 0 {
		l.MaxIntBits = d.MaxIntBits
	}
	if l.MaxSource == 0 {
		l.MaxSource = d.MaxSource
	}
	return l
}

// A callSlot is the watchdog's view of one Starlark thread: when its current call started
// (0 when idle) and, once the watchdog stops it, why.
type callSlot struct {
	thread   *starlark.Thread
	start    atomic.Int64
	callTime time.Duration
	memory   uint64
	stopped  atomic.Pointer[core.FaultKind]
	// stepsEnd is the thread's step count at which the current call's budget runs out.
	stepsEnd uint64
	// seenStart and seenCPU: the call the watchdog last saw running and the process's CPU
	// time when it first saw it (cpuClock mode).
	seenStart int64
	seenCPU   time.Duration
}

// cpuClock switches the per-call time budget from wall time to CPU time: a sandbox worker
// runs one game, so the process's CPU time is the call's, and a busy machine does not stop a
// call that did little work. The watchdog charges a call from the first tick that sees it.
var cpuClock atomic.Bool

// stuckCall, when set (in a sandbox worker), is called by the watchdog for a call that was
// stopped but kept running past its CPU limit: one Starlark step can run for ever (hashing a
// huge value), and only the end of the process stops it.
var stuckCall atomic.Pointer[func(limit time.Duration)]

// stepChunk is how many Starlark steps run between the interpreter's own checks of the wall
// time and the heap (about a millisecond): they do not depend on the watchdog goroutine being
// scheduled, which a busy machine can delay.
const stepChunk = 1 << 15

// arm sets the thread's step limit for a call that may run budget steps.
func (s *callSlot) arm(budget uint64) {
	th := s.thread
	s.stepsEnd = th.Steps + budget
	th.SetMaxExecutionSteps(min(s.stepsEnd, th.Steps+stepChunk))
}

// onMaxSteps runs inside the interpreter each time a chunk of steps is used up.
func (s *callSlot) onMaxSteps(th *starlark.Thread) {
	if th.Steps >= s.stepsEnd {
		th.Cancel("too many steps")
		return
	}
	if start := s.start.Load(); start != 0 {
		if !cpuClock.Load() && time.Duration(monoNow()-start) > s.callTime {
			s.stop(start, core.FaultTimeout, "wall-time limit exceeded")
			return
		}
		if heapObjects() > s.memory && liveHeapOver(s.memory) {
			s.stop(start, core.FaultMemory, "memory limit exceeded")
			return
		}
	}
	th.SetMaxExecutionSteps(min(s.stepsEnd, th.Steps+stepChunk))
}

// liveHeapOver reports whether the heap is still over limit after a collection: garbage (of
// an earlier game in the same worker, say) is not the running call's.
func liveHeapOver(limit uint64) bool {
	runtime.GC()
	return heapObjects() > limit
}

func heapObjects() uint64 {
	sample := [1]metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample[:])
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

// The watchdog is one goroutine for the whole process, running while any script game exists.
// Starting a timer per call would cost more than most calls (an MCTS move makes thousands), so
// calls only store their start time and the watchdog polls.
var watchdog struct {
	mu      sync.Mutex
	slots   map[*callSlot]struct{}
	running bool
}

const watchdogTick = 2 * time.Millisecond

// memoryCheckAfter is how long a call must have run before the heap check may stop it: short
// calls cannot allocate much, and a big heap may belong to other work in the process.
const memoryCheckAfter = 10 * time.Millisecond

var clockBase = time.Now()

func monoNow() int64 { return int64(time.Since(clockBase)) + 1 }

func registerSlot(s *callSlot) {
	watchdog.mu.Lock()
	defer watchdog.mu.Unlock()
	if watchdog.slots == nil {
		watchdog.slots = make(map[*callSlot]struct{})
	}
	watchdog.slots[s] = struct{}{}
	if !watchdog.running {
		watchdog.running = true
		go watch()
	}
}

func unregisterSlot(s *callSlot) {
	watchdog.mu.Lock()
	delete(watchdog.slots, s)
	watchdog.mu.Unlock()
}

func watch() {
	var busy []*callSlot
	for {
		time.Sleep(watchdogTick)
		watchdog.mu.Lock()
		if len(watchdog.slots) == 0 {
			watchdog.running = false
			watchdog.mu.Unlock()
			return
		}
		busy = busy[:0]
		for s := range watchdog.slots {
			if s.start.Load() != 0 {
				busy = append(busy, s)
			}
		}
		watchdog.mu.Unlock()
		if len(busy) == 0 {
			continue
		}
		now := monoNow()
		var cpu time.Duration
		if cpuClock.Load() {
			cpu = CPUTime()
		}
		heapRead := false
		var heap uint64
		for _, s := range busy {
			start := s.start.Load()
			if start == 0 {
				continue
			}
			ran := time.Duration(now - start)
			if cpuClock.Load() {
				if s.seenStart != start {
					s.seenStart, s.seenCPU = start, cpu-watchdogTick
				}
				ran = cpu - s.seenCPU
			}
			if ran > s.callTime {
				if cpuClock.Load() && ran > s.callTime+StuckGrace && s.stopped.Load() != nil {
					if h := stuckCall.Load(); h != nil {
						(*h)(s.callTime)
					}
				}
				s.stop(start, core.FaultTimeout, "wall-time limit exceeded")
				continue
			}
			if ran < memoryCheckAfter {
				continue
			}
			if !heapRead {
				heap, heapRead = heapObjects(), true
			}
			if heap > s.memory && liveHeapOver(s.memory) {
				s.stop(start, core.FaultMemory, "memory limit exceeded")
				runtime.GC()
			}
		}
	}
}

func (s *callSlot) stop(start int64, kind core.FaultKind, reason string) {
	if s.start.Load() != start {
		return // that call already ended
	}
	k := kind
	if k == core.FaultTimeout && cpuClock.Load() {
		reason = "CPU-time limit exceeded"
	}
	s.stopped.Store(&k)
	s.thread.Cancel(reason)
}

// StuckGrace is how much CPU time past its limit a stopped call may take to stop by itself
// (a cancelled script stops at its next step) before OnStuckCall's function is called.
const StuckGrace = 250 * time.Millisecond

// UseCPUClock switches the per-call time budget of every game in the process from wall time
// to CPU time (a sandbox worker, which runs one game at a time, calls it once at start).
func UseCPUClock() { cpuClock.Store(true) }

// OnStuckCall sets the function the watchdog calls, with the call's limit, for a call that was
// stopped but ran StuckGrace past its CPU limit (one Starlark step can run for ever): only the
// end of the process stops it.
func OnStuckCall(f func(limit time.Duration)) { stuckCall.Store(&f) }

package solver

// frontier is the A* agent's priority queue: a binary heap with exactly Python heapq's
// heappush/heappop behaviour. Go's container/heap sifts differently and so breaks ties
// differently; the reference's A* searches have many ties (integer heuristics), and which node
// is expanded first changes the solutions they report. Only "<" on the priorities is ever
// evaluated, as in Python, where the nodes' __lt__ compares their priorities.
//
// Each entry carries its priority beside the node index, so that sifting compares entries in
// the heap's own array instead of reaching into the (much larger) node arena for every
// comparison; that reach was a cache miss per comparison and a third of a MiniDungeons
// evaluation.
type frontier struct{ items []entry }

type entry struct {
	priority float64
	node     int32
}

func (h *frontier) reset()   { h.items = h.items[:0] }
func (h *frontier) len() int { return len(h.items) }

// push is heapq.heappush.
func (h *frontier) push(priority float64, node int32) {
	h.items = append(h.items, entry{priority, node})
	h.siftDown(0, len(h.items)-1)
}

// pop is heapq.heappop: take the last item; if items remain, return the root and sift the last
// item down to a leaf, then back up.
func (h *frontier) pop() int32 {
	n := len(h.items) - 1
	last := h.items[n]
	h.items = h.items[:n]
	if n == 0 {
		return last.node
	}
	top := h.items[0]
	h.items[0] = last
	h.siftUp(0)
	return top.node
}

// siftDown is heapq._siftdown: move the item at pos up toward start while it is smaller than
// its parent.
func (h *frontier) siftDown(start, pos int) {
	items := h.items
	item := items[pos]
	for pos > start {
		parent := (pos - 1) >> 1
		if item.priority < items[parent].priority {
			items[pos] = items[parent]
			pos = parent
			continue
		}
		break
	}
	items[pos] = item
}

// siftUp is heapq._siftup: bubble the smaller child up until a leaf, place the item there, then
// siftDown it. On ties the right child is chosen (not left < right).
func (h *frontier) siftUp(pos int) {
	items := h.items
	end := len(items)
	start := pos
	item := items[pos]
	child := 2*pos + 1
	for child < end {
		right := child + 1
		if right < end && !(items[child].priority < items[right].priority) {
			child = right
		}
		items[pos] = items[child]
		pos = child
		child = 2*pos + 1
	}
	items[pos] = item
	h.siftDown(start, pos)
}

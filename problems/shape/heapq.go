package shape

// PyHeap is a binary heap with exactly Python heapq's push/pop behaviour. Go's container/heap
// sifts differently and so breaks ties differently; the reference's A* searches have many ties
// (integer heuristics), and which node is expanded first changes the solutions they report.
type PyHeap[T any] struct {
	items []T
	less  func(a, b T) bool
}

// NewPyHeap makes an empty heap ordered by less (only less is ever called, as in Python).
func NewPyHeap[T any](less func(a, b T) bool) *PyHeap[T] { return &PyHeap[T]{less: less} }

// Len is the number of queued items.
func (h *PyHeap[T]) Len() int { return len(h.items) }

// Push is heapq.heappush.
func (h *PyHeap[T]) Push(x T) {
	h.items = append(h.items, x)
	h.siftDown(0, len(h.items)-1)
}

// Pop is heapq.heappop: take the last item; if items remain, return the root and sift the last
// item down to a leaf, then back up.
func (h *PyHeap[T]) Pop() T {
	n := len(h.items) - 1
	last := h.items[n]
	h.items = h.items[:n]
	if n == 0 {
		return last
	}
	top := h.items[0]
	h.items[0] = last
	h.siftUp(0)
	return top
}

// siftDown is heapq._siftdown: move the item at pos up toward start while it is smaller than
// its parent.
func (h *PyHeap[T]) siftDown(start, pos int) {
	item := h.items[pos]
	for pos > start {
		parent := (pos - 1) >> 1
		if h.less(item, h.items[parent]) {
			h.items[pos] = h.items[parent]
			pos = parent
			continue
		}
		break
	}
	h.items[pos] = item
}

// siftUp is heapq._siftup: bubble the smaller child up until a leaf, place the item there, then
// siftDown it. On ties the right child is chosen (not left < right).
func (h *PyHeap[T]) siftUp(pos int) {
	end := len(h.items)
	start := pos
	item := h.items[pos]
	child := 2*pos + 1
	for child < end {
		right := child + 1
		if right < end && !h.less(h.items[child], h.items[right]) {
			child = right
		}
		h.items[pos] = h.items[child]
		pos = child
		child = 2*pos + 1
	}
	h.items[pos] = item
	h.siftDown(start, pos)
}

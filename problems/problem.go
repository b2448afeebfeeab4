package problems

import (
	"image"

	"pcgwb/problems/space"
)

// Content is a problem's content in the reference's JSON shape: rows of ints for tile maps,
// maps for structured content (see package space).
type Content = any

// Control is a control target, a member of the problem's control space.
type Control = any

// Info is what a problem computes once per content (the expensive part); quality, diversity and
// controllability read only the info. Each problem has its own concrete type, which marshals to
// JSON with the reference's keys.
type Info = any

// Problem is one registered benchmark problem.
type Problem interface {
	ContentSpace() space.Space
	ControlSpace() space.Space
	// Info analyses a normalized content (a member of ContentSpace).
	Info(c Content) (Info, error)
	Quality(info Info) float64
	// Diversity is the pairwise diversity of two infos in [0, 1]; 0 for identical contents.
	Diversity(a, b Info) float64
	Controllability(info Info, control Control) float64
	// Render draws the content with the project's own sprites.
	Render(c Content) (image.Image, error)
}

// DiversityKeyer is implemented by problems whose Diversity reads one string of each info and
// nothing else: items with equal keys have equal diversities to every item, so a set's
// diversity is computed once per pair of distinct keys (many random levels share a key, e.g.
// the empty route of an unplayable Zelda level).
type DiversityKeyer interface {
	DiversityKey(info Info) string
}

// DiversityKerneler is implemented by problems whose pairwise diversity over a whole set is
// computed faster from features prepared once per item than by calling Diversity pair by pair
// (a set of n items takes n² diversities). DiversityKernel prepares infos and returns a
// constructor of kernels: kernel(i, j) must return exactly Diversity(infos[i], infos[j]), bit
// for bit, without allocating. A kernel may keep scratch space, so it is used by one goroutine
// at a time; each call of the constructor gives an independent one. A nil constructor means
// "use Diversity".
type DiversityKerneler interface {
	DiversityKernel(infos []Info) func() func(i, j int) float64
}

// Describer is implemented by problems that can explain themselves to a user.
type Describer interface {
	Description() string
}

// ControlSampler is implemented by problems whose control sampler is not the plain space
// sampler (Building rescales its four counts to sum to the block count).
type ControlSampler interface {
	SampleControl(r space.Rand) Control
}

// SampleControl draws a control the way the problem's reference does.
func SampleControl(p Problem, r space.Rand) Control {
	if s, ok := p.(ControlSampler); ok {
		return s.SampleControl(r)
	}
	return p.ControlSpace().Sample(r)
}

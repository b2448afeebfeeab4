package classifier

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas/blas32"
)

// Architecture. The input is the 224×224 image the ViT sees, averaged over 7×7 blocks to 32×32
// (224 = 7·32, so every input pixel is the mean of exactly 49 ViT pixels).
const (
	InputSize = 32
	ViTSize   = 224
	Classes   = 26
	// EmbeddingSize is the width of the penultimate layer, returned as the embedding.
	EmbeddingSize = 128
)

// convSpec is a 3×3 convolution (padding 1) followed by ReLU and 2×2 max pooling.
type convSpec struct{ in, out, size int }

var convSpecs = [...]convSpec{
	{1, 16, InputSize},
	{16, 32, InputSize / 2},
	{32, 64, InputSize / 4},
}

const (
	flatSize = 64 * (InputSize / 8) * (InputSize / 8) // after the third pooling
	kernel   = 9
)

// Net holds the parameters. Every layer's weights are row-major: conv[f][c·9 + ky·3 + kx],
// fc[out][in]; biases separate.
type Net struct {
	ConvW [len(convSpecs)][]float32
	ConvB [len(convSpecs)][]float32
	FC1W  []float32 // EmbeddingSize × flatSize
	FC1B  []float32
	FC2W  []float32 // Classes × EmbeddingSize
	FC2B  []float32
}

// params lists every parameter slice in a fixed order (the file order of weights.bin).
func (n *Net) params() [][]float32 {
	var out [][]float32
	for i := range convSpecs {
		out = append(out, n.ConvW[i], n.ConvB[i])
	}
	return append(out, n.FC1W, n.FC1B, n.FC2W, n.FC2B)
}

// newNet allocates a zero network.
func newNet() *Net {
	n := &Net{}
	for i, s := range convSpecs {
		n.ConvW[i] = make([]float32, s.out*s.in*kernel)
		n.ConvB[i] = make([]float32, s.out)
	}
	n.FC1W = make([]float32, EmbeddingSize*flatSize)
	n.FC1B = make([]float32, EmbeddingSize)
	n.FC2W = make([]float32, Classes*EmbeddingSize)
	n.FC2B = make([]float32, Classes)
	return n
}

// NewRandomNet is a freshly initialised network (He-normal weights, zero biases).
func NewRandomNet(rng *rand.Rand) *Net {
	n := newNet()
	he := func(w []float32, fanIn int) {
		sd := math.Sqrt(2 / float64(fanIn))
		for i := range w {
			w[i] = float32(rng.NormFloat64() * sd)
		}
	}
	for i, s := range convSpecs {
		he(n.ConvW[i], s.in*kernel)
	}
	he(n.FC1W, flatSize)
	he(n.FC2W, EmbeddingSize)
	return n
}

// ParamCount is the number of parameters.
func (n *Net) ParamCount() int {
	c := 0
	for _, p := range n.params() {
		c += len(p)
	}
	return c
}

// activations of one forward pass, kept for the backward pass.
type activations struct {
	input []float32                 // InputSize²
	col   [len(convSpecs)][]float32 // im2col of each conv input: (in·9) × size²
	conv  [len(convSpecs)][]float32 // conv output after ReLU: out × size²
	pool  [len(convSpecs)][]float32 // pooled: out × (size/2)²
	arg   [len(convSpecs)][]int32   // index into conv of each pooled maximum
	hid   []float32                 // fc1 after ReLU
	logit []float32
	prob  []float32
}

func newActivations() *activations {
	a := &activations{
		input: make([]float32, InputSize*InputSize),
		hid:   make([]float32, EmbeddingSize),
		logit: make([]float32, Classes),
		prob:  make([]float32, Classes),
	}
	for i, s := range convSpecs {
		a.col[i] = make([]float32, s.in*kernel*s.size*s.size)
		a.conv[i] = make([]float32, s.out*s.size*s.size)
		half := s.size / 2
		a.pool[i] = make([]float32, s.out*half*half)
		a.arg[i] = make([]int32, s.out*half*half)
	}
	return a
}

// im2col lays out the 3×3 neighbourhoods (zero padding) of a channels × size × size volume:
// row c·9 + ky·3 + kx holds, for every output position, the input pixel at offset (ky−1, kx−1).
func im2col(in []float32, channels, size int, col []float32) {
	n := size * size
	for c := 0; c < channels; c++ {
		src := in[c*n : (c+1)*n]
		for ky := 0; ky < 3; ky++ {
			for kx := 0; kx < 3; kx++ {
				dst := col[(c*kernel+ky*3+kx)*n : (c*kernel+ky*3+kx+1)*n]
				dy, dx := ky-1, kx-1
				for y := 0; y < size; y++ {
					row := dst[y*size : (y+1)*size]
					sy := y + dy
					if sy < 0 || sy >= size {
						clear(row)
						continue
					}
					srow := src[sy*size : (sy+1)*size]
					switch dx {
					case 0:
						copy(row, srow)
					case -1:
						row[0] = 0
						copy(row[1:], srow[:size-1])
					case 1:
						copy(row[:size-1], srow[1:])
						row[size-1] = 0
					}
				}
			}
		}
	}
}

// col2imAdd is the adjoint of im2col: it adds every column entry back onto its input pixel.
func col2imAdd(col []float32, channels, size int, out []float32) {
	n := size * size
	clear(out[:channels*n])
	for c := 0; c < channels; c++ {
		dst := out[c*n : (c+1)*n]
		for ky := 0; ky < 3; ky++ {
			for kx := 0; kx < 3; kx++ {
				src := col[(c*kernel+ky*3+kx)*n : (c*kernel+ky*3+kx+1)*n]
				dy, dx := ky-1, kx-1
				for y := 0; y < size; y++ {
					sy := y + dy
					if sy < 0 || sy >= size {
						continue
					}
					row := src[y*size : (y+1)*size]
					drow := dst[sy*size : (sy+1)*size]
					switch dx {
					case 0:
						axpy(1, row, drow)
					case -1:
						axpy(1, row[1:], drow[:size-1])
					case 1:
						axpy(1, row[:size-1], drow[1:])
					}
				}
			}
		}
	}
}

func axpy(alpha float32, x, y []float32) {
	blas32.Axpy(alpha, blas32.Vector{N: len(x), Inc: 1, Data: x}, blas32.Vector{N: len(x), Inc: 1, Data: y})
}

func dot(x, y []float32) float32 {
	return blas32.Dot(blas32.Vector{N: len(x), Inc: 1, Data: x}, blas32.Vector{N: len(x), Inc: 1, Data: y})
}

// forward runs the network on a.input and fills every activation.
func (n *Net) forward(a *activations) {
	in := a.input
	for l, s := range convSpecs {
		im2col(in, s.in, s.size, a.col[l])
		np := s.size * s.size
		k := s.in * kernel
		w, b, col, out := n.ConvW[l], n.ConvB[l], a.col[l], a.conv[l]
		for f := 0; f < s.out; f++ {
			o := out[f*np : (f+1)*np]
			bias := b[f]
			for i := range o {
				o[i] = bias
			}
			wf := w[f*k : (f+1)*k]
			for j, wv := range wf {
				if wv != 0 {
					axpy(wv, col[j*np:(j+1)*np], o)
				}
			}
			for i, v := range o {
				if v < 0 {
					o[i] = 0
				}
			}
		}
		maxPool(out, s.out, s.size, a.pool[l], a.arg[l])
		in = a.pool[l]
	}
	for o := 0; o < EmbeddingSize; o++ {
		v := n.FC1B[o] + dot(n.FC1W[o*flatSize:(o+1)*flatSize], in)
		if v < 0 {
			v = 0
		}
		a.hid[o] = v
	}
	for o := 0; o < Classes; o++ {
		a.logit[o] = n.FC2B[o] + dot(n.FC2W[o*EmbeddingSize:(o+1)*EmbeddingSize], a.hid)
	}
	softmax(a.logit, a.prob)
}

func maxPool(in []float32, channels, size int, out []float32, arg []int32) {
	half := size / 2
	for c := 0; c < channels; c++ {
		base := c * size * size
		for y := 0; y < half; y++ {
			for x := 0; x < half; x++ {
				i := base + 2*y*size + 2*x
				best, bi := in[i], i
				for _, j := range [3]int{i + 1, i + size, i + size + 1} {
					if in[j] > best {
						best, bi = in[j], j
					}
				}
				o := c*half*half + y*half + x
				out[o], arg[o] = best, int32(bi)
			}
		}
	}
}

func softmax(logit, prob []float32) {
	m := logit[0]
	for _, v := range logit[1:] {
		m = max(m, v)
	}
	sum := 0.0
	for i, v := range logit {
		e := math.Exp(float64(v - m))
		prob[i] = float32(e)
		sum += e
	}
	for i := range prob {
		prob[i] = float32(float64(prob[i]) / sum)
	}
}

// grads has the shape of Net; backward adds into it.
type grads = Net

// backward adds to g the gradient of the cross-entropy loss −log p[label] for the pass in a,
// using scratch buffers from s, and returns the loss.
func (n *Net) backward(a *activations, label int, g *grads, s *scratch) float32 {
	loss := -float32(math.Log(math.Max(float64(a.prob[label]), 1e-30)))
	dlogit := s.dlogit
	copy(dlogit, a.prob)
	dlogit[label]--
	dhid := s.dhid
	clear(dhid)
	for o := 0; o < Classes; o++ {
		d := dlogit[o]
		g.FC2B[o] += d
		axpy(d, a.hid, g.FC2W[o*EmbeddingSize:(o+1)*EmbeddingSize])
		axpy(d, n.FC2W[o*EmbeddingSize:(o+1)*EmbeddingSize], dhid)
	}
	last := len(convSpecs) - 1
	flat := a.pool[last]
	dflat := s.dpool[last]
	clear(dflat)
	for o := 0; o < EmbeddingSize; o++ {
		if a.hid[o] <= 0 {
			continue
		}
		d := dhid[o]
		g.FC1B[o] += d
		axpy(d, flat, g.FC1W[o*flatSize:(o+1)*flatSize])
		axpy(d, n.FC1W[o*flatSize:(o+1)*flatSize], dflat)
	}
	for l := last; l >= 0; l-- {
		sp := convSpecs[l]
		np := sp.size * sp.size
		k := sp.in * kernel
		// Unpool, then through the ReLU (a zero output passed no gradient).
		dconv := s.dconv[l]
		clear(dconv)
		for i, j := range a.arg[l] {
			if a.conv[l][j] > 0 {
				dconv[j] += s.dpool[l][i]
			}
		}
		col := a.col[l]
		var dcol []float32
		if l > 0 {
			dcol = s.dcol[l]
			clear(dcol)
		}
		for f := 0; f < sp.out; f++ {
			d := dconv[f*np : (f+1)*np]
			sum := float32(0)
			for _, v := range d {
				sum += v
			}
			g.ConvB[l][f] += sum
			gw := g.ConvW[l][f*k : (f+1)*k]
			wf := n.ConvW[l][f*k : (f+1)*k]
			for j := 0; j < k; j++ {
				cj := col[j*np : (j+1)*np]
				gw[j] += dot(d, cj)
				if dcol != nil {
					axpy(wf[j], d, dcol[j*np:(j+1)*np])
				}
			}
		}
		if l > 0 {
			col2imAdd(dcol, sp.in, sp.size, s.dpool[l-1])
		}
	}
	return loss
}

// scratch holds the backward pass's temporaries.
type scratch struct {
	dlogit, dhid []float32
	dpool        [len(convSpecs)][]float32
	dconv        [len(convSpecs)][]float32
	dcol         [len(convSpecs)][]float32
}

func newScratch() *scratch {
	s := &scratch{dlogit: make([]float32, Classes), dhid: make([]float32, EmbeddingSize)}
	for i, sp := range convSpecs {
		half := sp.size / 2
		s.dpool[i] = make([]float32, sp.out*half*half)
		s.dconv[i] = make([]float32, sp.out*sp.size*sp.size)
		s.dcol[i] = make([]float32, sp.in*kernel*sp.size*sp.size)
	}
	return s
}

package vit

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"sync"
)

type linear struct {
	w, b    []float32 // w is [out][in], PyTorch's layout
	in, out int
}

type layerNorm struct{ w, b []float32 }

type encoderLayer struct {
	before, after    layerNorm
	q, k, v, o       linear
	intermediate, fc linear
}

// Model is a loaded ViTForImageClassification with its image processor. It is safe for
// concurrent use.
type Model struct {
	Config       *Config
	Preprocessor *Preprocessor
	// Workers is the number of goroutines one forward pass uses; 0 means GOMAXPROCS.
	Workers int

	patch  linear // the stride-p convolution as a linear map of a 3·p·p patch
	cls    []float32
	pos    []float32
	layers []encoderLayer
	final  layerNorm
	head   linear
	grid   int // patches per side
}

// Load reads a model folder: config.json, preprocessor_config.json and model.safetensors (at
// most MaxSafetensorsBytes), checking every tensor's shape against the config.
func Load(dir string) (*Model, error) {
	cfg, err := LoadConfig(dir)
	if err != nil {
		return nil, err
	}
	pre, err := LoadPreprocessor(dir)
	if err != nil {
		return nil, err
	}
	if pre.Size.Width != cfg.ImageSize || pre.Size.Height != cfg.ImageSize {
		return nil, fmt.Errorf("%s: the processor resizes to %d×%d but the model takes %d×%d", dir, pre.Size.Width, pre.Size.Height, cfg.ImageSize, cfg.ImageSize)
	}
	path := filepath.Join(dir, WeightsFile)
	ts, err := ReadSafetensors(path, 0)
	if err != nil {
		return nil, err
	}
	m, err := newModel(cfg, pre, ts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

func newModel(cfg *Config, pre *Preprocessor, ts map[string]*Tensor) (*Model, error) {
	H, I, p := cfg.HiddenSize, cfg.IntermediateSize, cfg.PatchSize
	m := &Model{Config: cfg, Preprocessor: pre, grid: cfg.ImageSize / p}
	var errs []error
	get := func(name string, shape ...int) []float32 {
		t, ok := ts[name]
		if !ok {
			errs = append(errs, fmt.Errorf("no tensor %s", name))
			return make([]float32, prod(shape))
		}
		if fmt.Sprint(t.Shape) != fmt.Sprint(shape) {
			errs = append(errs, fmt.Errorf("tensor %s has shape %v, want %v", name, t.Shape, shape))
			return make([]float32, prod(shape))
		}
		return t.Data
	}
	lin := func(name string, out, in int) linear {
		return linear{w: get(name+".weight", out, in), b: get(name+".bias", out), in: in, out: out}
	}
	ln := func(name string) layerNorm { return layerNorm{w: get(name+".weight", H), b: get(name+".bias", H)} }
	m.patch = linear{w: get("vit.embeddings.patch_embeddings.projection.weight", H, 3, p, p),
		b: get("vit.embeddings.patch_embeddings.projection.bias", H), in: 3 * p * p, out: H}
	m.cls = get("vit.embeddings.cls_token", 1, 1, H)
	m.pos = get("vit.embeddings.position_embeddings", 1, m.grid*m.grid+1, H)
	for l := 0; l < cfg.NumHiddenLayers; l++ {
		pre := fmt.Sprintf("vit.encoder.layer.%d.", l)
		m.layers = append(m.layers, encoderLayer{
			before:       ln(pre + "layernorm_before"),
			after:        ln(pre + "layernorm_after"),
			q:            lin(pre+"attention.attention.query", H, H),
			k:            lin(pre+"attention.attention.key", H, H),
			v:            lin(pre+"attention.attention.value", H, H),
			o:            lin(pre+"attention.output.dense", H, H),
			intermediate: lin(pre+"intermediate.dense", I, H),
			fc:           lin(pre+"output.dense", H, I),
		})
	}
	m.final = ln("vit.layernorm")
	m.head = lin("classifier", len(cfg.labels), H)
	if len(errs) > 0 {
		if len(errs) > 3 {
			return nil, fmt.Errorf("%v, %v, %v and %d more", errs[0], errs[1], errs[2], len(errs)-3)
		}
		return nil, fmt.Errorf("%v", errs)
	}
	return m, nil
}

func prod(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// Output is one image's result.
type Output struct {
	Logits []float64 // in id2label order
	// CLS is the [CLS] vector of the last encoder layer, before the final LayerNorm.
	CLS []float64
}

func (m *Model) workers() int {
	if m.Workers > 0 {
		return m.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Forward runs the network on pixel values (3 × size × size, channels first).
func (m *Model) Forward(pix []float32) (*Output, error) {
	S, p, H := m.Config.ImageSize, m.Config.PatchSize, m.Config.HiddenSize
	if len(pix) != 3*S*S {
		return nil, fmt.Errorf("pixel values: %d values, want 3×%d×%d", len(pix), S, S)
	}
	workers := m.workers()
	g := m.grid
	n := g*g + 1
	// Patches in the convolution's weight order (channel, row, column), row-major over the grid.
	patches := make([]float32, g*g*3*p*p)
	for py := 0; py < g; py++ {
		for px := 0; px < g; px++ {
			dst := patches[(py*g+px)*3*p*p:]
			for c := 0; c < 3; c++ {
				for ky := 0; ky < p; ky++ {
					row := pix[c*S*S+(py*p+ky)*S+px*p:]
					copy(dst[(c*p+ky)*p:(c*p+ky+1)*p], row[:p])
				}
			}
		}
	}
	x := make([]float32, n*H)
	m.patch.apply(patches, g*g, x[H:], workers)
	for j := 0; j < H; j++ {
		x[j] = m.cls[j] + m.pos[j]
	}
	for i := H; i < n*H; i++ {
		x[i] += m.pos[i]
	}
	h := make([]float32, n*H)
	q, k, v, ctx := make([]float32, n*H), make([]float32, n*H), make([]float32, n*H), make([]float32, n*H)
	inter := make([]float32, n*m.Config.IntermediateSize)
	eps := m.Config.LayerNormEps
	for _, l := range m.layers {
		l.before.apply(x, h, eps)
		l.q.apply(h, n, q, workers)
		l.k.apply(h, n, k, workers)
		l.v.apply(h, n, v, workers)
		m.attention(q, k, v, ctx, n, workers)
		l.o.apply(ctx, n, h, workers)
		for i := range x {
			x[i] += h[i]
		}
		l.after.apply(x, h, eps)
		l.intermediate.apply(h, n, inter, workers)
		parallelFor(len(inter), workers, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				inter[i] = gelu(inter[i])
			}
		})
		l.fc.apply(inter, n, h, workers)
		for i := range x {
			x[i] += h[i]
		}
	}
	out := &Output{CLS: make([]float64, H), Logits: make([]float64, m.head.out)}
	for j := 0; j < H; j++ {
		out.CLS[j] = float64(x[j])
	}
	m.final.apply(x[:H], h[:H], eps)
	logits := make([]float32, m.head.out)
	m.head.apply(h[:H], 1, logits, 1)
	for j, l := range logits {
		out.Logits[j] = float64(l)
	}
	return out, nil
}

// attention is multi-head self-attention: per head, softmax(q kᵀ / √d) v.
func (m *Model) attention(q, k, v, ctx []float32, n, workers int) {
	H, heads := m.Config.HiddenSize, m.Config.NumAttentionHeads
	d := H / heads
	scale := float32(math.Sqrt(float64(d)))
	parallelFor(heads*n, workers, func(lo, hi int) {
		s := make([]float32, n)
		for t := lo; t < hi; t++ {
			hd, i := t/n, t%n
			qi := q[i*H+hd*d : i*H+hd*d+d]
			mx := float32(math.Inf(-1))
			for j := 0; j < n; j++ {
				s[j] = dot(qi, k[j*H+hd*d:j*H+hd*d+d]) / scale
				mx = max(mx, s[j])
			}
			var sum float32
			for j := range s {
				s[j] = float32(math.Exp(float64(s[j] - mx)))
				sum += s[j]
			}
			out := ctx[i*H+hd*d : i*H+hd*d+d]
			clear(out)
			for j := 0; j < n; j++ {
				pj := s[j] / sum
				vj := v[j*H+hd*d : j*H+hd*d+d]
				for c := range out {
					out[c] += float32(pj * vj[c])
				}
			}
		}
	})
}

func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s float32
	for i, x := range a {
		s += float32(x * b[i]) // the conversion forbids fusing into an FMA
	}
	return s
}

func gelu(x float32) float32 {
	v := float64(x)
	return float32(0.5 * v * (1 + math.Erf(v/math.Sqrt2)))
}

// apply normalises each row of x (length len(w)) into y: mean and biased variance in float64.
func (l layerNorm) apply(x, y []float32, eps float64) {
	H := len(l.w)
	for r := 0; r+H <= len(x); r += H {
		row := x[r : r+H]
		var mean float64
		for _, v := range row {
			mean += float64(v)
		}
		mean /= float64(H)
		var vr float64
		for _, v := range row {
			d := float64(v) - mean
			vr += d * d
		}
		vr /= float64(H)
		inv := 1 / math.Sqrt(vr+eps)
		out := y[r : r+H]
		for j, v := range row {
			out[j] = float32((float64(v)-mean)*inv)*l.w[j] + l.b[j]
		}
	}
}

// apply computes y = x Wᵀ + b for n rows of x, the rows split over workers and the outputs
// taken in tiles of W small enough to stay in cache; the kernel computes two rows by four
// outputs at a time.
func (l *linear) apply(x []float32, n int, y []float32, workers int) {
	in, out := l.in, l.out
	const tile = 32
	parallelFor(n, workers, func(lo, hi int) {
		for j0 := 0; j0 < out; j0 += tile {
			j1 := min(j0+tile, out)
			i := lo
			for ; i+2 <= hi; i += 2 {
				x0 := x[i*in : (i+1)*in]
				x1 := x[(i+1)*in : (i+2)*in]
				x1 = x1[:len(x0)]
				y0 := y[i*out : (i+1)*out]
				y1 := y[(i+1)*out : (i+2)*out]
				j := j0
				for ; j+4 <= j1; j += 4 {
					w0 := l.w[j*in : (j+1)*in]
					w1 := l.w[(j+1)*in : (j+2)*in]
					w2 := l.w[(j+2)*in : (j+3)*in]
					w3 := l.w[(j+3)*in : (j+4)*in]
					w0, w1, w2, w3 = w0[:len(x0)], w1[:len(x0)], w2[:len(x0)], w3[:len(x0)]
					var s00, s01, s02, s03, s10, s11, s12, s13 float32
					for k, a := range x0 {
						c := x1[k]
						// The conversions forbid fusing into FMAs (GOAMD64=v3), so every build
						// gives the same bits.
						s00 += float32(a * w0[k])
						s01 += float32(a * w1[k])
						s02 += float32(a * w2[k])
						s03 += float32(a * w3[k])
						s10 += float32(c * w0[k])
						s11 += float32(c * w1[k])
						s12 += float32(c * w2[k])
						s13 += float32(c * w3[k])
					}
					y0[j], y0[j+1], y0[j+2], y0[j+3] = s00+l.b[j], s01+l.b[j+1], s02+l.b[j+2], s03+l.b[j+3]
					y1[j], y1[j+1], y1[j+2], y1[j+3] = s10+l.b[j], s11+l.b[j+1], s12+l.b[j+2], s13+l.b[j+3]
				}
				for ; j < j1; j++ {
					y0[j] = dot(x0, l.w[j*in:(j+1)*in]) + l.b[j]
					y1[j] = dot(x1, l.w[j*in:(j+1)*in]) + l.b[j]
				}
			}
			for ; i < hi; i++ {
				xi := x[i*in : (i+1)*in]
				yi := y[i*out : (i+1)*out]
				for j := j0; j < j1; j++ {
					yi[j] = dot(xi, l.w[j*in:(j+1)*in]) + l.b[j]
				}
			}
		}
	})
}

// parallelFor calls f on contiguous parts of 0..n, at most workers at a time.
func parallelFor(n, workers int, f func(lo, hi int)) {
	if workers <= 1 || n < 2 {
		f(0, n)
		return
	}
	parts := min(workers, n)
	// Not errgroup: the parts return no error and cannot be cancelled, and there is one
	// goroutine per part, so there is nothing to carry, cancel or limit.
	var wg sync.WaitGroup
	for p := 0; p < parts; p++ {
		lo, hi := p*n/parts, (p+1)*n/parts
		wg.Go(func() { f(lo, hi) })
	}
	wg.Wait()
}

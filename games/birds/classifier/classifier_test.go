package classifier

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"pcgwb/games/birds"
	"pcgwb/internal/testshared"
)

// lossAt is the cross-entropy of one input under the network.
func lossAt(n *Net, in []float32, label int) float64 {
	a := newActivations()
	copy(a.input, in)
	n.forward(a)
	return -math.Log(float64(a.prob[label]))
}

// TestGradientMatchesFiniteDifferences checks the backward pass of every layer against central
// differences of the loss, on a random network and a random (not binary) input.
func TestGradientMatchesFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	n := NewRandomNet(rng)
	// Small non-zero biases so that no unit sits exactly at a ReLU kink.
	for _, p := range n.params() {
		if len(p) <= EmbeddingSize {
			for i := range p {
				p[i] = float32(rng.NormFloat64() * 0.05)
			}
		}
	}
	in := make([]float32, InputSize*InputSize)
	for i := range in {
		in[i] = float32(rng.Float64()*2 - 1)
	}
	const label = 5
	a := newActivations()
	copy(a.input, in)
	n.forward(a)
	g := newNet()
	n.backward(a, label, g, newScratch())
	names := []string{"conv1 W", "conv1 b", "conv2 W", "conv2 b", "conv3 W", "conv3 b", "fc1 W", "fc1 b", "fc2 W", "fc2 b"}
	params, gp := n.params(), g.params()
	checked, bad := 0, 0
	for i, p := range params {
		// The entries with the largest gradients, where a finite difference is meaningful in
		// single precision, plus a few random ones.
		idx := []int{}
		for k := 0; k < 6; k++ {
			idx = append(idx, rng.IntN(len(p)))
		}
		best := 0
		for j := range p {
			if math.Abs(float64(gp[i][j])) > math.Abs(float64(gp[i][best])) {
				best = j
			}
		}
		idx = append(idx, best)
		for _, j := range idx {
			const h = 1e-3
			orig := p[j]
			p[j] = orig + h
			up := lossAt(n, in, label)
			p[j] = orig - h
			down := lossAt(n, in, label)
			p[j] = orig
			numeric := (up - down) / (2 * h)
			analytic := float64(gp[i][j])
			checked++
			if math.Abs(numeric-analytic) > 2e-3+0.05*math.Abs(numeric) {
				bad++
				t.Logf("%s[%d]: analytic %.6g, numeric %.6g", names[i], j, analytic, numeric)
			}
		}
	}
	// A step can cross a ReLU or max-pool switch; allow one such coincidence.
	if bad > 1 {
		t.Fatalf("%d of %d gradient entries disagree with finite differences", bad, checked)
	}
}

// TestTrainingReducesLoss trains a fresh network for a few steps on skeleton block letters
// (no fonts or physics needed) and expects the loss on that batch to fall.
func TestTrainingReducesLoss(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	var set LabelledInputs
	for l := 0; l < Classes; l++ {
		for k := 0; k < 1; k++ {
			w, h := gridDims(l, rng)
			g, _ := rasterSkeleton(skeletons[l][0], w, h, nil, 0, rng)
			b := newBitmap(w, h)
			for r := range g {
				for c, on := range g[r] {
					b.pix[(h-1-r)*w+c] = on
				}
			}
			in := make([]float32, InputSize*InputSize)
			if !frameInput(b, 0, 0, 0, in) {
				t.Fatal("empty skeleton")
			}
			set.Inputs, set.Labels = append(set.Inputs, in), append(set.Labels, l)
		}
	}
	n := NewRandomNet(rand.New(rand.NewPCG(1, 1)))
	meanLoss := func() float64 {
		s := 0.0
		for i, in := range set.Inputs {
			s += lossAt(n, in, set.Labels[i])
		}
		return s / float64(len(set.Inputs))
	}
	before := meanLoss()
	g, a, s := newNet(), newActivations(), newScratch()
	for step := 0; step < 12; step++ {
		for _, p := range g.params() {
			clear(p)
		}
		for i, in := range set.Inputs {
			copy(a.input, in)
			n.forward(a)
			n.backward(a, set.Labels[i], g, s)
		}
		params, gp := n.params(), g.params()
		for i := range params {
			for j := range params[i] {
				params[i][j] -= 0.02 * gp[i][j] / float32(len(set.Inputs))
			}
		}
	}
	after := meanLoss()
	t.Logf("mean loss %.3f → %.3f after 12 steps", before, after)
	if !(after < before*0.7) {
		t.Fatalf("loss did not fall enough: %.3f → %.3f", before, after)
	}
}

func TestHalfPrecisionRoundTrip(t *testing.T) {
	for _, v := range []float32{0, 1, -1, 0.1, -2.5e-3, 65504, 1e-7, 3.14159, 6.1e-5, -0.33333} {
		got := fromHalf(toHalf(v))
		if v == 0 && got != 0 || v != 0 && math.Abs(float64(got-v)) > math.Abs(float64(v))*1e-3+6e-8 {
			t.Errorf("%g → %g", v, got)
		}
	}
	if fromHalf(toHalf(1e6)) != float32(math.Inf(1)) {
		t.Error("overflow should give +Inf")
	}
	n := NewRandomNet(rand.New(rand.NewPCG(2, 2)))
	data, _ := n.MarshalBinary()
	back, err := UnmarshalNet(data)
	if err != nil {
		t.Fatal(err)
	}
	q := n.Quantized()
	for i, p := range q.params() {
		for j, v := range p {
			if back.params()[i][j] != v {
				t.Fatalf("tensor %d[%d]: %g != %g", i, j, back.params()[i][j], v)
			}
		}
	}
	if _, err := UnmarshalNet(data[:len(data)-1]); err == nil {
		t.Error("truncated weights accepted")
	}
	if _, err := UnmarshalNet(append(data, 0)); err == nil {
		t.Error("trailing data accepted")
	}
}

// TestPillowResize checks the resize against values worked out by hand from Pillow's
// algorithm: the all-white image stays white, a black image stays black, and a single black
// column spreads over the neighbouring output columns with Pillow's triangle weights.
func TestPillowResize(t *testing.T) {
	white := bytes.Repeat([]byte{255}, 1024*1024)
	for _, v := range ResizeForViT(white, 1024, 1024) {
		if v != 255 {
			t.Fatalf("white → %d", v)
		}
	}
	black := make([]byte, 1024*1024)
	for _, v := range ResizeForViT(black, 1024, 1024) {
		if v != 0 {
			t.Fatalf("black → %d", v)
		}
	}
	// The fast white path must equal the plain computation.
	rng := rand.New(rand.NewPCG(9, 9))
	img := bytes.Repeat([]byte{255}, 300*200)
	for k := 0; k < 500; k++ {
		img[rng.IntN(len(img))] = uint8(rng.IntN(256))
	}
	got := ResizeForViT(img, 300, 200)
	want := slowPillowResize(img, 300, 200)
	if !bytes.Equal(got, want) {
		t.Fatal("shortcut differs from the plain resize")
	}
	// Coefficients sum to 1 in fixed point (within rounding) for every output pixel.
	c := pillowBilinearCoeffs(1024, ViTSize)
	for xx, k := range c.w {
		sum := int32(0)
		for _, v := range k {
			sum += v
		}
		if d := sum - 1<<pillowPrecisionBits; d < -int32(len(k)) || d > int32(len(k)) {
			t.Fatalf("output %d: coefficients sum to %d", xx, sum)
		}
	}
	// Output pixel 0 covers input pixels 0..(0.5+1)·1024/224 with triangle weights centred at 2.29.
	if c.start[0] != 0 || len(c.w[0]) != 7 {
		t.Fatalf("pixel 0 window: start %d, %d taps", c.start[0], len(c.w[0]))
	}
}

func slowPillowResize(pix []uint8, w, h int) []uint8 {
	cx, cy := pillowBilinearCoeffs(w, ViTSize), pillowBilinearCoeffs(h, ViTSize)
	mid := make([]uint8, ViTSize*h)
	for y := 0; y < h; y++ {
		for xx := 0; xx < ViTSize; xx++ {
			ss := int64(1) << (pillowPrecisionBits - 1)
			for i, k := range cx.w[xx] {
				ss += int64(pix[y*w+cx.start[xx]+i]) * int64(k)
			}
			mid[y*ViTSize+xx] = clip8(ss)
		}
	}
	out := make([]uint8, ViTSize*ViTSize)
	for yy := 0; yy < ViTSize; yy++ {
		for xx := 0; xx < ViTSize; xx++ {
			ss := int64(1) << (pillowPrecisionBits - 1)
			for i, k := range cy.w[yy] {
				ss += int64(mid[(cy.start[yy]+i)*ViTSize+xx]) * int64(k)
			}
			out[yy*ViTSize+xx] = clip8(ss)
		}
	}
	return out
}

func renderProgram(t testing.TB, prog string) *birds.Mask {
	t.Helper()
	s, err := birds.Convert(prog)
	if err != nil {
		t.Fatal(err)
	}
	res, err := birds.Simulate(s.Level(), birds.DefaultSimConfig())
	if err != nil {
		t.Fatal(err)
	}
	return birds.Render(res)
}

// Our own block letters, in the style of competition answers.
var testPrograms = map[byte]string{
	'I': "drop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n",
	'L': "drop_block('b13', 3)\ndrop_block('b13', 3)\ndrop_block('b13', 3)\ndrop_block('b31', 5)\ndrop_block('b31', 8)\n",
	'T': "drop_block('b13', 9)\ndrop_block('b13', 9)\ndrop_block('b31', 9)\n",
	'U': "drop_block('b31', 6)\ndrop_block('b31', 9)\ndrop_block('b13', 5)\ndrop_block('b13', 10)\ndrop_block('b13', 5)\ndrop_block('b13', 10)\n",
	'H': "drop_block('b13', 4)\ndrop_block('b13', 6)\ndrop_block('b31', 5)\ndrop_block('b13', 4)\ndrop_block('b13', 6)\n",
}

// TestEmbeddedClassifier loads the shipped weights and checks the interface: probabilities sum
// to 1, the embedding is there, the name says proxy, PNG and mask paths agree, and a few clear
// block letters of our own are recognised.
func TestEmbeddedClassifier(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if c.Meta() == nil || c.Meta().Seed == 0 {
		t.Fatal("no training metadata next to the weights")
	}
	if name := c.Name(); !bytes.Contains([]byte(name), []byte(ProxyLabel)) {
		t.Fatalf("name %q does not say it is a proxy", name)
	}
	if !bytes.Contains([]byte(c.Name()), []byte(ProxyError)) {
		t.Fatalf("name %q does not give the proxy's measured error", c.Name())
	}
	for letter, prog := range testPrograms {
		m := renderProgram(t, prog)
		fromMask := c.ClassifyMask(m)
		var buf bytes.Buffer
		if err := m.WriteRGBAPNG(&buf); err != nil {
			t.Fatal(err)
		}
		img, err := birds.DecodeImage(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		fromPNG, err := c.Classify(context.Background(), img)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		best := 0
		for i, p := range fromPNG.Probabilities {
			sum += p
			if p != fromMask.Probabilities[i] {
				t.Fatalf("%c: PNG and mask give different probabilities", letter)
			}
			if p > fromPNG.Probabilities[best] {
				best = i
			}
		}
		if math.Abs(sum-1) > 1e-5 || len(fromPNG.Embedding) != EmbeddingSize {
			t.Fatalf("%c: probabilities sum to %v, embedding %d", letter, sum, len(fromPNG.Embedding))
		}
		t.Logf("%c: top %c (p=%.3f), p(%c)=%.3f", letter, 'A'+best, fromPNG.Probabilities[best], letter, fromPNG.Similarity(letter))
		if byte('A'+best) != letter {
			t.Errorf("%c recognised as %c", letter, 'A'+best)
		}
	}
	if _, err := birds.DecodeImage([]byte("not a png")); err == nil {
		t.Error("garbage accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Classify(ctx, renderProgram(t, testPrograms['L']).Image()); err == nil {
		t.Error("cancelled context ignored")
	}
}

// decodeGray is a PNG file as the classifier reads it: decoded (birds.DecodeImage), then grey.
func decodeGray(tb testing.TB, data []byte) ([]uint8, int, int, error) {
	tb.Helper()
	img, err := birds.DecodeImage(data)
	if err != nil {
		return nil, 0, 0, err
	}
	return grayPixels(img)
}

// TestDecodeFormats: the mask's image and its RGBA and 1-bit PNGs give the same input.
func TestDecodeFormats(t *testing.T) {
	m := renderProgram(t, testPrograms['L'])
	var rgba, gray bytes.Buffer
	if err := m.WriteRGBAPNG(&rgba); err != nil {
		t.Fatal(err)
	}
	if err := m.WritePNG(&gray); err != nil {
		t.Fatal(err)
	}
	a, _, _, err := decodeGray(t, rgba.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	b, _, _, err := decodeGray(t, gray.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) || !bytes.Equal(a, m.Pix) {
		t.Fatal("PNG formats decode differently")
	}
	if direct, _, _, err := grayPixels(m.Image()); err != nil || !bytes.Equal(direct, m.Pix) {
		t.Fatalf("the mask's image reads differently (%v)", err)
	}
	// A transparent background reads as white.
	img := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	var buf bytes.Buffer
	png.Encode(&buf, img)
	pix, _, _, err := decodeGray(t, buf.Bytes())
	if err != nil || pix[0] != 255 {
		t.Fatalf("transparent pixel → %v (%v)", pix[0], err)
	}
}

// Floors for the archived Unity images of I, L and U. A third of those levels fell apart into
// scattered blocks or a single block, and many others show another letter (an I attempt that
// is a U, L attempts that are mirrored into J), so the intended letter is often not what the
// image shows (see docs/classifier.md). The shipped weights reach top-1 26/105 = 0.248, top-3
// 40/105 = 0.381 and a mean p(target) of 0.245; the floors sit a little under that.
const (
	unityAccuracyFloor = 0.22
	unityTop3Floor     = 0.35
	unityMeanProbFloor = 0.22
)

func TestArchivedUnityImages(t *testing.T) {
	// The archived 2023-03 Unity run, read in place (test data, never copied).
	dir := testshared.Dir(t, "science-birds", "unity-run-2023-03", "images")
	c := Default()
	rs, err := ClassifyArchive(context.Background(), c, dir)
	if err != nil {
		t.Fatal(err)
	}
	s := SummarizeArchive(rs)
	for _, l := range []byte("ILU") {
		v := s.PerLetter[l]
		t.Logf("%c: %d of %d", l, v[0], v[1])
	}
	for _, r := range rs {
		if r.Predicted != r.Letter {
			t.Logf("  %s read as %c (p(%c)=%.3f)", filepath.ToSlash(r.File), r.Predicted, r.Letter, r.TrueProb)
		}
	}
	top3 := float64(s.Top3) / float64(max(s.N, 1))
	t.Logf("archived Unity images: top-1 %d/%d = %.3f, top-3 %.3f, mean p(target) %.3f (%s)", s.Hits, s.N, s.Accuracy(), top3, s.MeanProb, ProxyLabel)
	if s.N != 105 {
		t.Errorf("%d images, want 105", s.N)
	}
	if s.Accuracy() < unityAccuracyFloor || top3 < unityTop3Floor || s.MeanProb < unityMeanProbFloor {
		t.Fatalf("below the floor: top-1 %.3f (floor %.2f), top-3 %.3f (floor %.2f), mean p %.3f (floor %.2f)",
			s.Accuracy(), unityAccuracyFloor, top3, unityTop3Floor, s.MeanProb, unityMeanProbFloor)
	}
}

// BenchmarkClassifyMask is the whole classification of an evaluator image: Pillow resize to
// 224, reduction, forward pass.
func BenchmarkClassifyMask(b *testing.B) {
	c := Default()
	m := renderProgram(b, testPrograms['U'])
	b.ReportAllocs()
	for b.Loop() {
		c.ClassifyMask(m)
	}
}

// BenchmarkForward is the network alone.
func BenchmarkForward(b *testing.B) {
	n := Default().net
	a := newActivations()
	m := renderProgram(b, testPrograms['U'])
	PrepareGray(m.Pix, birds.ImageSize, birds.ImageSize, a.input)
	b.ReportAllocs()
	for b.Loop() {
		n.forward(a)
	}
}

// BenchmarkClassifyPNG includes decoding the PNG: the evaluator's 8-bit RGBA file, and the
// 1-bit grey file the workbench's pipeline writes.
func BenchmarkClassifyPNG(b *testing.B) {
	c := Default()
	m := renderProgram(b, testPrograms['U'])
	var rgba, gray bytes.Buffer
	m.WriteRGBAPNG(&rgba)
	m.WritePNG(&gray)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		data []byte
	}{{"rgba", rgba.Bytes()}, {"1bit", gray.Bytes()}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				img, err := birds.DecodeImage(tc.data)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.Classify(ctx, img); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTrainSample is one training sample: synthesis, forward and backward.
func BenchmarkTrainSample(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 5))
	n := NewRandomNet(rng)
	g, a, s := newNet(), newActivations(), newScratch()
	var gr glyphRenderer
	for b.Loop() {
		w, h := gridDims(0, rng)
		sk, _ := rasterSkeleton(skeletons[0][0], w, h, nil, 0.1, rng)
		bm := newBitmap(w, h)
		for r := range sk {
			for c, on := range sk[r] {
				bm.pix[(h-1-r)*w+c] = on
			}
		}
		frameInput(bm, 0, 0, 0, a.input)
		n.forward(a)
		n.backward(a, 0, g, s)
	}
	_ = gr
}

func goFaces(t testing.TB) []*Face {
	t.Helper()
	var faces []*Face
	for name, data := range map[string][]byte{"Go-Regular.ttf": goregular.TTF, "Go-Bold.ttf": gobold.TTF} {
		f, err := ParseFace(data, name)
		if err != nil {
			t.Fatal(err)
		}
		faces = append(faces, f)
	}
	if faces[0].File > faces[1].File {
		faces[0], faces[1] = faces[1], faces[0]
	}
	return faces
}

// TestTrainingIsReproducible: a few steps with one worker and with three give identical
// weights, and a different seed gives different ones.
func TestTrainingIsReproducible(t *testing.T) {
	faces := goFaces(t)
	cfg := DefaultTrainConfig()
	cfg.Steps, cfg.Batch, cfg.Faces = 3, 8, faces
	var pool []*BlockSample
	rng := rand.New(rand.NewPCG(4, 4))
	var gr glyphRenderer
	for l := 0; l < Classes; l += 5 {
		if s, ok := gr.blockSample(l, nil, rng); ok {
			pool = append(pool, s)
		}
	}
	cfg.Blocks = pool
	train := func(workers int, seed uint64) []byte {
		c := cfg
		c.Workers, c.Seed = workers, seed
		n, err := Train(c)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := n.MarshalBinary()
		return data
	}
	a, b := train(1, 11), train(3, 11)
	if !bytes.Equal(a, b) {
		t.Fatal("the weights depend on the number of workers")
	}
	if bytes.Equal(a, train(2, 12)) {
		t.Fatal("the seed changes nothing")
	}
}

// TestFontSamples renders every kind of sample from a Go font: each has ink, is framed like
// the evaluator (the larger side spans the central 824/1024), and the clean render of a
// letter has the expected shape (an I is a tall bar in the middle columns).
func TestFontSamples(t *testing.T) {
	faces := goFaces(t)
	rng := rand.New(rand.NewPCG(6, 6))
	for _, kind := range []FontSampleKind{Clean, Smooth, Blocky, Handwritten} {
		for l := 0; l < Classes; l++ {
			in, ok := RenderFontSample(faces[l%2], l, kind, rng)
			if !ok {
				t.Fatalf("kind %d letter %c: no image", kind, 'A'+l)
			}
			x0, y0, x1, y1 := InputSize, InputSize, -1, -1
			for y := 0; y < InputSize; y++ {
				for x := 0; x < InputSize; x++ {
					if in[y*InputSize+x] < 0.9 {
						x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
					}
				}
			}
			// 824/1024 of 32 pixels is 25.75: the ink spans about 26 pixels on its larger side,
			// starting about 3 pixels in.
			if span := max(x1-x0, y1-y0) + 1; span < 23 || span > 29 {
				t.Errorf("kind %d letter %c: ink spans %d pixels", kind, 'A'+l, span)
			}
		}
	}
	in, _ := RenderFontSample(faces[0], 'I'-'A', Clean, nil)
	for y := 4; y < 28; y++ {
		if in[y*InputSize+16] > 0 || in[y*InputSize+4] < 0.99 {
			t.Fatalf("clean I: row %d is not a centred bar", y)
		}
	}
}

// The block pool depends on the seed, not on the number of workers.
func TestBlockPoolIsIndependentOfWorkers(t *testing.T) {
	a := GenerateBlockPool(5, 1, 3, 1, nil)
	if len(a) == 0 {
		t.Fatal("no block letter built")
	}
	if b := GenerateBlockPool(5, 1, 3, 4, nil); !reflect.DeepEqual(a, b) {
		t.Fatalf("1 worker built %d block letters, 4 workers %d, or different ones", len(a), len(b))
	}
	if c := GenerateBlockPool(6, 1, 3, 4, nil); reflect.DeepEqual(a, c) {
		t.Fatal("the seed changes nothing")
	}
}

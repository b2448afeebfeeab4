package birds

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"net/http"
	"os/exec"
	"strings"
	"time"
)

// Classification is a letter classifier's answer for one image: the softmax probabilities of
// A..Z (similarity and 2024 diversity) and, optionally, an embedding (the 2025 diversity uses
// the ViT's class token).
type Classification struct {
	Probabilities [26]float64
	Embedding     []float64
}

// Similarity is the probability of the target letter.
func (c *Classification) Similarity(letter byte) float64 {
	if letter < 'A' || letter > 'Z' {
		return 0
	}
	return c.Probabilities[letter-'A']
}

// Classifier turns an evaluator image (a Mask's Image, or a decoded PNG: DecodeImage) into
// letter probabilities.
type Classifier interface {
	Name() string
	Classify(ctx context.Context, img image.Image) (*Classification, error)
}

// ErrClassifierUnavailable means no letter classifier is configured: similarity (and with it
// diversity and every score that multiplies by similarity) does not exist and must be reported
// as missing, never as zero.
var ErrClassifierUnavailable = errors.New("letter classifier unavailable: similarity cannot be computed")

// Unavailable is the stand-in classifier used when none is configured. It classifies nothing.
type Unavailable struct{}

func (Unavailable) Name() string { return "unavailable" }

func (Unavailable) Classify(context.Context, image.Image) (*Classification, error) {
	return nil, ErrClassifierUnavailable
}

// MaxClassifierReply bounds what an external classifier may answer.
const MaxClassifierReply = 1 << 20

// ParseClassification reads a classifier reply: a JSON array of 26 probabilities (A..Z), or an
// object {"probabilities": [26 numbers], "embedding": [numbers]} (the key "softmax" is accepted
// for the probabilities), or an object mapping each letter "A".."Z" to its probability. The
// probabilities must be finite, in [0, 1] and sum to 1 within 1e-3.
func ParseClassification(data []byte) (*Classification, error) {
	data = bytes.TrimSpace(data)
	var probs []float64
	var emb []float64
	switch {
	case len(data) > 0 && data[0] == '[':
		if err := json.Unmarshal(data, &probs); err != nil {
			return nil, fmt.Errorf("classifier reply: %w", err)
		}
	case len(data) > 0 && data[0] == '{':
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(data, &obj); err != nil {
			return nil, fmt.Errorf("classifier reply: %w", err)
		}
		key := "probabilities"
		if _, ok := obj[key]; !ok {
			key = "softmax"
		}
		if raw, ok := obj[key]; ok {
			if err := json.Unmarshal(raw, &probs); err != nil {
				return nil, fmt.Errorf("classifier reply %q: %w", key, err)
			}
			if raw, ok := obj["embedding"]; ok {
				if err := json.Unmarshal(raw, &emb); err != nil {
					return nil, fmt.Errorf("classifier reply embedding: %w", err)
				}
			}
		} else {
			probs = make([]float64, 26)
			for i := 0; i < 26; i++ {
				raw, ok := obj[Letters[i:i+1]]
				if !ok {
					return nil, fmt.Errorf("classifier reply: no probability for %c", 'A'+i)
				}
				if err := json.Unmarshal(raw, &probs[i]); err != nil {
					return nil, fmt.Errorf("classifier reply %c: %w", 'A'+i, err)
				}
			}
		}
	default:
		return nil, errors.New("classifier reply is not JSON (want 26 probabilities)")
	}
	if len(probs) != 26 {
		return nil, fmt.Errorf("classifier reply has %d probabilities, want 26 (A..Z)", len(probs))
	}
	c := &Classification{Embedding: emb}
	sum := 0.0
	for i, p := range probs {
		if math.IsNaN(p) || p < 0 || p > 1 {
			return nil, fmt.Errorf("classifier probability %c = %v is not in [0, 1]", 'A'+i, p)
		}
		c.Probabilities[i] = p
		sum += p
	}
	if math.Abs(sum-1) > 1e-3 {
		return nil, fmt.Errorf("classifier probabilities sum to %v, not 1 (logits instead of a softmax?)", sum)
	}
	for _, v := range emb {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("classifier embedding has a non-finite value")
		}
	}
	return c, nil
}

// CommandClassifier runs an external program once per image: the PNG on standard input, the
// reply (see ParseClassification) on standard output. Use it to plug in the competition's ViT.
type CommandClassifier struct {
	Command []string      // program and arguments
	Timeout time.Duration // per image; 0 means one minute
}

func (c *CommandClassifier) Name() string { return "command: " + strings.Join(c.Command, " ") }

func (c *CommandClassifier) Classify(ctx context.Context, img image.Image) (*Classification, error) {
	if len(c.Command) == 0 {
		return nil, errors.New("classifier command is empty")
	}
	png, err := EncodePNG(img)
	if err != nil {
		return nil, err
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Command[0], c.Command[1:]...)
	cmd.Stdin = bytes.NewReader(png)
	var out, errOut limitedBuffer
	out.limit, errOut.limit = MaxClassifierReply, 4096
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errOut.String())
		if msg != "" {
			return nil, fmt.Errorf("classifier command: %w: %s", err, msg)
		}
		return nil, fmt.Errorf("classifier command: %w", err)
	}
	if out.overflow {
		return nil, errors.New("classifier command: reply too large")
	}
	return ParseClassification(out.Bytes())
}

type limitedBuffer struct {
	bytes.Buffer
	limit    int
	overflow bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - b.Len(); len(p) > room {
		b.overflow = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// HTTPClassifier posts each PNG (Content-Type image/png) to an endpoint and reads the reply
// described at ParseClassification.
type HTTPClassifier struct {
	URL    string
	Client *http.Client // nil: a client with a one-minute timeout
}

func (c *HTTPClassifier) Name() string { return "http: " + c.URL }

func (c *HTTPClassifier) Classify(ctx context.Context, img image.Image) (*Classification, error) {
	png, err := EncodePNG(img)
	if err != nil {
		return nil, err
	}
	client := c.Client
	if client == nil {
		client = &http.Client{Timeout: time.Minute}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(png))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "image/png")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("classifier endpoint: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxClassifierReply+1))
	if err != nil {
		return nil, fmt.Errorf("classifier endpoint: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("classifier endpoint: %s: %s", resp.Status, strings.TrimSpace(string(body[:min(len(body), 200)])))
	}
	if len(body) > MaxClassifierReply {
		return nil, errors.New("classifier endpoint: reply too large")
	}
	return ParseClassification(body)
}

// CosineDistance is scipy.spatial.distance.cosine: 1 − u·v / (‖u‖‖v‖), clipped to [0, 2].
// A zero vector (where scipy returns NaN) gives 0.
func CosineDistance(u, v []float64) float64 {
	n := min(len(u), len(v))
	var uv, uu, vv float64
	for i := 0; i < n; i++ {
		uv += float64(u[i] * v[i])
		uu += float64(u[i] * u[i])
		vv += float64(v[i] * v[i])
	}
	if uu == 0 || vv == 0 {
		return 0
	}
	d := 1 - uv/math.Sqrt(float64(uu*vv))
	return math.Min(math.Max(d, 0), 2)
}

// DiversityOf is the organisers' diversity of one letter: the summed cosine distance over all
// unordered pairs of the trials that have a classification, divided by the pair count of T = 10
// trials (45) whatever their number — missing trials lower the diversity.
func DiversityOf(vectors [][]float64) (rate float64, distances []float64) {
	sum := 0.0
	for i := range vectors {
		for j := i + 1; j < len(vectors); j++ {
			d := CosineDistance(vectors[i], vectors[j])
			distances = append(distances, d)
			sum += d
		}
	}
	const pairs = TrialsPerLetter*(TrialsPerLetter+1)/2 - TrialsPerLetter
	return sum / pairs, distances
}

// DiversityFromSimilarity builds TEAM/diversity/L.json from TEAM/similarity/L.json: softmax
// vectors in A..Z order or, under an edition of EmbeddingDiversity (2025), the class-token
// embeddings.
func DiversityFromSimilarity(sim *SimilarityFile, edition Edition) (*DiversityFile, error) {
	out := &DiversityFile{Count: sim.Count, Trials: []DiversityTrial{}, Diversities: []DiversityPair{}}
	if sim.Count > len(sim.Similarities) {
		return nil, fmt.Errorf("similarity file lists %d trials but details for %d", sim.Count, len(sim.Similarities))
	}
	rules := edition.Rules()
	var vectors [][]float64
	for _, s := range sim.Similarities[:sim.Count] {
		var vec []float64
		if rules.Diversity == EmbeddingDiversity {
			if len(s.ClsEmbedding) == 0 {
				return nil, fmt.Errorf("%s: no cls_embedding (the %s diversity needs the classifier's embedding)", s.ID, rules.Name)
			}
			vec = s.ClsEmbedding
		} else {
			raws := append([]SoftmaxEntry(nil), s.Raws...)
			sortByLabel(raws)
			for _, r := range raws {
				vec = append(vec, r.SoftmaxProb)
			}
		}
		id, _, _ := strings.Cut(s.ID, ".")
		out.Trials = append(out.Trials, DiversityTrial{Trial: id, Vector: vec})
		vectors = append(vectors, vec)
	}
	rate, distances := DiversityOf(vectors)
	k := 0
	for i := range out.Trials {
		for j := i + 1; j < len(out.Trials); j++ {
			out.Diversities = append(out.Diversities, DiversityPair{Pair: TrialPair{out.Trials[i].Trial, out.Trials[j].Trial}, Distance: distances[k]})
			k++
		}
	}
	out.DiversityRate = rate
	return out, nil
}

func sortByLabel(r []SoftmaxEntry) {
	for i := 1; i < len(r); i++ {
		for j := i; j > 0 && r[j].Label < r[j-1].Label; j-- {
			r[j], r[j-1] = r[j-1], r[j]
		}
	}
}

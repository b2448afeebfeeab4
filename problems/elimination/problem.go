package elimination

import (
	"fmt"
	"image"
	"strconv"

	"pcgwb/problems"
	"pcgwb/problems/data"
	"pcgwb/problems/shape"
	"pcgwb/problems/space"
)

func init() {
	for _, v := range []struct {
		name string
		p    problems.Params
	}{
		{"elimination-v0", problems.Params{"letters": 8, "short_percentage": 0.5, "long_percentage": 0.7}},
		{"elimination-easy-v0", problems.Params{"letters": 6, "short_percentage": 0.2, "long_percentage": 0.4}},
		{"elimination-hard-v0", problems.Params{"letters": 10, "short_percentage": 0.8, "long_percentage": 0.9}},
	} {
		if err := problems.RegisterEntry(problems.Entry{
			Name:      v.name,
			Params:    v.p,
			New:       New,
			Available: data.Need(data.EliminationWords),
		}); err != nil {
			panic(err)
		}
	}
}

// Problem is one Elimination variant.
type Problem struct {
	letters   int
	short     float64
	long      float64
	offset    float64
	diversity float64
	lex       *lexicon
	content   space.Array
	control   space.Dict
}

// New builds a variant from its registry parameters (letters, short_percentage,
// long_percentage; optional offset 0.1, diversity 0.6). It loads the word list on first use.
func New(p problems.Params) (problems.Problem, error) {
	n := p.Int("letters", 8)
	// The quality reads the lists of lengths up to 6, which exist only from 6 letters on.
	if n < 6 || n > maxLetters {
		return nil, fmt.Errorf("elimination: letters must be in [6, %d], got %d", maxLetters, n)
	}
	lex, err := words.Get()
	if err != nil {
		return nil, err
	}
	return &Problem{
		letters:   n,
		short:     p.Float("short_percentage", 0.5),
		long:      p.Float("long_percentage", 0.7),
		offset:    p.Float("offset", 0.1),
		diversity: p.Float("diversity", 0.6),
		lex:       lex,
		content:   space.Array{Dims: []int{n}, Leaf: space.Int{Min: 0, Max: 26}},
		control:   space.Dict{{Key: "sequence", Space: space.Int{Min: 2, Max: 7}}},
	}, nil
}

func (p *Problem) ContentSpace() space.Space { return p.content }
func (p *Problem) ControlSpace() space.Space { return p.control }

func (p *Problem) Description() string {
	return fmt.Sprintf("Elimination: a row of %d letters; removing letters spells words. Good puzzles hide "+
		"3-6 letter words only, all of them common, short words near the %.0f%% frequency rank and "+
		"long ones near %.0f%%. Control: the longest word allowed to appear as a contiguous run.",
		p.letters, 100*p.short, 100*p.long)
}

// Info is the reference's info: total words found, the letter row, and words_3 … words_n.
type Info struct {
	Total int
	Word  string
	// Words[k] holds the records of length k+3 (words_{k+3}); lengths n-1 and n stay empty.
	Words [][]Record
}

// MarshalJSON writes the reference's keys in its order.
func (in *Info) MarshalJSON() ([]byte, error) {
	b := []byte(`{"total":`)
	b = strconv.AppendInt(b, int64(in.Total), 10)
	b = append(b, `,"word":`...)
	b = strconv.AppendQuote(b, in.Word)
	for k, list := range in.Words {
		b = append(b, `,"words_`...)
		b = strconv.AppendInt(b, int64(k+3), 10)
		b = append(b, `":[`...)
		for i, r := range list {
			if i > 0 {
				b = append(b, ',')
			}
			rb, _ := r.MarshalJSON()
			b = append(b, rb...)
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

func letters(c problems.Content, n int) ([]int, error) {
	l, ok := c.([]any)
	if !ok || len(l) != n {
		return nil, fmt.Errorf("elimination: content is not a list of %d letters", n)
	}
	out := make([]int, n)
	for i, v := range l {
		x, ok := v.(int)
		if !ok || x < 0 || x >= 26 {
			return nil, fmt.Errorf("elimination: content[%d] = %v is not a letter index 0-25", i, v)
		}
		out[i] = x
	}
	return out, nil
}

func (p *Problem) Info(c problems.Content) (problems.Info, error) {
	ls, err := letters(c, p.letters)
	if err != nil {
		return nil, err
	}
	word := make([]byte, len(ls))
	for i, x := range ls {
		word[i] = byte('a' + x)
	}
	in := &Info{Word: string(word), Words: make([][]Record, p.letters-2)}
	in.Total = p.lex.findWords(ls, in.Words)
	for k := range in.Words {
		if in.Words[k] == nil {
			in.Words[k] = []Record{}
		}
	}
	return in, nil
}

// list is words_k (empty when the variant has no such list).
func (in *Info) list(k int) []Record {
	if k-3 < 0 || k-3 >= len(in.Words) {
		return nil
	}
	return in.Words[k-3]
}

func (p *Problem) Quality(info problems.Info) float64 {
	in := info.(*Info)
	common := 0
	for k := 3; k < p.letters; k++ {
		for _, r := range in.list(k) {
			common += r.Common
		}
	}
	commonFit := shape.Reward3(float64(common), 0, float64(in.Total))

	short := len(in.list(3)) + len(in.list(4))
	long := len(in.list(5)) + len(in.list(6))
	unallowed := 0
	for k := 7; k < p.letters; k++ {
		if len(in.list(k)) > 0 {
			unallowed++
		}
	}
	total := float64(in.Total)
	constraints := shape.Reward4(float64(short), 0, 1, total) +
		shape.Reward4(float64(long), 0, 1, total) +
		shape.Reward(float64(unallowed), 0, 0, 0, total)
	constraints /= 3.0

	added := 0.0
	if commonFit >= 1 && constraints >= 1 {
		band := func(target float64, recs []Record) {
			lo, hi := max(0, target-p.offset), min(1, target+p.offset)
			for _, r := range recs {
				added += shape.Reward(r.Loc, 0, lo, hi, 1)
			}
		}
		band(p.short, in.list(3))
		band(p.short, in.list(4))
		band(p.long, in.list(5))
		band(p.long, in.list(6))
		added /= float64(short + long)
	}
	return (commonFit + constraints + added) / 3.0
}

// Diversity compares the letter rows with difflib's ratio, which is not symmetric.
func (p *Problem) Diversity(a, b problems.Info) float64 {
	r := shape.Ratio(a.(*Info).Word, b.(*Info).Word)
	return shape.Reward4(1-r, 0, p.diversity, 1.0)
}

// DiversityKernel prepares the words' difflib indexes once for a set
// (problems.DiversityKerneler).
func (p *Problem) DiversityKernel(infos []problems.Info) func() func(i, j int) float64 {
	words := make([]string, len(infos))
	for i, in := range infos {
		words[i] = in.(*Info).Word
	}
	return problems.RatioKernel(words, func(_, _ int, r float64) float64 { return shape.Reward4(1-r, 0, p.diversity, 1.0) })
}

// Controllability: among words spelled by contiguous letters, the share longer than the
// control's sequence should be zero.
func (p *Problem) Controllability(info problems.Info, control problems.Control) float64 {
	in := info.(*Info)
	limit := problems.ControlInt(control, "sequence")
	bad, total := 0, 0
	for k := 3; k < p.letters; k++ {
		for _, r := range in.list(k) {
			if r.Seq == k {
				if k > limit {
					bad++
				}
				total++
			}
		}
	}
	if total == 0 {
		return 1.0
	}
	return shape.Reward(float64(bad), 0, 0, 0, float64(total))
}

func (p *Problem) Render(c problems.Content) (image.Image, error) {
	ls, err := letters(c, p.letters)
	if err != nil {
		return nil, err
	}
	return render(ls), nil
}

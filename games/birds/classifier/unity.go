package classifier

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"pcgwb/games/birds"
)

// ArchivedResult is the classifier's answer on one archived evaluator image.
type ArchivedResult struct {
	File      string
	Letter    byte // the letter the level was meant to be (its folder name)
	Predicted byte
	TrueProb  float64
	Rank      int // 1 when the intended letter is the top answer
}

// ClassifyArchive classifies every PNG under dir whose parent folder is named by a single
// capital (the layout of the archived Unity run: images/vN/L/*.png), skipping *_raw.png.
func ClassifyArchive(ctx context.Context, c *CNN, dir string) ([]ArchivedResult, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		parent := filepath.Base(filepath.Dir(path))
		if !d.IsDir() && strings.HasSuffix(path, ".png") && !strings.HasSuffix(path, "_raw.png") &&
			len(parent) == 1 && parent[0] >= 'A' && parent[0] <= 'Z' {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no letter images under %s", dir)
	}
	sort.Strings(files)
	out := make([]ArchivedResult, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		img, err := birds.DecodeImage(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		cl, err := c.Classify(ctx, img)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		letter := filepath.Base(filepath.Dir(f))[0]
		best, rank := 0, 1
		for i, p := range cl.Probabilities {
			if p > cl.Probabilities[best] {
				best = i
			}
			if p > cl.Similarity(letter) {
				rank++
			}
		}
		rel, _ := filepath.Rel(dir, f)
		out = append(out, ArchivedResult{File: rel, Letter: letter, Predicted: byte('A' + best), TrueProb: cl.Similarity(letter), Rank: rank})
	}
	return out, nil
}

// ArchiveSummary is the accuracy and mean similarity of archived results, overall and per
// letter.
type ArchiveSummary struct {
	N, Hits   int
	Top3      int // images whose intended letter is among the three most probable
	MeanProb  float64
	PerLetter map[byte][2]int // letter → {hits, n}
}

func SummarizeArchive(rs []ArchivedResult) ArchiveSummary {
	s := ArchiveSummary{PerLetter: map[byte][2]int{}}
	for _, r := range rs {
		s.N++
		s.MeanProb += r.TrueProb
		if r.Rank <= 3 {
			s.Top3++
		}
		v := s.PerLetter[r.Letter]
		v[1]++
		if r.Predicted == r.Letter {
			s.Hits++
			v[0]++
		}
		s.PerLetter[r.Letter] = v
	}
	if s.N > 0 {
		s.MeanProb /= float64(s.N)
	}
	return s
}

// Accuracy is the share of images whose top letter is the intended one.
func (s ArchiveSummary) Accuracy() float64 {
	if s.N == 0 {
		return 0
	}
	return float64(s.Hits) / float64(s.N)
}

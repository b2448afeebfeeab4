package birds

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Letters are the 26 targets, in the organisers' order.
const Letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// TrialsPerLetter is T: every prompt is run 10 times per letter, and every average divides by
// 10 whatever number of trials produced a level.
const TrialsPerLetter = 10

// StabilityFile is TEAM/stability/L.json as the Unity evaluator writes it.
type StabilityFile struct {
	DataCount int            `json:"dataCount"`
	Rate      float64        `json:"rate"`
	Raws      []StabilityRaw `json:"raws"`
}

type StabilityRaw struct {
	Tag             string  `json:"tag"`
	Score           float64 `json:"score"`
	StartingObjects int     `json:"startingObjects"`
	MovingObjects   int     `json:"movingObjects"`
}

// SimilarityFile is TEAM/similarity/L.json as the classifier script writes it.
type SimilarityFile struct {
	Count          int                `json:"count"`
	SimilarityRate float64            `json:"similarityRate"`
	Trials         []SimilarityTrial  `json:"trials"`
	Similarities   []SimilarityDetail `json:"similarities"`
}

type SimilarityTrial struct {
	ID         string  `json:"id"`
	Label      string  `json:"label"`
	Similarity float64 `json:"similarity"`
}

type SimilarityDetail struct {
	ID           string         `json:"id"`
	Raws         []SoftmaxEntry `json:"raws"`
	ClsEmbedding []float64      `json:"cls_embedding,omitempty"`
}

type SoftmaxEntry struct {
	ID          string  `json:"id"`
	Label       string  `json:"label"`
	SoftmaxProb float64 `json:"softmax_prob"`
}

// DiversityFile is TEAM/diversity/L.json (fields in the script's order).
type DiversityFile struct {
	DiversityRate float64          `json:"diversityRate"`
	Trials        []DiversityTrial `json:"trials"`
	Diversities   []DiversityPair  `json:"diversities"`
	Count         int              `json:"count"`
}

type DiversityTrial struct {
	Trial  string    `json:"trial"`
	Vector []float64 `json:"vector"`
}

type DiversityPair struct {
	Pair     TrialPair `json:"pair"`
	Distance float64   `json:"distance"`
}

type TrialPair struct {
	Trial1 string `json:"trial1"`
	Trial2 string `json:"trial2"`
}

// LetterFiles are the three stage files of one team and letter; nil means missing or unreadable.
type LetterFiles struct {
	Stability  *StabilityFile
	Similarity *SimilarityFile
	Diversity  *DiversityFile
}

// TeamFiles is one team (prompt) folder.
type TeamFiles struct {
	Name    string
	Letters [26]LetterFiles
}

// Weight is one letter's difficulty weight and its factors.
type Weight struct {
	Character        string  `json:"character"`
	Weight           Decimal `json:"weight"`
	WeightStability  Decimal `json:"weightStability"`
	WeightSimilarity Decimal `json:"weightSimilarity"`
	WeightDiversity  Decimal `json:"weightDiversity"`
}

type TrialScore struct {
	Team       string
	Character  string
	Trial      int
	Score      Decimal
	Stability  Decimal
	Similarity Decimal
	Diversity  Decimal
}

type CharacterScore struct {
	Team       string
	Character  string
	Score      Decimal
	Stability  Decimal // non-weighted average over the 10 trials
	Similarity Decimal
	Diversity  Decimal
}

type PromptScore struct {
	Team       string
	Score      Decimal
	Normalized Decimal
	Rank       int
}

// Scores is the result folder: weights, every trial, letter and prompt score, and the ranking.
type Scores struct {
	Edition     Edition
	Competition Decimal
	Weights     []Weight
	Trials      []TrialScore
	Characters  []CharacterScore
	Prompts     []PromptScore // ranked: highest normalised score first
}

// ScoreOptions selects the rules. Weights, when set, replace the weights computed from the teams
// (useful when only some teams' files are at hand, as with the published trial tables).
type ScoreOptions struct {
	Edition Edition
	// Trials is how many trials per letter were run (0 means TrialsPerLetter, the
	// competition's 10): a 2-trial prompt run is averaged over 2 trials, not 10.
	Trials         int
	DisableWeights bool
	Weights        []Weight
}

func (o ScoreOptions) trials() int {
	if o.Trials > 0 {
		return o.Trials
	}
	return TrialsPerLetter
}

// TrialNumber is the organisers' getTrialIndexFromFileName: JavaScript parseInt of the text
// between the last '_' and the next '.'; ok is false where JavaScript gets NaN.
func TrialNumber(name string) (int, bool) {
	if i := strings.LastIndexByte(name, '_'); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i]
	}
	name = strings.TrimLeft(name, " \t\n\r\v\f")
	neg := false
	if name != "" && (name[0] == '+' || name[0] == '-') {
		neg = name[0] == '-'
		name = name[1:]
	}
	n, digits := 0, 0
	for _, c := range []byte(name) {
		if c < '0' || c > '9' {
			break
		}
		digits++
		if n < 1e9 {
			n = n*10 + int(c-'0')
		}
	}
	if digits == 0 {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

var decOne = DecimalFromInt(1)

// ComputeWeights is getWeights: per letter, one minus the mean stability, similarity and
// diversity over all teams (P·T trials; files read independently), floored at 1/26.
func ComputeWeights(teams []TeamFiles, opt ScoreOptions) []Weight {
	floor := decOne.DivInt(int64(len(Letters)))
	rules := opt.Edition.Rules()
	p := int64(len(teams))
	var out []Weight
	for j := 0; j < len(Letters); j++ {
		var sta, sim, div Decimal
		for _, t := range teams {
			l := t.Letters[j]
			if l.Stability != nil {
				for _, r := range l.Stability.Raws {
					sta = sta.Add(DecimalFromFloat(r.Score))
				}
			}
			if l.Similarity != nil {
				for _, r := range l.Similarity.Trials {
					sim = sim.Add(DecimalFromFloat(r.Similarity))
				}
			}
			if l.Diversity != nil {
				div = div.Add(DecimalFromFloat(l.Diversity.DiversityRate))
			}
		}
		w := Weight{Character: Letters[j : j+1]}
		if p > 0 {
			w.WeightStability = MaxDecimal(decOne.Sub(sta.DivInt(p*int64(opt.trials()))), floor)
			w.WeightSimilarity = MaxDecimal(decOne.Sub(sim.DivInt(p*int64(opt.trials()))), floor)
			w.WeightDiversity = MaxDecimal(decOne.Sub(div.DivInt(p)), floor)
		} else {
			w.WeightStability, w.WeightSimilarity, w.WeightDiversity = floor, floor, floor
		}
		if rules.HasDiversity() {
			w.Weight = w.WeightStability.Mul(w.WeightSimilarity).Mul(w.WeightDiversity)
		} else {
			w.WeightDiversity = Decimal{}
			w.Weight = w.WeightStability.Mul(w.WeightSimilarity)
		}
		if opt.DisableWeights {
			w.Weight, w.WeightStability, w.WeightSimilarity = decOne, decOne, decOne
			if rules.HasDiversity() {
				w.WeightDiversity = decOne
			}
		}
		out = append(out, w)
	}
	return out
}

// Score computes every score of the organisers' scoring-and-ranking script for the given teams.
func Score(teams []TeamFiles, opt ScoreOptions) *Scores {
	opt.Edition = opt.Edition.orDefault()
	rules := opt.Edition.Rules()
	weights := opt.Weights
	if weights == nil {
		weights = ComputeWeights(teams, opt)
	}
	weightOf := map[string]Decimal{}
	for _, w := range weights {
		weightOf[w.Character] = w.Weight
	}
	sc := &Scores{Edition: opt.Edition, Weights: weights}
	var prompts []PromptScore
	for _, t := range teams {
		var letterSum Decimal
		for j := 0; j < len(Letters); j++ {
			ch := Letters[j : j+1]
			l := t.Letters[j]
			usable := l.Stability != nil && l.Similarity != nil
			if rules.HasDiversity() {
				usable = usable && l.Diversity != nil
			}
			var raws []StabilityRaw
			var sims []SimilarityTrial
			var div Decimal
			if usable {
				raws, sims = l.Stability.Raws, l.Similarity.Trials
				if l.Diversity != nil && rules.HasDiversity() {
					div = DecimalFromFloat(l.Diversity.DiversityRate)
				}
			}
			var trialSum, staSum, simSum Decimal
			for i := 1; i <= opt.trials(); i++ {
				var sta, sim Decimal
				if rules.PairByPosition {
					if i <= len(raws) {
						sta = DecimalFromFloat(raws[i-1].Score)
					}
					if i <= len(sims) {
						sim = DecimalFromFloat(sims[i-1].Similarity)
					}
				} else {
					for _, r := range raws {
						if n, ok := TrialNumber(r.Tag); ok && n == i {
							sta = DecimalFromFloat(r.Score)
							break
						}
					}
					for _, s := range sims {
						if n, ok := TrialNumber(s.ID); ok && n == i {
							sim = DecimalFromFloat(s.Similarity)
							break
						}
					}
				}
				trial := weightOf[ch].Mul(sta).Mul(sim)
				sc.Trials = append(sc.Trials, TrialScore{Team: t.Name, Character: ch, Trial: i, Score: trial, Stability: sta, Similarity: sim, Diversity: div})
				trialSum = trialSum.Add(trial)
				staSum = staSum.Add(sta)
				simSum = simSum.Add(sim)
			}
			charScore := trialSum.DivInt(int64(opt.trials()))
			if rules.HasDiversity() {
				charScore = charScore.Mul(div)
			}
			sc.Characters = append(sc.Characters, CharacterScore{
				Team: t.Name, Character: ch, Score: charScore,
				Stability: staSum.DivInt(int64(opt.trials())), Similarity: simSum.DivInt(int64(opt.trials())), Diversity: div,
			})
			letterSum = letterSum.Add(charScore)
		}
		prompts = append(prompts, PromptScore{Team: t.Name, Score: letterSum.DivInt(int64(len(Letters)))})
	}
	for _, p := range prompts {
		sc.Competition = sc.Competition.Add(p.Score)
	}
	sc.Prompts = Rank(prompts, sc.Competition)
	return sc
}

// Rank normalises prompt scores to percentages of the competition score (divided by 1 when it is
// 0) and orders them by descending normalised score. The script's comparator never says "equal",
// which V8's sort turns into a stable order for ties: tied teams keep their folder order. The
// published tie-break (shorter prompt first) was applied by hand and is not done here.
func Rank(prompts []PromptScore, competition Decimal) []PromptScore {
	divider := competition
	if divider.IsZero() {
		divider = decOne
	}
	hundred := DecimalFromInt(100)
	out := append([]PromptScore(nil), prompts...)
	for i := range out {
		out[i].Normalized = out[i].Score.Div(divider).Mul(hundred)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Normalized.Cmp(out[j].Normalized) > 0 })
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// ScoreModels is the rule of the PerModel editions (2025): the whole computation, weights included, per model; a team's
// total is the sum of its prompt scores over the models, normalised by the sum of all totals.
func ScoreModels(models [][]TeamFiles, opt ScoreOptions) (perModel []*Scores, total []PromptScore) {
	sums := map[string]Decimal{}
	var order []string
	for _, teams := range models {
		s := Score(teams, opt)
		perModel = append(perModel, s)
		for _, p := range s.Prompts {
			if _, ok := sums[p.Team]; !ok {
				order = append(order, p.Team)
			}
			sums[p.Team] = sums[p.Team].Add(p.Score)
		}
	}
	var all Decimal
	var ps []PromptScore
	for _, team := range order {
		all = all.Add(sums[team])
		ps = append(ps, PromptScore{Team: team, Score: sums[team]})
	}
	return perModel, Rank(ps, all)
}

// csvQuote writes a json2csv string cell.
func csvQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func writeCSV(w io.Writer, header []string, rows [][]string) error {
	var b strings.Builder
	for i, h := range header {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(csvQuote(h))
	}
	b.WriteString("\r\n")
	for _, r := range rows {
		b.WriteString(strings.Join(r, ","))
		b.WriteString("\r\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteTrialCSV writes trial_scores.csv in the published layout (json2csv quoting, CRLF).
func (sc *Scores) WriteTrialCSV(w io.Writer) error {
	rules := sc.Edition.Rules()
	header := []string{"teamName", "character", "trial", rules.TrialScoreColumn, "stabilityScore", "similarityScore"}
	if rules.HasDiversity() {
		header = append(header, "diversityScore")
	}
	var rows [][]string
	for _, t := range sc.Trials {
		r := []string{csvQuote(t.Team), csvQuote(t.Character), strconv.Itoa(t.Trial), csvQuote(t.Score.String()), csvQuote(t.Stability.String()), csvQuote(t.Similarity.String())}
		if rules.HasDiversity() {
			r = append(r, csvQuote(t.Diversity.String()))
		}
		rows = append(rows, r)
	}
	return writeCSV(w, header, rows)
}

// WriteCharacterCSV writes character_scores.csv.
func (sc *Scores) WriteCharacterCSV(w io.Writer) error {
	rules := sc.Edition.Rules()
	header := []string{"teamName", "character", "characterScore", "nonWeightedAverageStabilityScore", "nonWeightedAverageSimilarityScore", "diversityScore"}
	if !rules.HasDiversity() {
		header = header[:5]
	}
	var rows [][]string
	for _, c := range sc.Characters {
		r := []string{csvQuote(c.Team), csvQuote(c.Character), csvQuote(c.Score.String()), csvQuote(c.Stability.String()), csvQuote(c.Similarity.String())}
		if rules.HasDiversity() {
			r = append(r, csvQuote(c.Diversity.String()))
		}
		rows = append(rows, r)
	}
	return writeCSV(w, header, rows)
}

// WriteRanksCSV writes prompt_scores_ranks.csv.
func (sc *Scores) WriteRanksCSV(w io.Writer) error {
	var rows [][]string
	for _, p := range sc.Prompts {
		rows = append(rows, []string{csvQuote(p.Team), csvQuote(p.Normalized.String()), csvQuote(p.Score.String()), strconv.Itoa(p.Rank)})
	}
	return writeCSV(w, []string{"team", "normalizedPromptScore", "promptScore", "rank"}, rows)
}

// ConstantsJSON is constants.json: the competition score and the weights, as compact JSON.
func (sc *Scores) ConstantsJSON() ([]byte, error) {
	type weightNoDiversity struct {
		Character        string  `json:"character"`
		Weight           Decimal `json:"weight"`
		WeightStability  Decimal `json:"weightStability"`
		WeightSimilarity Decimal `json:"weightSimilarity"`
	}
	if !sc.Edition.Rules().HasDiversity() {
		ws := make([]weightNoDiversity, len(sc.Weights))
		for i, w := range sc.Weights {
			ws[i] = weightNoDiversity{w.Character, w.Weight, w.WeightStability, w.WeightSimilarity}
		}
		return json.Marshal(struct {
			CompetitionScore Decimal             `json:"competitionScore"`
			Weights          []weightNoDiversity `json:"weights"`
		}{sc.Competition, ws})
	}
	return json.Marshal(struct {
		CompetitionScore Decimal  `json:"competitionScore"`
		Weights          []Weight `json:"weights"`
	}{sc.Competition, sc.Weights})
}

// letterIndex returns the index of an upper-case letter, or an error.
func letterIndex(l string) (int, error) {
	if len(l) != 1 || l[0] < 'A' || l[0] > 'Z' {
		return 0, fmt.Errorf("not a letter A–Z: %q", l)
	}
	return int(l[0] - 'A'), nil
}

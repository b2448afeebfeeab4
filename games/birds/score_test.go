package birds

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"

	"pcgwb/internal/testshared"
)

func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

type publishedResult struct {
	Team       string  `json:"teamName"`
	Normalized float64 `json:"normalizedPromptScore"`
	Score      float64 `json:"promptScore"`
	Rank       int     `json:"rank"`
}

func parseF(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// teamsFromTrialRows rebuilds the stage files of the teams in a published trial table: one
// stability raw and one similarity trial per row (a missing trial and a 0 score are the same to
// the scoring), the letter's diversity from the row.
func teamsFromTrialRows(t *testing.T, rows []map[string]string, edition Edition) []TeamFiles {
	var teams []TeamFiles
	index := map[string]int{}
	for _, r := range rows {
		name := r["teamName"]
		k, ok := index[name]
		if !ok {
			k = len(teams)
			index[name] = k
			teams = append(teams, TeamFiles{Name: name})
		}
		j, err := letterIndex(r["character"])
		if err != nil {
			t.Fatal(err)
		}
		l := &teams[k].Letters[j]
		if l.Stability == nil {
			l.Stability, l.Similarity = &StabilityFile{}, &SimilarityFile{}
			if edition != Edition2023 {
				l.Diversity = &DiversityFile{DiversityRate: parseF(t, r["diversityScore"])}
			}
		}
		tag := name + "_" + r["character"] + "_" + r["trial"] + ".xml"
		l.Stability.Raws = append(l.Stability.Raws, StabilityRaw{Tag: tag, Score: parseF(t, r["stabilityScore"])})
		l.Similarity.Trials = append(l.Similarity.Trials, SimilarityTrial{ID: strings.TrimSuffix(tag, ".xml") + ".png", Similarity: parseF(t, r["similarityScore"])})
	}
	return teams
}

// checkReproduction compares every trial and letter row of a published table with ours, string
// for string, and every prompt score with the published result.
func checkReproduction(t *testing.T, sc *Scores, trialRows, charRows []map[string]string, trialCol string, results []publishedResult, competition Decimal) {
	if len(sc.Trials) != len(trialRows) {
		t.Fatalf("%d trial scores, %d published rows", len(sc.Trials), len(trialRows))
	}
	bad := 0
	for i, r := range trialRows {
		got := sc.Trials[i]
		want := []string{r["teamName"], r["character"], r["trial"], r[trialCol], r["stabilityScore"], r["similarityScore"]}
		have := []string{got.Team, got.Character, strconv.Itoa(got.Trial), got.Score.String(), got.Stability.String(), got.Similarity.String()}
		if sc.Edition != Edition2023 {
			want = append(want, r["diversityScore"])
			have = append(have, got.Diversity.String())
		}
		if strings.Join(want, "|") != strings.Join(have, "|") {
			if bad++; bad < 5 {
				t.Errorf("trial row %d:\n got %v\nwant %v", i, have, want)
			}
		}
	}
	for i, r := range charRows {
		got := sc.Characters[i]
		want := []string{r["teamName"], r["character"], r["characterScore"], r["nonWeightedAverageStabilityScore"], r["nonWeightedAverageSimilarityScore"]}
		have := []string{got.Team, got.Character, got.Score.String(), got.Stability.String(), got.Similarity.String()}
		if sc.Edition != Edition2023 {
			want = append(want, r["diversityScore"])
			have = append(have, got.Diversity.String())
		}
		if strings.Join(want, "|") != strings.Join(have, "|") {
			if bad++; bad < 10 {
				t.Errorf("character row %d:\n got %v\nwant %v", i, have, want)
			}
		}
	}
	published := map[string]publishedResult{}
	for _, r := range results {
		published[r.Team] = r
	}
	hundred := DecimalFromInt(100)
	for _, p := range sc.Prompts {
		r, ok := published[p.Team]
		if !ok {
			t.Errorf("team %q not in the published results", p.Team)
			continue
		}
		norm := p.Score.Div(competition).Mul(hundred)
		// result.json holds the scores as JSON numbers with 13 to 17 significant digits.
		if !sameToPublishedDigits(p.Score, r.Score) || !sameToPublishedDigits(norm, r.Normalized) {
			t.Errorf("%s: prompt %s (%v), normalised %s (%v); published %v, %v", p.Team, p.Score, p.Score.Float(), norm, norm.Float(), r.Score, r.Normalized)
		}
	}
	t.Logf("%d trial rows, %d letter rows and %d prompt scores reproduced", len(trialRows), len(charRows), len(sc.Prompts))
}

// sameToPublishedDigits reports whether d is the published number: either its nearest double
// (2023 published full doubles) or d rounded to as many significant digits as the published
// number shows (2024's result.json was written with 13 to 16 digits).
func sameToPublishedDigits(d Decimal, published float64) bool {
	f := d.Float()
	if f == published {
		return true
	}
	short := strconv.FormatFloat(published, 'e', -1, 64)
	digits := len(strings.ReplaceAll(short[:strings.IndexByte(short, 'e')], ".", ""))
	rounded, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'e', digits-1, 64), 64)
	return rounded == published
}

func TestPublished2024Results(t *testing.T) {
	dir := testshared.Dir(t, "science-birds", "competition-results", "2024")
	var constants struct {
		Competition string `json:"competitionScore"`
		Weights     []struct {
			Character string `json:"character"`
			Weight    string `json:"weight"`
			Sta       string `json:"weightStability"`
			Sim       string `json:"weightSimilarity"`
			Div       string `json:"weightDiversity"`
		} `json:"weights"`
	}
	loadJSON(t, dir+"/constants.json", &constants)
	var weights []Weight
	for _, w := range constants.Weights {
		weights = append(weights, Weight{Character: w.Character, Weight: MustDecimal(w.Weight),
			WeightStability: MustDecimal(w.Sta), WeightSimilarity: MustDecimal(w.Sim), WeightDiversity: MustDecimal(w.Div)})
		// weight = w_sta · w_sim · w_div, exactly.
		if got := MustDecimal(w.Sta).Mul(MustDecimal(w.Sim)).Mul(MustDecimal(w.Div)).String(); got != w.Weight {
			t.Errorf("%s: weight %s ≠ product %s", w.Character, w.Weight, got)
		}
	}
	trialRows := readCSV(t, dir+"/trial_scores.csv")
	charRows := readCSV(t, dir+"/character_scores.csv")
	var results []publishedResult
	loadJSON(t, dir+"/result.json", &results)
	// CSV team names of the baselines differ from the display names in result.json.
	for i := range results {
		switch results[i].Team {
		case "Weak Baseline (Zero-Shot)":
			results[i].Team = "baseline_zero_shot"
		case "Strong Baseline (Zero-Shot Multi-turn)":
			results[i].Team = "baseline_zero_shot_multi_turn"
		}
	}
	sc := Score(teamsFromTrialRows(t, trialRows, Edition2024), ScoreOptions{Edition: Edition2024, Weights: weights})
	competition := MustDecimal(constants.Competition)
	checkReproduction(t, sc, trialRows, charRows, "trial_score", results, competition)

	// The competition score is the sum of all ten scored prompts; three are only published as
	// JSON numbers, so the sum is checked to double precision.
	var sum float64
	for _, r := range results {
		if r.Rank != -2 {
			sum += r.Score
		}
	}
	if math.Abs(sum-competition.Float()) > 1e-15 {
		t.Errorf("sum of prompt scores %v, competition %v", sum, competition)
	}
	// The published order is the order of the normalised scores.
	ranked := Rank(promptScoresOf(results), competition)
	for i, p := range ranked {
		if p.Team != results[i].Team {
			t.Errorf("rank %d: %s, published %s", i+1, p.Team, results[i].Team)
		}
	}
}

func promptScoresOf(results []publishedResult) []PromptScore {
	var out []PromptScore
	for _, r := range results {
		if r.Rank == -2 {
			continue
		}
		out = append(out, PromptScore{Team: r.Team, Score: DecimalFromFloat(r.Score)})
	}
	return out
}

// weightFromRows recovers a 2023 letter weight exactly: trial = weight · sta · sim with exact
// products, so weight = trial / (sta · sim) is a terminating decimal.
func weightFromRows(t *testing.T, rows []map[string]string, letter string) (Decimal, bool) {
	for _, r := range rows {
		if r["character"] != letter || r["stabilityScore"] == "0" || r["similarityScore"] == "0" {
			continue
		}
		num, _ := new(big.Rat).SetString(r["trial_Score"])
		sta, _ := new(big.Rat).SetString(r["stabilityScore"])
		sim, _ := new(big.Rat).SetString(r["similarityScore"])
		w := new(big.Rat).Quo(num, new(big.Rat).Mul(sta, sim))
		s := strings.TrimRight(strings.TrimRight(w.FloatString(80), "0"), ".")
		d := MustDecimal(s)
		if back, _ := new(big.Rat).SetString(d.String()); back.Cmp(w) != 0 {
			t.Fatalf("%s: weight %s does not terminate", letter, w)
		}
		return d, true
	}
	return Decimal{}, false
}

// 2023: the scoring script of the time paired stability and similarity by their position in the
// two files (the trial column is that position), had no diversity, and its weights are only
// published rounded to doubles. The exact weights follow from the trial rows; every row, letter
// and prompt score must then reproduce.
func TestPublished2023Results(t *testing.T) {
	dir := testshared.Dir(t, "science-birds", "competition-results", "2023")
	var constants struct {
		Competition string `json:"competitionScore"`
		Weights     []struct {
			Character string  `json:"character"`
			Weight    float64 `json:"weight"`
			Sta       float64 `json:"stabilityWeight"`
			Sim       float64 `json:"similarityWeight"`
		} `json:"weights"`
	}
	loadJSON(t, dir+"/constants.json", &constants)
	trialRows := readCSV(t, dir+"/trial_scores.csv")
	charRows := readCSV(t, dir+"/character_scores.csv")
	var results []publishedResult
	loadJSON(t, dir+"/result.json", &results)
	var weights []Weight
	for _, w := range constants.Weights {
		exact, ok := weightFromRows(t, trialRows, w.Character)
		if !ok {
			t.Fatalf("no row to recover the weight of %s", w.Character)
		}
		if math.Abs(exact.Float()-w.Weight) > 1e-15 || math.Abs(w.Sta*w.Sim-w.Weight) > 1e-15 {
			t.Errorf("%s: weight %s vs published %v (= %v · %v)", w.Character, exact, w.Weight, w.Sta, w.Sim)
		}
		weights = append(weights, Weight{Character: w.Character, Weight: exact})
	}
	sc := Score(teamsFromTrialRows(t, trialRows, Edition2023), ScoreOptions{Edition: Edition2023, Weights: weights})
	checkReproduction(t, sc, trialRows, charRows, "trial_Score", results, MustDecimal(constants.Competition))
	ranked := Rank(promptScoresOf(results), MustDecimal(constants.Competition))
	for i, p := range ranked {
		if p.Team != results[i].Team {
			t.Errorf("rank %d: %s, published %s", i+1, p.Team, results[i].Team)
		}
	}
}

func TestPositionPairingQuirk2023(t *testing.T) {
	// Trial 2 failed, so the similarity file lists trials 1 and 3 while the stability file lists
	// 1, 2 (score 0 never reaches it; here all three exist in stability): 2023 pairs by position.
	team := TeamFiles{Name: "t"}
	team.Letters[0] = LetterFiles{
		Stability:  &StabilityFile{Raws: []StabilityRaw{{Tag: "t_A_1.xml", Score: 1}, {Tag: "t_A_10.xml", Score: 0.5}, {Tag: "t_A_2.xml", Score: 0.25}}},
		Similarity: &SimilarityFile{Trials: []SimilarityTrial{{ID: "t_A_1.png", Similarity: 0.5}, {ID: "t_A_2.png", Similarity: 0.5}}},
		Diversity:  &DiversityFile{},
	}
	w := []Weight{{Character: "A", Weight: decOne}}
	for i := 1; i < 26; i++ {
		w = append(w, Weight{Character: Letters[i : i+1], Weight: decOne})
	}
	by2023 := Score([]TeamFiles{team}, ScoreOptions{Edition: Edition2023, Weights: w})
	if got := by2023.Trials[1].Score.String(); got != "0.25" { // 0.5 (stability of trial 10) · 0.5
		t.Errorf("2023 trial 2 = %s", got)
	}
	by2024 := Score([]TeamFiles{team}, ScoreOptions{Edition: Edition2024, Weights: w})
	if got := by2024.Trials[1].Score.String(); got != "0.125" { // 0.25 · 0.5
		t.Errorf("2024 trial 2 = %s", got)
	}
}

var pointOne, pointTwo = 0.1, 0.2

func TestDecimalArithmetic(t *testing.T) {
	cases := []struct{ got, want string }{
		{decOne.DivInt(26).String(), "0.03846153846153846154"},
		{MustDecimal("2").DivInt(3).String(), "0.66666666666666666667"},
		{MustDecimal("-2").DivInt(3).String(), "-0.66666666666666666667"},
		{MustDecimal("1e-25").DivInt(2).String(), "0"},
		{MustDecimal("5e-21").DivInt(1).String(), "0.00000000000000000001"},
		{MustDecimal("0.1").Add(MustDecimal("0.2")).String(), "0.3"},
		{MustDecimal("1.50").String(), "1.5"},
		{MustDecimal("1e21").String(), "1000000000000000000000"},
		{DecimalFromFloat(pointOne + pointTwo).String(), "0.30000000000000004"},
		{DecimalFromFloat(float64(float32(2.0 / 3))).String(), "0.6666666865348816"},
		{DecimalFromFloat(1e-7).String(), "0.0000001"},
		{MustDecimal("0.12").Mul(MustDecimal("0.5")).String(), "0.06"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %s, want %s", i, c.got, c.want)
		}
	}
}

func TestWeightsAndRanking(t *testing.T) {
	mk := func(name string, sta, sim, div float64) TeamFiles {
		tf := TeamFiles{Name: name}
		for j := range tf.Letters {
			l := LetterFiles{Stability: &StabilityFile{}, Similarity: &SimilarityFile{}, Diversity: &DiversityFile{DiversityRate: div}}
			for i := 1; i <= 10; i++ {
				id := name + "_" + Letters[j:j+1] + "_" + strconv.Itoa(i)
				l.Stability.Raws = append(l.Stability.Raws, StabilityRaw{Tag: id + ".xml", Score: sta})
				l.Similarity.Trials = append(l.Similarity.Trials, SimilarityTrial{ID: id + ".png", Similarity: sim})
			}
			tf.Letters[j] = l
		}
		return tf
	}
	teams := []TeamFiles{mk("a", 1, 0.5, 0.2), mk("b", 1, 0.5, 0.2), mk("c", 0.5, 0.25, 0.1), mk("empty", 0, 0, 0)}
	teams[3].Letters = [26]LetterFiles{}
	sc := Score(teams, ScoreOptions{Edition: Edition2024})
	w := sc.Weights[0]
	// mean stability (10+10+5)/40 = 0.625, similarity 0.3125, diversity 0.125
	if w.WeightStability.String() != "0.375" || w.WeightSimilarity.String() != "0.6875" || w.WeightDiversity.String() != "0.875" {
		t.Fatalf("weights %+v", w)
	}
	if sc.Prompts[0].Team != "a" || sc.Prompts[1].Team != "b" || sc.Prompts[3].Team != "empty" || sc.Prompts[3].Score.String() != "0" {
		t.Fatalf("ranking %+v", sc.Prompts)
	}
	data, _ := json.Marshal(sc.Prompts[0].Normalized)
	if string(data) != `"47.058823529411764706"` { // a / (a+b+c) = 0.1 / 0.2125
		t.Fatalf("normalised %s", data)
	}
}

func TestTrialNumber(t *testing.T) {
	cases := map[string]int{"TEAM_A_1.xml": 1, "TEAM_A_10.png": 10, "a_b_c_07.json": 7, "x_3abc.txt": 3, "weird_ 4.txt": 4, "a_-2.xml": -2}
	for name, want := range cases {
		if got, ok := TrialNumber(name); !ok || got != want {
			t.Errorf("%s: %d %v", name, got, ok)
		}
	}
	for _, bad := range []string{"TEAM_A_.xml", "noscore", "a_b.c_x"} {
		if _, ok := TrialNumber(bad); ok {
			t.Errorf("%s parsed", bad)
		}
	}
}

func TestUnityStabilityJSON(t *testing.T) {
	f := &StabilityFile{Raws: []StabilityRaw{
		{Tag: "T/levels/A/T_A_1.xml", Score: 1, StartingObjects: 3},
		{Tag: "T/levels/A/T_A_2.xml", Score: float64(float32(2.0 / 3)), StartingObjects: 3, MovingObjects: 1},
	}}
	want := `{
    "dataCount": 2,
    "rate": 0.8333333730697632,
    "raws": [
        {
            "tag": "T/levels/A/T_A_1.xml",
            "score": 1.0,
            "startingObjects": 3,
            "movingObjects": 0
        },
        {
            "tag": "T/levels/A/T_A_2.xml",
            "score": 0.6666666865348816,
            "startingObjects": 3,
            "movingObjects": 1
        }
    ]
}`
	if got := string(UnityStabilityJSON(f)); got != want {
		t.Fatalf("got\n%s", got)
	}
	var back StabilityFile
	if err := json.Unmarshal([]byte(want), &back); err != nil || back.DataCount != 2 || back.Raws[1].Score != float64(float32(2.0/3)) {
		t.Fatalf("%+v %v", back, err)
	}
}

func TestScoreModels2025(t *testing.T) {
	mk := func(name string, sim float64) TeamFiles {
		tf := TeamFiles{Name: name}
		for j := range tf.Letters {
			l := LetterFiles{Stability: &StabilityFile{}, Similarity: &SimilarityFile{}, Diversity: &DiversityFile{DiversityRate: 0.5}}
			id := name + "_" + Letters[j:j+1] + "_1"
			l.Stability.Raws = []StabilityRaw{{Tag: id + ".xml", Score: 1}}
			l.Similarity.Trials = []SimilarityTrial{{ID: id + ".png", Similarity: sim}}
			tf.Letters[j] = l
		}
		return tf
	}
	models := [][]TeamFiles{{mk("a", 0.5), mk("b", 0.25)}, {mk("a", 0.25), mk("b", 0.25)}, {mk("a", 0), mk("b", 0.5)}}
	per, total := ScoreModels(models, ScoreOptions{Edition: Edition2025})
	if len(per) != 3 || len(total) != 2 {
		t.Fatal(len(per), len(total))
	}
	sum := DecimalFromInt(0)
	for _, m := range per {
		for _, p := range m.Prompts {
			if p.Team == "a" {
				sum = sum.Add(p.Score)
			}
		}
	}
	for _, p := range total {
		if p.Team == "a" && p.Score.String() != sum.String() {
			t.Fatalf("total %s, sum of models %s", p.Score, sum)
		}
	}
	if total[0].Normalized.Add(total[1].Normalized).Float() < 99.999999 {
		t.Fatalf("normalised totals %v", total)
	}
}

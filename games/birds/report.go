package birds

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// The organisers' view of an evaluated folder: a per-letter table per team, a contact sheet
// of each team's images with stability and similarity under each, and the result CSVs in the
// organisers' column layout (trial_scores.csv, character_scores.csv, prompt_scores_ranks.csv).

// TrialView is one trial of a team as the report shows it.
type TrialView struct {
	Team, Letter string
	Trial        int
	// Image is the evaluator image's path; Level the level file's ("" when it has none).
	Image, Level          string
	Stability, Similarity float64
	// Failed is why a trial with an answer has no image ("" for an evaluated trial).
	Failed string
}

// TeamReport is one team's part of a report.
type TeamReport struct {
	Team    string
	Letters []CharacterScore // A..Z
	Trials  []TrialView      // trials with an image, by letter then trial
	// Sheet is the contact sheet's path (when written).
	Sheet string
}

// FolderReport is ReportFolder's result.
type FolderReport struct {
	Scores *Scores
	Teams  []TeamReport
	// Warnings are teams scored with missing letters (see Evaluate).
	Warnings []Failure
	// Removed counts the stale contact sheets removed: those of teams no longer in the folder.
	Removed int
}

// ContactSheetsDir is where ReportFolder writes the sheets: DIR/result/contact-sheets/TEAM.png.
const ContactSheetsDir = "contact-sheets"

// ReportFolder scores an evaluated competition folder (writing DIR/result as ScoreStage does)
// and writes one contact sheet per team. It holds the folder's lock.
func ReportFolder(ctx context.Context, dir string, opt Options) (*FolderReport, error) {
	return locked(dir, func() (*FolderReport, error) {
		sc, warnings, err := scoreStage(ctx, dir, opt, true)
		if err != nil {
			return nil, err
		}
		rep := &FolderReport{Scores: sc, Warnings: warnings}
		for _, p := range teamOrder(sc) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			tr := TeamReport{Team: p, Trials: TeamTrials(dir, p, sc)}
			sheetTrials := append(append([]TrialView(nil), tr.Trials...), FailedTrials(dir, p, opt)...)
			for _, c := range sc.Characters {
				if c.Team == p {
					tr.Letters = append(tr.Letters, c)
				}
			}
			sheet, err := ContactSheet(sheetTrials, max(opt.TrialsPerLetter, maxTrial(sheetTrials)))
			if err != nil {
				return nil, err
			}
			var buf bytes.Buffer
			if err := png.Encode(&buf, sheet); err != nil {
				return nil, err
			}
			name := p + ".png"
			if err := writeOut(dir, name, buf.Bytes(), StageResult, ContactSheetsDir); err != nil {
				rep.Warnings = append(rep.Warnings, Failure{File: filepath.Join(StageResult, ContactSheetsDir, name), Err: err.Error()})
				rep.Teams = append(rep.Teams, tr)
				continue
			}
			tr.Sheet = filepath.Join(dir, StageResult, ContactSheetsDir, name)
			rep.Teams = append(rep.Teams, tr)
		}
		sheets := map[string]bool{}
		for _, t := range rep.Teams {
			sheets[t.Team+".png"] = true
		}
		rep.Removed, err = pruneStale(dir, sheets, ".png", nil, StageResult, ContactSheetsDir)
		return rep, err
	})
}

// teamOrder is the teams in folder order (the order of the trial rows).
func teamOrder(sc *Scores) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range sc.Trials {
		if !seen[t.Team] {
			seen[t.Team] = true
			out = append(out, t.Team)
		}
	}
	return out
}

// realFile reports whether path is a regular file (not a link).
func realFile(path string) bool {
	info, err := os.Lstat(path)
	return err == nil && info.Mode().IsRegular()
}

// ReadTrialLevel reads a trial's level file as the pipeline reads inputs (bounded, no links).
func ReadTrialLevel(v TrialView) ([]byte, error) {
	if v.Level == "" {
		return nil, fmt.Errorf("%s %s trial %d has no level file", v.Team, v.Letter, v.Trial)
	}
	return readInput(v.Level, MaxLevelBytes)
}

func maxTrial(ts []TrialView) int {
	n := 0
	for _, t := range ts {
		n = max(n, t.Trial)
	}
	return n
}

// TeamTrials lists a team's evaluated trials (those with an image) with their level file and
// their scores in sc (zero when sc is nil or has no row for the trial).
func TeamTrials(dir, team string, sc *Scores) []TrialView {
	type key struct {
		letter string
		trial  int
	}
	scores := map[key]TrialScore{}
	if sc != nil {
		for _, t := range sc.Trials {
			if t.Team == team {
				scores[key{t.Character, t.Trial}] = t
			}
		}
	}
	var out []TrialView
	idir := filepath.Join(dir, team, StageImages)
	if realDir(idir) != nil {
		return nil
	}
	for _, letter := range subdirs(idir) {
		if len(letter) != 1 || letter[0] < 'A' || letter[0] > 'Z' {
			continue
		}
		for _, name := range filesIn(filepath.Join(idir, letter)) {
			if !strings.HasSuffix(name, ".png") || strings.HasSuffix(name, "_raw.png") {
				continue
			}
			n, ok := TrialNumber(name)
			if !ok || n < 1 {
				continue
			}
			s := scores[key{letter, n}]
			v := TrialView{Team: team, Letter: letter, Trial: n, Image: filepath.Join(idir, letter, name),
				Stability: s.Stability.Float(), Similarity: s.Similarity.Float()}
			if lvl := filepath.Join(dir, team, StageLevels, letter, strings.TrimSuffix(name, ".png")+".xml"); realFile(lvl) {
				v.Level = lvl
			}
			out = append(out, v)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Letter != out[j].Letter {
			return out[i].Letter < out[j].Letter
		}
		return out[i].Trial < out[j].Trial
	})
	return out
}

// Contact sheet geometry: a thumbnail per trial, two caption lines under it, a letter column.
const (
	sheetThumb   = 128
	sheetCaption = 30
	sheetPad     = 6
	sheetLabel   = 24
)

// ContactSheet draws a team's images: one row per letter with images, one column per trial
// (1..trials), "stab 0.667" and "sim 0.812" under each. An image that cannot be read is a grey
// cell marked "unreadable"; the sheet is still drawn.
func ContactSheet(trials []TrialView, columns int) (*image.RGBA, error) {
	columns = max(columns, 1)
	var letters []string
	row := map[string]int{}
	for _, t := range trials {
		if _, ok := row[t.Letter]; !ok {
			row[t.Letter] = len(letters)
			letters = append(letters, t.Letter)
		}
	}
	cellW, cellH := sheetThumb+sheetPad, sheetThumb+sheetCaption+sheetPad
	w := sheetLabel + columns*cellW + sheetPad
	h := max(len(letters), 1)*cellH + sheetPad
	if int64(w)*int64(h) > 64<<20 {
		return nil, fmt.Errorf("%w: contact sheet of %d×%d cells", ErrTooLarge, columns, len(letters))
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Rect, image.NewUniform(color.White), image.Point{}, draw.Src)
	ink := color.RGBA{0x20, 0x20, 0x20, 0xff}
	for i, l := range letters {
		sheetText(img, l, 8, sheetPad+i*cellH+sheetThumb/2-6, ink)
	}
	for _, t := range trials {
		if t.Trial > columns {
			continue
		}
		x0 := sheetLabel + (t.Trial-1)*cellW + sheetPad
		y0 := sheetPad + row[t.Letter]*cellH
		cell := image.Rect(x0, y0, x0+sheetThumb, y0+sheetThumb)
		if t.Failed != "" {
			draw.Draw(img, cell, image.NewUniform(color.RGBA{0xf4, 0xd6, 0xd6, 0xff}), image.Point{}, draw.Src)
			sheetText(img, "FAILED", x0+4, y0+4, color.RGBA{0xa0, 0x10, 0x10, 0xff})
			for i, line := range wrapText(t.Failed, (sheetThumb-8)/7, 7) {
				sheetText(img, line, x0+4, y0+20+i*14, ink)
			}
			frame(img, cell, color.RGBA{0x99, 0x99, 0x99, 0xff})
			continue
		} else if src := readThumbSource(t.Image); src != nil {
			thumbnail(img, cell, src)
		} else {
			draw.Draw(img, cell, image.NewUniform(color.RGBA{0xcc, 0xcc, 0xcc, 0xff}), image.Point{}, draw.Src)
			sheetText(img, "unreadable", x0+4, y0+sheetThumb/2-6, ink)
		}
		frame(img, cell, color.RGBA{0x99, 0x99, 0x99, 0xff})
		sheetText(img, fmt.Sprintf("stab %.3f", t.Stability), x0, y0+sheetThumb+1, ink)
		sheetText(img, fmt.Sprintf("sim  %.3f", t.Similarity), x0, y0+sheetThumb+15, ink)
	}
	return img, nil
}

// FailedTrials lists a team's trials that have an answer but no image, each with why: the
// extraction's or the conversion's own error (both are cheap and deterministic, so they are
// run again on the stored inputs), or the stage that produced nothing.
func FailedTrials(dir, team string, opt Options) []TrialView {
	var out []TrialView
	rdir := filepath.Join(dir, team, StageRaw)
	if realDir(rdir) != nil {
		return nil
	}
	for _, letter := range subdirs(rdir) {
		if len(letter) != 1 || letter[0] < 'A' || letter[0] > 'Z' {
			continue
		}
		for _, name := range filesIn(filepath.Join(rdir, letter)) {
			stem, ok := strings.CutSuffix(name, ".txt")
			n, numbered := TrialNumber(name)
			if !ok || !numbered || n < 1 || realFile(filepath.Join(dir, team, StageImages, letter, stem+".png")) {
				continue
			}
			out = append(out, TrialView{Team: team, Letter: letter, Trial: n, Failed: failureOf(dir, team, letter, stem, opt)})
		}
	}
	return out
}

// failureOf says why a trial stopped before its image.
func failureOf(dir, team, letter, stem string, opt Options) string {
	if !isASCII(stem) {
		return "file name not ASCII"
	}
	prog := filepath.Join(dir, team, StageIntermediate, letter, stem+".txt")
	if !realFile(prog) {
		data, err := readInput(filepath.Join(dir, team, StageRaw, letter, stem+".txt"), MaxResponseBytes)
		if err == nil {
			_, err = ExtractCodePrefix(string(data), opt.functionName())
		}
		if err != nil {
			return "extract: " + err.Error()
		}
		return "not extracted (evaluate again)"
	}
	if !realFile(filepath.Join(dir, team, StageLevels, letter, stem+".xml")) {
		data, err := readInput(prog, MaxProgramBytes)
		if err == nil {
			_, err = ConvertPrefix(string(data), opt.functionName()+"(")
		}
		if err != nil {
			return "convert: " + err.Error()
		}
		return "not converted (evaluate again)"
	}
	return "no image: the level was not simulated (see the stability stage's report)"
}

// wrapText breaks s into at most maxLines lines of at most width characters (the last one
// ending in "..." when s is longer).
func wrapText(s string, width, maxLines int) []string {
	var lines []string
	r := []rune(s)
	for len(r) > 0 && len(lines) < maxLines {
		n := min(width, len(r))
		if n < len(r) {
			if sp := strings.LastIndex(string(r[:n]), " "); sp > 0 {
				n = len([]rune(string(r[:n])[:sp])) + 1
			}
		}
		lines = append(lines, strings.TrimSpace(string(r[:n])))
		r = r[n:]
	}
	if len(r) > 0 && len(lines) > 0 {
		last := []rune(lines[len(lines)-1])
		lines[len(lines)-1] = string(last[:max(len(last)-3, 0)]) + "..."
	}
	return lines
}

// readThumbSource decodes an evaluator image (bounded read, no links); nil when it cannot.
func readThumbSource(path string) image.Image {
	if path == "" {
		return nil
	}
	data, err := readInput(path, maxImageBytes)
	if err != nil {
		return nil
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > 16<<20 {
		return nil
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	return img
}

// thumbnail scales src into cell keeping its aspect ratio; a cell pixel is black when any of a
// few samples of its source box is dark, so thin structures stay visible.
func thumbnail(dst *image.RGBA, cell image.Rectangle, src image.Image) {
	b := src.Bounds()
	scale := max(float64(b.Dx())/float64(cell.Dx()), float64(b.Dy())/float64(cell.Dy()))
	for y := 0; y < cell.Dy(); y++ {
		for x := 0; x < cell.Dx(); x++ {
			dark := false
			for _, o := range [...][2]float64{{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}} {
				sx, sy := b.Min.X+int((float64(x)+o[0])*scale), b.Min.Y+int((float64(y)+o[1])*scale)
				if sx >= b.Max.X || sy >= b.Max.Y {
					continue
				}
				r, g, bl, _ := src.At(sx, sy).RGBA()
				if r+g+bl < 3*0x8000 {
					dark = true
					break
				}
			}
			if dark {
				dst.SetRGBA(cell.Min.X+x, cell.Min.Y+y, color.RGBA{0, 0, 0, 0xff})
			}
		}
	}
}

func frame(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	for x := r.Min.X - 1; x <= r.Max.X; x++ {
		img.SetRGBA(x, r.Min.Y-1, c)
		img.SetRGBA(x, r.Max.Y, c)
	}
	for y := r.Min.Y - 1; y <= r.Max.Y; y++ {
		img.SetRGBA(r.Min.X-1, y, c)
		img.SetRGBA(r.Max.X, y, c)
	}
}

func sheetText(dst *image.RGBA, s string, x, y int, c color.RGBA) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y+11)}
	d.DrawString(s)
}

package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"sort"
	"strconv"

	"pcgwb/problems"
	"pcgwb/problems/levelio"
)

// itemsJSON encodes members as an item file, {"problem": ..., "items": [{"content", "control"}]}:
// what `workbench eval` reads and what the Python reference loads with json.load (contents and
// controls in its own JSON shapes).
func itemsJSON(problem string, members []member) ([]byte, error) {
	f := problems.ItemFile{Problem: problem, Items: make([]problems.Item, len(members))}
	for i := range members {
		f.Items[i] = problems.Item{ID: strconv.Itoa(members[i].index + 1), Content: members[i].Content, Control: members[i].Control}
	}
	data, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// metricsCSV writes one row per member: its number, the four metrics, the pass flags, the
// control (as JSON) and every numeric info field any member has (blank where one lacks it).
func metricsCSV(w io.Writer, members []member) error {
	fieldSet := map[string]bool{}
	for i := range members {
		for k := range members[i].infoNumbers() {
			fieldSet[k] = true
		}
	}
	fields := make([]string, 0, len(fieldSet))
	for k := range fieldSet {
		fields = append(fields, k)
	}
	sort.Strings(fields)
	cw := csv.NewWriter(w)
	head := []string{"item", "quality", "diversity", "controllability", "fitness", "feasible", "unique", "controlled", "control"}
	for _, f := range fields {
		head = append(head, "info."+f)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for i := range members {
		m := &members[i]
		control := ""
		if m.Control != nil {
			b, err := json.Marshal(m.Control)
			if err != nil {
				return err
			}
			control = string(b)
		}
		row := []string{strconv.Itoa(m.index + 1), num(m.Quality), num(m.Diversity), num(m.Controllability), num(m.Fitness),
			strconv.FormatBool(m.Feasible()), strconv.FormatBool(m.Unique()), strconv.FormatBool(m.Controlled()), control}
		nums := m.infoNumbers()
		for _, f := range fields {
			if v, ok := nums[f]; ok {
				row = append(row, num(v))
			} else {
				row = append(row, "")
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// contactSheet lays images out in a grid on the workbench's ink background, each at its own
// pixel size in a cell as large as the largest one, with gap pixels between cells. Nil images
// leave their cell empty. A single image comes back as it is.
func contactSheet(imgs []image.Image, gap int) image.Image {
	if len(imgs) == 1 && imgs[0] != nil {
		return imgs[0]
	}
	cw, ch := 1, 1
	for _, im := range imgs {
		if im != nil {
			cw, ch = max(cw, im.Bounds().Dx()), max(ch, im.Bounds().Dy())
		}
	}
	n := max(len(imgs), 1)
	cols := int(math.Ceil(math.Sqrt(float64(n) * float64(ch) / float64(cw))))
	cols = max(1, min(cols, n))
	rows := (n + cols - 1) / cols
	sheet := image.NewRGBA(image.Rect(0, 0, cols*cw+(cols+1)*gap, rows*ch+(rows+1)*gap))
	draw.Draw(sheet, sheet.Bounds(), image.NewUniform(color.RGBA(pal('k'))), image.Point{}, draw.Src)
	for i, im := range imgs {
		if im == nil {
			continue
		}
		x := gap + (i%cols)*(cw+gap) + (cw-im.Bounds().Dx())/2
		y := gap + (i/cols)*(ch+gap) + (ch-im.Bounds().Dy())/2
		r := image.Rect(x, y, x+im.Bounds().Dx(), y+im.Bounds().Dy())
		draw.Draw(sheet, r, im, im.Bounds().Min, draw.Over)
	}
	return sheet
}

// encodePNG is png.Encode into bytes.
func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("png: %w", err)
	}
	return buf.Bytes(), nil
}

// exportLevels writes members of the problem registered as name into the folder dir as
// VGLC-style text with its legend and, for problems drawn tile by tile, Tiled maps over a
// tileset PNG (levelio.Export): the detail view's "Tiled / text…" and, for a selection, the
// gallery's export.
func exportLevels(dir, base, name string, p problems.Problem, members []member) ([]string, error) {
	items := make([]problems.Item, len(members))
	for i := range members {
		items[i] = members[i].Item()
	}
	return levelio.Export(dir, base, name, p, items)
}

package app

import (
	"bytes"
	"context"
	"encoding/csv"
	"image"
	"image/color"
	"reflect"
	"testing"

	"pcgwb/problems"
)

func TestItemsJSONIsAnItemFile(t *testing.T) {
	p, _ := problems.Make(fakeName)
	set, err := SampleAndEvaluate(context.Background(), fakeName, p, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	data, err := itemsJSON(fakeName, membersOfSample(set))
	if err != nil {
		t.Fatal(err)
	}
	items, err := problems.DecodeItems(p, data)
	if err != nil {
		t.Fatalf("the export does not load back: %v", err)
	}
	if itemsFileText(t, stripIDs(items)) != itemsFileText(t, problems.ItemsOf(set.Levels)) {
		t.Fatal("content or control changed on the way")
	}
	if !bytes.Contains(data, []byte(`"items"`)) || !bytes.Contains(data, []byte(`"content"`)) || !bytes.Contains(data, []byte(`"control"`)) {
		t.Fatalf("not the reference's item layout:\n%s", data)
	}
}

func stripIDs(items []problems.Item) []problems.Item {
	for i := range items {
		items[i].ID = ""
	}
	return items
}

func TestMetricsCSV(t *testing.T) {
	ms := []member{
		newMember(0, problems.Scored{Quality: 1, Diversity: 0.5, Controllability: 1, Fitness: 1, Control: map[string]any{"walls": 3}, Info: map[string]any{"walls": 3, "x": 1}}),
		newMember(1, problems.Scored{Quality: 0.25, Info: map[string]any{"walls": 9}}),
	}
	var buf bytes.Buffer
	if err := metricsCSV(&buf, ms); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"item", "quality", "diversity", "controllability", "fitness", "feasible", "unique", "controlled", "control", "info.walls", "info.x"},
		{"1", "1", "0.5", "1", "1", "true", "false", "true", `{"walls":3}`, "3", "1"},
		{"2", "0.25", "0", "0", "0", "false", "false", "false", "", "9", ""},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Fatalf("csv\n%v\nwant\n%v", rows, want)
	}
}

func TestContactSheet(t *testing.T) {
	a := image.NewRGBA(image.Rect(0, 0, 10, 6))
	for i := range a.Pix {
		a.Pix[i] = 0xff
	}
	if contactSheet([]image.Image{a}, 4) != image.Image(a) {
		t.Fatal("one picture should come back as it is")
	}
	sheet := contactSheet([]image.Image{a, a, nil, a}, 4)
	b := sheet.Bounds()
	if b.Dx() < 2*10+3*4 || b.Dy() < 2*6+3*4 {
		t.Fatalf("sheet %v", b)
	}
	if c := color.RGBAModel.Convert(sheet.At(4, 4)).(color.RGBA); c != (color.RGBA{0xff, 0xff, 0xff, 0xff}) {
		t.Fatalf("first picture not at the first cell: %v", c)
	}
}

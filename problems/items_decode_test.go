package problems_test

import (
	"fmt"
	"strings"
	"testing"

	"pcgwb/problems"
)

func TestDecodeItemsBOMFractionsAndHugeNumbers(t *testing.T) {
	p, err := problems.Make("binary-v0")
	if err != nil {
		t.Fatal(err)
	}
	row := strings.TrimSuffix(strings.Repeat("0,", 14), ",")
	grid := func(first string) string {
		rows := make([]string, 14)
		for i := range rows {
			rows[i] = "[" + row + "]"
		}
		rows[0] = "[" + first + "," + strings.TrimSuffix(strings.Repeat("0,", 13), ",") + "]"
		return `{"items":[{"content":[` + strings.Join(rows, ",") + `]}]}`
	}
	for _, tc := range []struct {
		name, in, want string
	}{
		{"plain", grid("1"), ""},
		{"bom", "\xef\xbb\xbf" + grid("1"), ""},
		{"whole float", grid("1.0"), ""},
		{"fraction", grid("1.5"), "1.5 is not an integer"},
		{"huge", grid("123456789012345678901234567890"), "value 123456789012345678901234567890 is outside"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := problems.DecodeItems(p, []byte(tc.in))
			if tc.want == "" && err != nil {
				t.Fatal(err)
			}
			if tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestDecodeItemsQuotesLongIDsShort(t *testing.T) {
	p, err := problems.Make("binary-v0")
	if err != nil {
		t.Fatal(err)
	}
	id := strings.Repeat("x", 1<<20)
	_, err = problems.DecodeItems(p, []byte(`{"items":[{"id":"`+id+`","content":"no"}]}`))
	if err == nil || len(err.Error()) > 300 {
		t.Fatalf("error of %d bytes", len(fmt.Sprint(err)))
	}
}

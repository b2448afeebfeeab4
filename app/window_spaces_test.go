package app

import (
	"testing"

	"pcgwb/problems/space"
)

func TestDescribeSpace(t *testing.T) {
	tests := []struct {
		name string
		s    space.Space
		want string
	}{
		{"grid", space.Grid(7, 11, 8), "7 × 11 grid of integers 0–7"},
		{"int", space.Int{Min: 2, Max: 5}, "integer 2–4"},
		{"single int", space.Int{Min: 3, Max: 4}, "integer 3"},
		{"float", space.Float{Min: 0, Max: 1.5}, "number in [0, 1.5)"},
		{"const", space.Const{Value: "x"}, `constant "x"`},
		{"list of same", space.List{space.Int{Min: 0, Max: 3}, space.Int{Min: 0, Max: 3}}, "list of 2 × integer 0–2"},
		{"dict", space.Dict{
			{Key: "enemies", Space: space.Int{Min: 0, Max: 10}},
			{Key: "map", Space: space.Array{Dims: []int{4}, Leaf: space.Float{Min: -1, Max: 1}}},
			{Key: "rooms", Space: space.Dict{{Key: "n", Space: space.Int{Min: 1, Max: 9}}}},
		}, "enemies: integer 0–9\nmap:\n  list of 4 numbers in [-1, 1)\nrooms:\n  n: integer 1–8"},
		{"empty dict", space.Dict{}, "(nothing)"},
		{"list of dicts", space.Array{Dims: []int{40}, Leaf: space.Dict{{Key: "x", Space: space.Int{Min: 0, Max: 7}}}}, "list of 40, each:\n  x: integer 0–6"},
		{"3-d", space.Array{Dims: []int{2, 3, 4}, Leaf: space.Int{Min: 0, Max: 2}}, "2 × 3 × 4 array of integers 0–1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := describeSpace(tt.s); got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

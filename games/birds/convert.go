package birds

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Grid size of the drop_block world and the cell size in Science Birds units of 1e-5 (0.2401).
// Every coordinate the converter writes is a multiple of 1e-5, so integer arithmetic in these
// units reproduces the organisers' arbitrary-precision decimals byte for byte.
const (
	GridWidth  = 20
	GridHeight = 16
	cellUnits  = 24010
)

// fromUnits is correctly rounded, so the shortest decimal of the result is the exact decimal
// the organisers print.
func fromUnits(u int64) float64 { return float64(u) / 1e5 }

// Piece is one drop_block block type.
type Piece int8

const (
	B11 Piece = iota // 1×1, SquareTiny
	B13              // 1 wide, 3 tall: RectSmall rotated 90°
	B31              // 3 wide, 1 tall: RectSmall
)

func (p Piece) String() string { return [...]string{"b11", "b13", "b31"}[p] }

// Size is the footprint in grid cells.
func (p Piece) Size() (w, h int) {
	switch p {
	case B13:
		return 1, 3
	case B31:
		return 3, 1
	}
	return 1, 1
}

// BlockType and Rotation are how the converter writes the piece into a level.
func (p Piece) BlockType() string {
	if p == B11 {
		return "SquareTiny"
	}
	return "RectSmall"
}

func (p Piece) Rotation() float64 {
	if p == B13 {
		return 90
	}
	return 0
}

// Placement is a dropped block: its centre column and bottom row on the grid.
type Placement struct {
	Piece Piece `json:"piece"`
	Col   int   `json:"col"`
	Row   int   `json:"row"`
}

// The organisers' converter messages, kept verbatim because logs and tables quote them.
const (
	MsgBlockType = "BlockType does not exist."
	MsgHeight    = "Height boundary is intruded."
	MsgWidth     = "Width boundary is intruded."
)

// ConversionError is a drop_block call the converter rejects; any one discards the whole trial.
// Error() is exactly the organisers' message; Line (1-based, in the lower-cased program) and
// Call locate it.
type ConversionError struct {
	Msg  string
	Line int
	Call string
}

func (e *ConversionError) Error() string { return e.Msg }

// Detail is the message with its location, for people.
func (e *ConversionError) Detail() string {
	return fmt.Sprintf("line %d %q: %s", e.Line, e.Call, e.Msg)
}

// Structure is a converted program: the placements in call order before the left shift, the
// shift, and the occupancy grid after the shift (row 0 at the bottom).
type Structure struct {
	Placed []Placement
	Shift  int
	Grid   [GridHeight][GridWidth]bool
}

// MaxProgramBytes bounds a drop_block program. Each accepted call claims a free grid cell, so
// a valid program has at most 320 calls; the bound only keeps the line scan of junk input cheap.
const MaxProgramBytes = 4 << 20

// Convert runs a drop_block program (normally ExtractCode's output; any text is accepted, lines
// not starting with "drop_block(" after lower-casing are skipped) exactly like the organisers'
// convertTextToXML(text, "drop_block("): drop simulation on the 20×16 grid, then the left shift.
func Convert(program string) (*Structure, error) { return ConvertPrefix(program, DropBlock+"(") }

// ConvertPrefix is Convert for another call prefix ("ab_drop(" for 2023 programs).
func ConvertPrefix(program, callPrefix string) (*Structure, error) {
	if len(program) > MaxProgramBytes {
		return nil, fmt.Errorf("%w: program of %d bytes (limit %d)", ErrTooLarge, len(program), MaxProgramBytes)
	}
	s := &Structure{}
	var grid [GridHeight][GridWidth]bool
	prefixUnits := len(utf16.Encode([]rune(callPrefix)))
	for i, line := range strings.Split(jsLower(program), "\n") {
		if !strings.HasPrefix(line, callPrefix) {
			continue
		}
		fail := func(msg string) error { return &ConversionError{Msg: msg, Line: i + 1, Call: line} }
		u := utf16.Encode([]rune(line))
		comma := indexUnit(u, ',')
		piece, ok := parsePiece(jsSubstring(u, prefixUnits+1, comma-1))
		if !ok {
			return nil, fail(MsgBlockType)
		}
		col, ok := parseSlot(u[comma+1:])
		if !ok || grid[GridHeight-1][col] {
			return nil, fail(MsgHeight)
		}
		w, h := piece.Size()
		half := (w - 1) / 2
		row := GridHeight - 1
		for r := GridHeight - 1; r >= 0; r-- {
			if grid[r][col] {
				break
			}
			if half > 0 {
				if col-half < 0 || col+half > GridWidth-1 {
					return nil, fail(MsgWidth)
				}
				if grid[r][col-half] || grid[r][col+half] {
					break
				}
			}
			row = r
		}
		// A b31 whose side cell in the top row is taken still lands in the top row, overlapping
		// it: the organisers' scan starts from row 15 as the default and never re-checks.
		for j := -half; j <= half; j++ {
			grid[row][col+j] = true
		}
		for j := 1; j < h; j++ {
			if row+j > GridHeight-1 {
				return nil, fail(MsgHeight)
			}
			grid[row+j][col] = true
		}
		s.Placed = append(s.Placed, Placement{piece, col, row})
	}
	shift := GridWidth
	for r := range grid {
		for c := range grid[r] {
			if grid[r][c] && c < shift {
				shift = c
			}
		}
	}
	s.Shift = shift
	for r := range grid {
		for c := shift; c < GridWidth; c++ {
			s.Grid[r][c-shift] = grid[r][c]
		}
	}
	return s, nil
}

func parsePiece(u []uint16) (Piece, bool) {
	if len(u) != 3 || u[0] != 'b' {
		return 0, false
	}
	switch {
	case u[1] == '3' && u[2] == '1':
		return B31, true
	case u[1] == '1' && u[2] == '3':
		return B13, true
	case u[1] == '1' && u[2] == '1':
		return B11, true
	}
	return 0, false
}

// parseSlot is JavaScript's parseInt(text.split(')')[0].trim(), 10) restricted to what can index
// a grid column: a valid column 0..19 (-0 and +7 included) or not ok (NaN, negative, too large).
func parseSlot(u []uint16) (int, bool) {
	if i := indexUnit(u, ')'); i >= 0 {
		u = u[:i]
	}
	for len(u) > 0 && jsSpace(u[0]) {
		u = u[1:]
	}
	neg := false
	if len(u) > 0 && (u[0] == '+' || u[0] == '-') {
		neg = u[0] == '-'
		u = u[1:]
	}
	n, digits := 0, 0
	for _, c := range u {
		if c < '0' || c > '9' {
			break
		}
		digits++
		if n < GridWidth {
			n = n*10 + int(c-'0')
		}
	}
	if digits == 0 || n >= GridWidth || neg && n != 0 {
		return 0, false
	}
	return n, true
}

// jsSpace is JavaScript's WhiteSpace and LineTerminator set (what trim and parseInt skip).
func jsSpace(c uint16) bool {
	switch c {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= c && c <= 0x200A
}

func indexUnit(u []uint16, c uint16) int {
	for i, x := range u {
		if x == c {
			return i
		}
	}
	return -1
}

// jsSubstring is String.prototype.substring: arguments clamped to [0, len] and swapped when
// start > end (so a missing comma does not crash, it just yields a wrong block type).
func jsSubstring(u []uint16, start, end int) []uint16 {
	start = min(max(start, 0), len(u))
	end = min(max(end, 0), len(u))
	if start > end {
		start, end = end, start
	}
	return u[start:end]
}

// jsLower is String.prototype.toLowerCase as far as it matters here: Go's simple case mapping
// plus the one unconditional special case that changes the UTF-16 length (İ → i̇), which shifts
// the substring positions the converter works with. Final-sigma context only swaps σ for ς,
// which no rule looks at.
func jsLower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return asciiLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == 'İ' {
			b.WriteString("i\u0307")
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// blockUnits returns the level's blocks in call order with the converter's coordinates (units of
// 1e-5): centre x = 2 + (col + ½)·c, centre y = −3.5 + (row + h/2)·c.
func (s *Structure) blockUnits() []blockUnits {
	out := make([]blockUnits, len(s.Placed))
	for i, p := range s.Placed {
		_, h := p.Piece.Size()
		out[i] = blockUnits{
			piece: p.Piece,
			x:     200000 + int64(p.Col-s.Shift)*cellUnits + cellUnits/2,
			y:     -350000 + int64(p.Row)*cellUnits + int64(h)*cellUnits/2,
		}
	}
	return out
}

type blockUnits struct {
	piece Piece
	x, y  int64
}

// Level converts the structure to the Science Birds level the organisers write: level width,
// camera from the occupied extent, one red bird, the slingshot, and one wooden block per call.
func (s *Structure) Level() *Level {
	widest, top := 0, 0
	for r := range s.Grid {
		n := 0
		for _, on := range s.Grid[r] {
			if on {
				n++
			}
		}
		widest = max(widest, n)
		if n > 0 {
			top = r
		}
	}
	contentW := 200000 + int64(widest)*cellUnits
	contentH := 350000 + int64(top+1)*cellUnits
	camera := max(2*max(contentH*16/10, contentW), 1700000)
	lv := &Level{
		Width:     int(contentW/1800000) + 3,
		Camera:    Camera{X: 2, Y: 0, MinWidth: fromUnits(camera), MaxWidth: fromUnits(camera + 500000)},
		Birds:     []string{"BirdRed"},
		Slingshot: Point{X: -9, Y: -2.5},
	}
	for _, b := range s.blockUnits() {
		lv.Objects = append(lv.Objects, Object{
			Kind: KindBlock, Type: b.piece.BlockType(), Material: "wood",
			X: fromUnits(b.x), Y: fromUnits(b.y), Rotation: b.piece.Rotation(),
		})
	}
	return lv
}

// ConvertToXML is the organisers' convertTextToXML: the level file text of a program, or the
// conversion error that discards the trial.
func ConvertToXML(program string) (string, error) {
	s, err := Convert(program)
	if err != nil {
		return "", err
	}
	return s.Level().XML(), nil
}

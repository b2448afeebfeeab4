package assets

import "strings"

// Arcade Rules: the player's avatar and the three kinds of piece (red, green and yellow blobs
// with eyes, so they read as creatures rather than tiles).
func init() {
	Define("arcade_player",
		"................",
		"......wwww......",
		".....wccccw.....",
		".....ckcckc.....",
		".....cccccc.....",
		"......cwwc......",
		"....bbccccbb....",
		"...bbbccccbbb...",
		"...cc.cccc.cc...",
		"...cc.cccc.cc...",
		"......bbbb......",
		"......b..b......",
		".....bb..bb.....",
		".....bb..bb.....",
		"....nnn..nnn....",
		"................",
	)
	// B is the body colour, S its shade.
	blob := []string{
		"................",
		"................",
		"......BBBB......",
		"....BBBBBBBB....",
		"...BBBBBBBBBB...",
		"..BBwwBBBBwwBB..",
		"..BBwkBBBBwkBB..",
		".BBBwkBBBBwkBBB.",
		".BBBBBBBBBBBBBB.",
		".BBBBBBBBBBBBBB.",
		".BBBBBkkkkBBBBS.",
		".SBBBBBBBBBBBBS.",
		".SSBBBBBBBBBBSS.",
		".SS.SSS..SSS.SS.",
		".S...S....S...S.",
		"................",
	}
	for _, c := range []struct{ name, body, shade string }{
		{"arcade_red", "r", "p"},
		{"arcade_green", "g", "t"},
		{"arcade_yellow", "y", "o"},
	} {
		rows := make([]string, len(blob))
		paint := strings.NewReplacer("B", c.body, "S", c.shade)
		for i, r := range blob {
			rows[i] = paint.Replace(r)
		}
		Define(c.name, rows...)
	}
}

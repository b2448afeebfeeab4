package assets

// Isaac: a room base (stone walls around a brown floor), door marks that cut an opening into
// one wall (the renderer composes the 15 door masks from them, so openings of neighbouring
// rooms meet), an empty cell, and the start/boss/shop/treasure icons drawn over rooms.
func init() {
	Define("isaac_void",
		"kkkkkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
		"kkkkkkkkkkkdkkkk",
		"kkkkkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
		"kkkdkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
	)
	Define("isaac_room",
		"kkkkkkkkkkkkkkkk",
		"khhhhhhhhhhhhhhk",
		"khddddddddddddhk",
		"khdmmmmmmmmmmdhk",
		"khdmmmmmmmmmmdhk",
		"khdmmmmmmmmpmdhk",
		"khdmmmmmmmmmmdhk",
		"khdmmmmmmmmmmdhk",
		"khdmmmmmmmmmmdhk",
		"khdmmmmmmmmmmdhk",
		"khdmpmmmmmmmmdhk",
		"khdmmmmmmmmmmdhk",
		"khdmmmmmmmmmmdhk",
		"khddddddddddddhk",
		"khhhhhhhhhhhhhhk",
		"kkkkkkkkkkkkkkkk",
	)
	Define("isaac_door_left",
		"................",
		"................",
		"................",
		"................",
		"................",
		"ooo.............",
		"mmm.............",
		"mmm.............",
		"mmm.............",
		"mmm.............",
		"ooo.............",
		"................",
		"................",
		"................",
		"................",
		"................",
	)
	Define("isaac_door_right",
		"................",
		"................",
		"................",
		"................",
		"................",
		".............ooo",
		".............mmm",
		".............mmm",
		".............mmm",
		".............mmm",
		".............ooo",
		"................",
		"................",
		"................",
		"................",
		"................",
	)
	Define("isaac_door_up",
		".....ommmmo.....",
		".....ommmmo.....",
		".....ommmmo.....",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
	)
	Define("isaac_door_down",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		".....ommmmo.....",
		".....ommmmo.....",
		".....ommmmo.....",
	)
	// The icons are 10×10, centred on the room's floor.
	Define("isaac_start", roomIcon(
		"...ssss...",
		".sswwwwss.",
		".swwwwwws.",
		"swkwwwwkws",
		"swkwwwwkws",
		"scwwwwwwcs",
		"scwwkkwwcs",
		".swwwwwws.",
		"..ssssss..",
		"..........",
	)...)
	Define("isaac_boss", roomIcon(
		"r........r",
		"rr......rr",
		".rrrrrrrr.",
		"rrrrrrrrrr",
		"rryrrrryrr",
		"rrkrrrrkrr",
		"rrrrrrrrrr",
		"rkwkwkwkwr",
		".rkkkkkkr.",
		"..rrrrrr..",
	)...)
	Define("isaac_shop", roomIcon(
		"..oooooo..",
		".oyyykyyo.",
		"oyykkkkyyo",
		"oyykyyyyyo",
		"oyykkkkyyo",
		"oyyyyykyyo",
		"oyykkkkyyo",
		".oyyykyyo.",
		"..oooooo..",
		"..........",
	)...)
	Define("isaac_treasure", roomIcon(
		"..........",
		".kkkkkkkk.",
		"kyyyyyyyyk",
		"kyooooooyk",
		"kkkkyykkkk",
		"kyyykkyyyk",
		"kyooooooyk",
		"kyooooooyk",
		"kkkkkkkkkk",
		"..........",
	)...)
}

// roomIcon centres a 10×10 icon in a transparent 16×16 sprite.
func roomIcon(rows ...string) []string {
	const pad = (TileSize - 10) / 2
	blank := "................"
	out := make([]string, 0, TileSize)
	for i := 0; i < pad; i++ {
		out = append(out, blank)
	}
	for _, r := range rows {
		out = append(out, blank[:pad]+r+blank[:pad])
	}
	for len(out) < TileSize {
		out = append(out, blank)
	}
	return out
}

package assets

// Binary: a raised dark block for solid tiles and a pale flagstone for empty ones, so the
// empty paths read at a glance against the walls.
func init() {
	Define("binary_solid",
		"hhhhhhhhhhhhhhhk",
		"hsssssssssssssdk",
		"hsddddddddddddkk",
		"hsddddddddddddkk",
		"hsddhddddddhddkk",
		"hsdddddddddddhkk",
		"hsddddddddddddkk",
		"hsddddddhdddddkk",
		"hsddddddddddddkk",
		"hsdhddddddddddkk",
		"hsddddddddddddkk",
		"hsddddddddhdddkk",
		"hsddddddddddddkk",
		"hsddddddddddddkk",
		"hdkkkkkkkkkkkkkk",
		"kkkkkkkkkkkkkkkk",
	)
	Define("binary_empty",
		"ssssssssssssssss",
		"swwwwwwwwwwwwwws",
		"swwwwwwwwwwwwwws",
		"swwwwwwwwwwsswws",
		"swwwwwwwwwwwwwws",
		"swwsswwwwwwwwwws",
		"swwwwwwwwwwwwwws",
		"swwwwwwwwwwwwwws",
		"swwwwwwwwwwwwwws",
		"swwwwwwwwwwwwwws",
		"swwwwwwwwswwwwws",
		"swwwwwwwwsswwwws",
		"swwwwwwwwwwwwwws",
		"swwwwwwwwwwwwwws",
		"swwwwwwwwwwwwwws",
		"ssssssssssssssss",
	)
}

package assets

// Talakat: the boss (a horned skull-ship that fires from its open jaw) and the player's small
// ship seen from above.
func init() {
	Define("talakat_boss",
		"..p..........p..",
		"..pp........pp..",
		"...prrrrrrrrp...",
		"..rrrrrrrrrrrr..",
		".rrookrrrrkoorr.",
		".rrokkorrokkorr.",
		".rrrooorroooorr.",
		"prrrrrrkkrrrrrrp",
		"prrpprrrrrrpprrp",
		".rrrwkwkwkwkrrr.",
		"..rrkkkkkkkkrr..",
		"...rwkwkwkwkr...",
		"....rrrrrrrr....",
		".....pp..pp.....",
		"....pp....pp....",
		"................",
	)
	Define("talakat_ship",
		"................",
		".......ww.......",
		".......ww.......",
		"......wccw......",
		"......wccw......",
		".....wsccsw.....",
		".....wsaasw.....",
		"....wssaassw....",
		"...wsssaasssw...",
		"..wsssswwsssssw.",
		".wsssssssssssssw",
		".wbbwwssssswwbbw",
		"..bb..wsssw..bb.",
		"......oyyo......",
		".......oo.......",
		"................",
	)
}

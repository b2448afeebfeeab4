// Package all registers every problem of the benchmark: import it for its side effect.
package all

import (
	_ "pcgwb/problems/arcade"
	_ "pcgwb/problems/binary"
	_ "pcgwb/problems/building"
	_ "pcgwb/problems/ddave"
	_ "pcgwb/problems/elimination"
	_ "pcgwb/problems/isaac"
	_ "pcgwb/problems/loderunner"
	_ "pcgwb/problems/loderunnertile"
	_ "pcgwb/problems/mdungeons"
	_ "pcgwb/problems/smb"
	_ "pcgwb/problems/smbtile"
	_ "pcgwb/problems/sokoban"
	_ "pcgwb/problems/talakat"
	_ "pcgwb/problems/zelda"
)

package play

import (
	"fmt"

	"pcgwb/problems"
	"pcgwb/problems/arcade"
	"pcgwb/problems/binary"
	"pcgwb/problems/building"
	"pcgwb/problems/ddave"
	"pcgwb/problems/elimination"
	"pcgwb/problems/isaac"
	"pcgwb/problems/loderunnertile"
	"pcgwb/problems/mdungeons"
	"pcgwb/problems/smb"
	"pcgwb/problems/sokoban"
	"pcgwb/problems/talakat"
	"pcgwb/problems/zelda"
)

// New makes the game of a content of problem p (a member of its content space, as
// problems.DecodeItems or the space's Normalize gives it).
func New(p problems.Problem, content problems.Content) (Game, error) {
	switch p := p.(type) {
	case *sokoban.Sokoban:
		return newSokoban(p, content)
	case *ddave.DDave:
		return newDDave(p, content)
	case *mdungeons.MDungeons:
		return newMDungeons(p, content)
	case *zelda.Zelda:
		return newZelda(content)
	case *binary.Binary:
		return newBinary(content)
	case *isaac.Isaac:
		return newIsaac(p, content)
	case *loderunnertile.Problem:
		return newLodeRunner(p, content)
	case *building.Problem:
		return newBuilding(p, content)
	case *elimination.Problem:
		return newElimination(p, content)
	case *talakat.Talakat:
		return newTalakat(p, content)
	case *arcade.Arcade:
		return newArcade(p, content)
	case *smb.Problem:
		return newSMB(p, content)
	}
	return nil, fmt.Errorf("%T has no play view yet", p)
}

// Playable reports whether problem p has a play view.
func Playable(p problems.Problem) bool {
	switch p.(type) {
	case *sokoban.Sokoban, *ddave.DDave, *mdungeons.MDungeons, *zelda.Zelda, *binary.Binary,
		*isaac.Isaac, *loderunnertile.Problem, *building.Problem, *elimination.Problem,
		*talakat.Talakat, *arcade.Arcade, *smb.Problem:
		return true
	}
	return false
}

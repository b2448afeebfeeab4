package assets

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed games/*.star
var gameFiles embed.FS

// Games holds the built-in two-player games of the duel arena, written by the project in
// Starlark against the contract of package games/duel: games/<name>.star.
func Games() fs.FS {
	sub, err := fs.Sub(gameFiles, "games")
	if err != nil {
		panic(err) // the directory is embedded: cannot happen
	}
	return sub
}

// GameNames lists the built-in games, sorted.
func GameNames() []string {
	entries, err := gameFiles.ReadDir("games")
	if err != nil {
		panic(err)
	}
	var names []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".star") {
			names = append(names, strings.TrimSuffix(n, ".star"))
		}
	}
	sort.Strings(names)
	return names
}

// GameSource is the script of a built-in game.
func GameSource(name string) ([]byte, error) {
	return gameFiles.ReadFile(path.Join("games", name+".star"))
}

// Package levelio takes levels out of the workbench and back in: plain text in the style of
// the Video Game Level Corpus (one character per tile, levels separated by a blank line, with a
// JSON legend), and Tiled maps (.tmx with a tileset PNG cut from the project's own sprites) for
// the tile problems. LoadLevels reads any of them (or an item file) as items of a problem, so
// human-made levels are evaluated and playtested beside generated ones.
package levelio

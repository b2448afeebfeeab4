// Package playtest runs blind playtests: people play levels from different generators without
// knowing which, answer a short questionnaire after each, and the report puts their verdict
// next to the benchmark's metrics.
//
// A session folder holds session.json (the playlist: levels drawn from run folders, shuffled
// with a recorded seed and named "Level 1" … "Level N", with their generator kept for the
// report only) and records/PLAYER/LEVEL.json, one file per player and level written atomically
// when the level's questionnaire is answered, so a crash loses at most the level in play and
// folders from several laptops merge by copying records. Everything here is pure logic: the
// Kiosk is a play.View that the play window shows, and tests drive it with scripted keys.
package playtest

package assets

import _ "embed"

// Guide is the in-app user guide (Help → Guide), in Markdown: what the metrics mean and what each
// tab does, short enough to read during a workshop.
//
//go:embed help/guide.md
var Guide string

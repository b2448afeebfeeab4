package assets

import (
	"embed"
	"io/fs"
)

//go:embed prompts/*.tmpl
var promptFiles embed.FS

// Prompts holds the LLM prompt templates (prompts/<name>.tmpl, read by package llm): one per
// problem family, generic.tmpl for problems without their own, and common.tmpl with the parts
// they share. Users override any of them by putting a file of the same name in a folder of
// their own.
func Prompts() fs.FS {
	sub, err := fs.Sub(promptFiles, "prompts")
	if err != nil {
		panic(err) // the directory is embedded: cannot happen
	}
	return sub
}

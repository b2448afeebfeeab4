package assets

import _ "embed"

//go:embed prompts/birds.txt
var birdsPrompt string

// BirdsPrompt is the workbench's starting prompt for the ChatGPT4PCG task (our own wording of
// the rules participants were given): <OBJECT> stands for the target letter, as in the
// competition's prompt files.
func BirdsPrompt() string { return birdsPrompt }

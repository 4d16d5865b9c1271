package recall

import (
	"embed"

	"github.com/naviagent/navi/twnm/lexicon"
)

//go:embed lexicon/*.txt
var lexiconFiles embed.FS

// english holds retrieval's word lists (the lexicon folder, one file a list): the verbs of
// each action (create.txt, read.txt, update.txt, delete.txt) and the words of a question's
// frame. `navi eval lexicon` counts their entries.
var english = lexicon.New(lexiconFiles, "lexicon")

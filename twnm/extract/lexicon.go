package extract

import (
	"embed"

	"github.com/naviagent/navi/twnm/lexicon"
)

//go:embed lexicon/*.txt
var lexiconFiles embed.FS

// english holds the extraction's word lists (the lexicon folder, one file a list): the words
// that tell a slot's kind from its name, the cues that stand before a value, the synonyms of
// common input names. `navi eval lexicon` counts their entries.
var english = lexicon.New(lexiconFiles, "lexicon")

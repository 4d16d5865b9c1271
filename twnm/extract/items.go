package extract

import (
	"cmp"
	"time"
)

// Items returns, keyed as Values keys its values, the name text gives the item that each
// listed input (Slot.Collection) picks, where it states no identifier for it: a quoted text,
// a name or a hyphenated word (what the free-text rule reads, freeValueAt) next to the word
// that names the collection, right before it ("the "Board Prep" channel", "my bakery-landing
// site") or right after it ("a channel "Board Prep""), or with one word between ("our
// Helpdesk Prod chat service", "a channel called Escalations"). The run takes such an input
// from the item of the lister's answer that the name names (toolspec.Pick), not from the
// list's first. bound holds the values already read from text (Values): an input bound there
// has its identifier, and no item.
func Items(text string, slots []Slot, bound map[string]string) map[string]string {
	var listed []Slot
	for _, s := range slots {
		if s.Collection != "" {
			listed = append(listed, s)
		}
	}
	if len(listed) == 0 {
		return nil
	}
	// The text's tokens, none read yet: names are read whatever the slots (freeValueAt), so
	// none is prepared (a subgraph's hundreds of slots would be, and their cues compared).
	x := newExtraction(text, nil, time.Time{})
	names := x.itemNames()
	out := map[string]string{}
	for _, s := range listed {
		key := cmp.Or(s.Key, s.Name)
		if _, ok := bound[key]; ok {
			continue
		}
		ws := exWords(s.Collection)
		if len(ws) == 0 {
			continue
		}
		if v := x.nameBeside(names, ws[len(ws)-1]); v != "" {
			out[key] = v
		}
	}
	return out
}

// itemName is a name the text writes: its value and the tokens it spans.
type itemName struct {
	value       string
	first, last int
}

// itemNames finds the names the text writes: the free-text values (quoted texts, names;
// freeValueAt) and the words joined by hyphens or underscores ("bakery-landing").
func (x *extraction) itemNames() []itemName {
	var names []itemName
	for i := 0; i < len(x.toks); i++ {
		if v, last, ok := x.freeValueAt(i); ok {
			names = append(names, itemName{value: v, first: i, last: last})
			i = last
			continue
		}
		if t := x.toks[i]; t.kind == exTokWord && t.sep && t.letter {
			names = append(names, itemName{value: t.text, first: i, last: i})
		}
	}
	return names
}

// nameBeside returns the name written next to a word whose stem is noun: right before or
// after it, else with one word between; "" where there is none.
func (x *extraction) nameBeside(names []itemName, noun string) string {
	for gap := 1; gap <= 2; gap++ {
		for h, t := range x.toks {
			if t.kind != exTokWord || exStem(t.lower) != noun {
				continue
			}
			for _, n := range names {
				if n.last == h-gap || n.first == h+gap {
					return n.value
				}
			}
		}
	}
	return ""
}

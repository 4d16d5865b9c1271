package twnm

import (
	"math"
	"sort"
	"strings"
)

// Link is a data flow the catalog suggests: output Output of API From can bind input Input
// of API To, with a confidence in (0, 1].
type Link struct {
	From, Output string
	To, Input    string
	Confidence   float64
}

// LinkOptions configures FindLinks.
type LinkOptions struct {
	// MinConfidence is the lowest confidence kept; default 0.5.
	MinConfidence float64
	// PerInput is how many producing concepts an input keeps at most, best first; default 2.
	PerInput int
	// Near keeps, besides the best link of an input, only those within this fraction of its
	// confidence; default 0.8.
	Near float64
}

// DefaultLinkOptions are FindLinks' defaults.
func DefaultLinkOptions() LinkOptions {
	return LinkOptions{MinConfidence: 0.5, PerInput: 2, Near: 0.8}
}

// linkField is one parameter of one API, read for linking.
type linkField struct {
	api     int
	name    string
	typ     string
	concept []string // concept words, roles left out
	key     string   // the whole concept, roles in
	roles   map[string]bool
}

// FindLinks finds the data flows among the APIs of apis: for each input that can be fed
// (Linkable), the outputs of other APIs whose concept can bind it, scored by
//
//	confidence = Dice(input, output) · role · type
//
// Dice is the overlap of the two concepts' words (role words left out) weighted by their IDF
// over all the catalog's parameters, idf(w) = ln(1 + N/df(w)) with N the number of parameters
// (inputs and outputs) and df(w) those whose concept holds w, as 2·Σ shared / (Σ input +
// Σ output), so that a shared `id` counts little and a
// shared `person` much; role is 0 when the two name different sides (a destination never
// feeds an origin), 0.9 when only the input names one (`placeId` → `originPlaceId`), else 1;
// type is 0 for incompatible types (a boolean into a number), 0.9 when a list feeds a single
// value (its first item), else 1. Outputs that echo one of their API's own inputs (a concept
// the API takes) do not produce it. Each input keeps its best PerInput concepts at or above
// MinConfidence and within Near of the best; links whose concept is the input's own (the two
// share a parameter node) come first. Candidates come from an index of concept words, never
// from every pair; the result is sorted by consumer, input, confidence (best first), producer.
func FindLinks(apis []API, o LinkOptions) []Link {
	if o.MinConfidence == 0 {
		o.MinConfidence = DefaultLinkOptions().MinConfidence
	}
	if o.PerInput == 0 {
		o.PerInput = DefaultLinkOptions().PerInput
	}
	if o.Near == 0 {
		o.Near = DefaultLinkOptions().Near
	}
	var ins, outs []linkField
	df, fields := map[string]int{}, 0 // IDF counts every parameter of the catalog
	read := func(i int, p Param, noun string) linkField {
		fields++
		ws := concept(p.Name, noun)
		f := linkField{api: i, name: p.Name, typ: p.Type, key: joinWords(ws), roles: roles(ws)}
		for _, w := range ws {
			if roleWords[w] == "" {
				f.concept = append(f.concept, w)
			}
		}
		for w := range set(f.concept...) {
			df[w]++
		}
		return f
	}
	for i, a := range apis {
		noun := resourceNoun(a)
		takes := map[string]bool{}
		for _, p := range a.Inputs {
			f := read(i, p, noun)
			takes[f.key] = true
			if Linkable(p) {
				ins = append(ins, f)
			}
		}
		for _, p := range a.Outputs {
			if f := read(i, p, noun); !takes[f.key] {
				outs = append(outs, f)
			}
		}
	}
	n := float64(fields)
	idf := func(w string) float64 { return math.Log(1 + n/float64(max(df[w], 1))) }
	byWord := map[string][]int{}
	for j, f := range outs {
		for w := range set(f.concept...) {
			byWord[w] = append(byWord[w], j)
		}
	}
	var links []Link
	for _, in := range ins {
		seen := map[int]bool{}
		type scored struct {
			out  int
			conf float64
		}
		var cands []scored
		for _, w := range in.concept {
			for _, j := range byWord[w] {
				if seen[j] {
					continue
				}
				seen[j] = true
				out := outs[j]
				if out.api == in.api {
					continue
				}
				if c := linkConfidence(in, out, idf); c >= o.MinConfidence {
					cands = append(cands, scored{j, c})
				}
			}
		}
		// Best per concept: one concept is one parameter node, however many APIs output it.
		best := map[string]float64{}
		for _, c := range cands {
			best[outs[c.out].key] = math.Max(best[outs[c.out].key], c.conf)
		}
		concepts := make([]string, 0, len(best))
		for k := range best {
			concepts = append(concepts, k)
		}
		sort.Slice(concepts, func(a, b int) bool {
			ka, kb := concepts[a], concepts[b]
			switch {
			case (ka == in.key) != (kb == in.key):
				return ka == in.key
			case best[ka] != best[kb]:
				return best[ka] > best[kb]
			}
			return ka < kb
		})
		keep := map[string]bool{}
		for i, k := range concepts {
			if i >= o.PerInput || (k != in.key && best[k] < o.Near*best[concepts[0]]) {
				break
			}
			keep[k] = true
		}
		for _, c := range cands {
			if out := outs[c.out]; keep[out.key] {
				links = append(links, Link{From: apis[out.api].Name, Output: out.name, To: apis[in.api].Name, Input: in.name, Confidence: c.conf})
			}
		}
	}
	sort.Slice(links, func(i, j int) bool {
		a, b := links[i], links[j]
		switch {
		case a.To != b.To:
			return a.To < b.To
		case a.Input != b.Input:
			return a.Input < b.Input
		case a.Confidence != b.Confidence:
			return a.Confidence > b.Confidence
		case a.From != b.From:
			return a.From < b.From
		}
		return a.Output < b.Output
	})
	return links
}

// linkConfidence is FindLinks' confidence that output out binds input in.
func linkConfidence(in, out linkField, idf func(string) float64) float64 {
	if rolesConflict(in.roles, out.roles) {
		return 0
	}
	role := 1.0
	if len(in.roles) > 0 && len(out.roles) == 0 {
		role = 0.9
	}
	typ := 1.0
	ci, co := typeClass(in.typ), typeClass(out.typ)
	switch {
	case co == "array" && ci != "array" && ci != "":
		typ = 0.9
	case !typesCompatible(in.typ, out.typ) && !(isScalarClass(ci) && isScalarClass(co)):
		return 0
	}
	inW, outW := set(in.concept...), set(out.concept...)
	var shared, sumIn, sumOut float64
	for w := range inW {
		sumIn += idf(w)
		if outW[w] {
			shared += idf(w)
		}
	}
	for w := range outW {
		sumOut += idf(w)
	}
	if shared == 0 {
		return 0
	}
	return 2 * shared / (sumIn + sumOut) * role * typ
}

// isScalarClass reports whether a type class holds one text or number: ids are written as
// numbers by one API and as strings by the next.
func isScalarClass(c string) bool { return c == "string" || c == "number" }

func joinWords(ws []string) string { return strings.Join(ws, " ") }

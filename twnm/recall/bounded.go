package recall

import (
	"slices"
	"sort"

	"github.com/naviagent/navi/twnm"
)

// The read after retrieval: the agent reads from the store the subgraph around a request's
// candidates, not the whole graph, and chooses on it (activities.Retrieve, through
// neo4j.Store.Subgraph).
const (
	// PoolPerGoal is how many candidates of each sub-goal the read starts from (see Pool).
	PoolPerGoal = 5
	// SubgraphAPIs bounds the read: ranked by relevance, the producers a chain needs come
	// first, and a smaller read keeps retrieval fast on large graphs (about 55 ms p50 through
	// Neo4j on 16,000 APIs; see neo4j's BenchmarkRetrieval).
	SubgraphAPIs = 60
	// subgraphHops is how many levels of producers the read follows, as the store's.
	subgraphHops = 4
)

// Bounded is the view of links that the read after retrieval gives: the APIs of targets, the
// candidates that take an item of a collection a target lists (itemParts), then their
// producers level by level (subgraphHops levels), each level ranked by relevance (those with
// none last, ties by name), until maxAPIs are read. Outside them, an API is unknown,
// feeds nothing and has no producers. It lets a graph in process be chosen on as the store's
// subgraph is, so that evaluation in process measures what the agent does. The store breaks
// ties further (by how many inputs a producer binds, past successes, outputs) and reads only
// some producers of a value that more than a hundred APIs output; Bounded does neither.
func Bounded(l Links, targets []string, relevance map[string]float64, maxAPIs int) Links {
	return Within(l, BoundedRead(l, targets, relevance, maxAPIs))
}

// Within is the view of links that knows only the APIs of read (see Bounded).
func Within(l Links, read map[string]bool) Links { return bounded{links: l, read: read} }

// BoundedRead is the set of APIs Bounded reads: what a plan in process may use, as the agent
// plans on the subgraph it read (see retrieval.PlanChain).
func BoundedRead(l Links, targets []string, relevance map[string]float64, maxAPIs int) map[string]bool {
	read := map[string]bool{}
	var frontier []string
	// The parts come only where every target fits: the bound is reached otherwise.
	for _, t := range slices.Concat(targets, itemParts(l, targets, relevance)) {
		if !read[t] && len(read) < maxAPIs {
			read[t] = true
			frontier = append(frontier, t)
		}
	}
	for hop := 0; hop < subgraphHops && len(frontier) > 0 && len(read) < maxAPIs; hop++ {
		var level []string
		for _, api := range frontier {
			for _, need := range l.Producers(api) {
				for _, p := range need.Producers {
					if !read[p.Name] && !slices.Contains(level, p.Name) {
						level = append(level, p.Name)
					}
				}
			}
		}
		byRelevance(level, relevance)
		frontier = level[:min(len(level), maxAPIs-len(read))]
		for _, p := range frontier {
			read[p] = true
		}
	}
	return read
}

// itemParts are the candidates (relevance's APIs), most relevant first, that take an item of
// a collection one of targets lists (twnm.ListKey, twnm.PickKey): a channel's messages beside
// the list of channels, which a request naming one channel reads for its part (see Choose).
func itemParts(l Links, targets []string, relevance map[string]float64) []string {
	lists := listKeys(l, targets)
	if len(lists) == 0 {
		return nil
	}
	var out []string
	for name := range relevance {
		a, ok := l.API(name)
		if ok && slices.ContainsFunc(a.Inputs, func(in twnm.Param) bool { return lists[twnm.PickKey(a, in.Name)] }) {
			out = append(out, name)
		}
	}
	byRelevance(out, relevance)
	return out
}

// listKeys are the keys of the collections the APIs of names list (twnm.ListKey), those links
// hold.
func listKeys(l Links, names []string) map[string]bool {
	out := map[string]bool{}
	for _, n := range names {
		if a, ok := l.API(n); ok {
			if k := twnm.ListKey(a); k != "" {
				out[k] = true
			}
		}
	}
	return out
}

// byRelevance sorts names by relevance, most relevant first, those it does not score last,
// ties by name.
func byRelevance(names []string, relevance map[string]float64) {
	sort.Slice(names, func(i, j int) bool {
		ri, iok := relevance[names[i]]
		rj, jok := relevance[names[j]]
		switch {
		case iok != jok:
			return iok
		case ri != rj:
			return ri > rj
		}
		return names[i] < names[j]
	})
}

// bounded is Bounded's view.
type bounded struct {
	links Links
	read  map[string]bool
}

// Feeds implements Links.
func (b bounded) Feeds(producer, consumer string) bool {
	return b.read[producer] && b.read[consumer] && b.links.Feeds(producer, consumer)
}

// API implements Links.
func (b bounded) API(api string) (twnm.API, bool) {
	if !b.read[api] {
		return twnm.API{}, false
	}
	return b.links.API(api)
}

// Producers implements Links.
func (b bounded) Producers(api string) []Need {
	if !b.read[api] {
		return nil
	}
	var out []Need
	for _, need := range b.links.Producers(api) {
		need.Producers = slices.DeleteFunc(slices.Clone(need.Producers), func(p Producer) bool { return !b.read[p.Name] })
		if len(need.Producers) > 0 {
			out = append(out, need)
		}
	}
	return out
}

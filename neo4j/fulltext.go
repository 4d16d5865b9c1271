package neo4j

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/naviagent/navi/twnm/bm25"
)

// TextIndex is the name of the full-text (Lucene) index on the APIs' text, for lexical
// retrieval with BM25 (TopAPIsText).
const TextIndex = "api_text"

// Properties of an API node that hold the fields of its bm25.ToolDocument: the tokens of
// bm25.Tokens joined by single spaces, so that Lucene's whitespace analyzer sees exactly the
// terms package bm25 indexes.
const (
	propText   = "bm25_" + bm25.FieldText
	propParams = "bm25_" + bm25.FieldParams
)

// textIndex creates TextIndex, one Lucene field per property. The whitespace analyzer leaves
// the stored tokens as they are; a consistent (not eventually consistent) index is updated
// when the importing transaction commits, so a query right after an import sees it.
const textIndex = "CREATE FULLTEXT INDEX " + TextIndex + " IF NOT EXISTS FOR (a:API) ON EACH [a." + propText + ", a." + propParams + "] " +
	"OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: false}}"

// textProperties are the properties Import writes for TextIndex: the tool document doc
// (twnm.KinDocuments), each field's tokens joined by spaces.
func textProperties(doc bm25.Document) map[string]any {
	return map[string]any{
		propText:   strings.Join(doc.Fields[bm25.FieldText], " "),
		propParams: strings.Join(doc.Fields[bm25.FieldParams], " "),
	}
}

// TextQuery is the Lucene query TopAPIsText runs for a request: per field of
// bm25.DefaultOptions, the field's terms as one group boosted by the field's weight, a term
// the request repeats boosted by its count:
//
//	bm25_text:(weather pari forecast^2) bm25_params:(weather pari forecast^2)^0.3
//
// Lucene scores each term clause with BM25 times its boosts and sums them, which is the score
// of bm25.Index for the same documents. A field of weight 1 gets no boost, so that Lucene
// flattens its group into the top-level query: bm25.Index rounds its sums as Lucene then does.
// It is empty when the request has no terms (only stop words, or nothing).
func TextQuery(query string) string {
	terms := bm25.QueryTerms(query)
	if len(terms) == 0 {
		return ""
	}
	var group strings.Builder
	group.WriteByte('(')
	for i, t := range terms {
		if i > 0 {
			group.WriteByte(' ')
		}
		group.WriteString(escapeLucene(t.Text))
		if t.Count > 1 {
			group.WriteString("^" + strconv.Itoa(t.Count))
		}
	}
	group.WriteByte(')')
	var q []string
	for _, f := range bm25.DefaultOptions().Fields {
		if f.Weight <= 0 {
			continue
		}
		clause := "bm25_" + f.Name + ":" + group.String()
		if w := float32(f.Weight); w != 1 {
			// The shortest decimal that parses back to the same float32, as Lucene's
			// Float.parseFloat will read it.
			clause += "^" + strconv.FormatFloat(float64(w), 'g', -1, 32)
		}
		q = append(q, clause)
	}
	return strings.Join(q, " ")
}

// escapeLucene backslash-escapes the characters that Lucene's classic query parser gives a
// meaning. Tokens are letters and digits, so this is a safeguard.
func escapeLucene(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\+-!():^[]"{}~*?|&/`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TopAPIsText returns the k active APIs whose text best matches query, best first, by BM25
// over the full-text index TextIndex: the same ranking and, to float32 rounding, the same
// scores as a bm25.Index with bm25.DefaultOptions over the same APIs (see TextQuery). Equal
// scores are ordered by name. With callable, only APIs the agent can call are returned, as in
// TopCallableAPIs. A query without terms (empty, or stop words only) matches nothing.
//
// The index ranks every API, and the filters apply to its best hits; when too many of those
// are pruned or (with callable) not callable, or equal scores run past them, the query is
// repeated for four times as many hits, until k remain and no tie runs past them, or the
// index has no more. Once k remain and maxTextHits were read, a tie at the k-th place is broken
// by name among the hits read, which the index chose: a text that thousands of APIs match
// equally (a generated catalog's "Returns 3 values") read the whole index at every retrieval.
//
// Lucene's collection statistics (document counts and frequencies, average lengths) cover
// every API node with text, pruned and uncallable ones included; an API imported before the
// index existed has no text until it is imported again. The index must be online: after
// EnsureSchema creates it over an existing graph, it fills in the background.
func (s *Store) TopAPIsText(ctx context.Context, query string, k int, callable bool) ([]Match, error) {
	return s.topAPIsText(ctx, s.auto(), query, k, callable)
}

// topAPIsText is TopAPIsText's read through rd.
func (s *Store) topAPIsText(ctx context.Context, rd reader, query string, k int, callable bool) ([]Match, error) {
	q := TextQuery(query)
	if k <= 0 || q == "" {
		return nil, nil
	}
	return s.widenText(ctx, rd, q, k, callable, textHits(k, callable))
}

// widenText runs the full-text query q (TextQuery's form) for the index's best n hits, and
// again for four times as many while it must (textEnough), and returns the best k.
func (s *Store) widenText(ctx context.Context, rd reader, q string, k int, callable bool, n int) ([]Match, error) {
	for {
		recs, err := rd.read(ctx, "text retrieval", topAPIsTextAll,
			map[string]any{"index": TextIndex, "qs": []string{q}, "n": int64(n), "callable": callable})
		if err != nil {
			return nil, err
		}
		if len(recs) != 1 {
			return nil, fmt.Errorf("text retrieval: got %d rows, want 1", len(recs))
		}
		out, more := textMatches(recs[0].AsMap(), n, k)
		if textEnough(out, more, n, k) {
			return out[:min(k, len(out))], nil
		}
		n *= 4
	}
}

// textEnough reports whether the matches of a query of n hits (textMatches) settle its best
// k: the index had no more that could fill them or tie with the k-th, or k are there and
// maxTextHits were read.
func textEnough(out []Match, more bool, n, k int) bool {
	return !more || (len(out) >= k && n >= maxTextHits)
}

// maxTextHits bounds how many of the full-text index's hits a text retrieval that has its k
// reads to break ties at the k-th place by name.
const maxTextHits = 800

// textHits is how many of the index's best hits a first full-text query of k asks for: more
// than k, as filters drop some (many, for callable).
func textHits(k int, callable bool) int {
	if callable {
		return 20*k + 100
	}
	return 4*k + 10
}

// textMatches reads a row of topAPIsTextAll (of n hits asked for) into the matches that pass
// the filters, best first, equal scores by name (all of them, for the caller to cut at k), and
// says whether the index had more hits than it gave that may fill the k or tie with the k-th:
// the query should then ask for more.
func textMatches(row map[string]any, n, k int) ([]Match, bool) {
	kept, _ := row["kept"].([]any)
	out := make([]Match, 0, len(kept))
	for _, x := range kept {
		m, _ := x.(map[string]any)
		name, _ := m["name"].(string)
		score, _ := m["score"].(float64)
		provider, _ := m["provider"].(string)
		out = append(out, Match{Name: name, Score: score, Provider: provider})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Name < out[j].Name
	})
	raw, _ := row["raw"].(int64)
	least, _ := row["least"].(float64)
	more := raw == int64(n) && (len(out) < k || out[k-1].Score == least)
	return out, more
}

// topAPIsTextAll reads, for each query of $qs (a row each, numbered i), the best $n hits of
// the full-text index: how many there were, the least score among them, and the names and
// scores of those that pass the filters.
const topAPIsTextAll = `
UNWIND range(0, size($qs) - 1) AS i
CALL (i) {
  CALL db.index.fulltext.queryNodes($index, $qs[i], {limit: $n}) YIELD node, score
  RETURN count(*) AS raw, min(score) AS least,
         collect(CASE WHEN coalesce(node.status, 'active') = 'active' AND (NOT $callable OR coalesce(node.callable, false))
                      THEN {name: node.name, score: score, provider: coalesce(node.provider, '')} END) AS kept
}
RETURN i, raw, least, kept`

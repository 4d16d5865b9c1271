// Package bm25 ranks documents for a free-text request with BM25, field by field, in process
// and exactly as a Lucene 9 full-text index (Neo4j 5's) ranks the same documents: Tokens turns
// text into terms, New indexes documents, Search and Scores answer queries.
//
// The score of a document for a query is
//
//	Σ over fields f  Σ over distinct query terms t  w_f · c_t · idf_f(t) · tf / (tf + k1 · (1 − b + b · dl / avgdl_f))
//
// where w_f is the field's weight, c_t how many times t occurs in the query, tf how many times
// in the document's field, dl the field's length in the document (in tokens) and, per field,
// idf_f(t) = ln(1 + (docCount − df + 0.5) / (df + 0.5)) with docCount the documents that have
// the field, df those whose field holds t, and avgdl_f = Σ dl / docCount. This is Lucene's
// BM25Similarity (k1 = 1.2, b = 0.75; since Lucene 8 without the constant factor k1 + 1),
// including its lossy one-byte encoding of dl and its float32 arithmetic (see lucene.go), so
// that a document scores the same here and in Neo4j to float32 rounding.
//
// The package imports nothing of Navi's: package twnm builds on it.
package bm25

import (
	"container/heap"
	"sort"
	"sync"
)

// Field names of DefaultOptions: a tool's name and description, and its parameters' names.
const (
	FieldText   = "text"
	FieldParams = "params"
)

// Field is a named part of the documents and its weight in the score.
type Field struct {
	Name string
	// Weight multiplies the field's BM25 score. A field of weight 0 or less is ignored. It
	// is used as a float32, Lucene's boost.
	Weight float64
}

// Options configures an Index.
type Options struct {
	// Fields are the parts of documents that are scored; fields of a Document not named
	// here are ignored.
	Fields []Field
	// K1 saturates term frequency and B scales length normalisation; 0 means Lucene's
	// defaults, 1.2 and 0.75. Lucene's full-text indexes in Neo4j always use the defaults,
	// so other values break agreement with the store.
	K1, B float64
}

// DefaultOptions are the fields of a tool document (see ToolDocument): FieldText, a tool's
// name split into words and its description, with weight 1; and FieldParams, the names of
// its input and output parameters, with weight 0.3. The parameter weight is a tunable: a
// measurement found that parameter names added to the main field made the first result worse,
// while a separate, lighter field still lets a request naming a parameter ("by ISBN") find
// the tool. Parameter descriptions are not indexed.
func DefaultOptions() Options {
	return Options{Fields: []Field{{Name: FieldText, Weight: 1}, {Name: FieldParams, Weight: 0.3}}, K1: 1.2, B: 0.75}
}

// Document is one retrievable item: an ID, unique in an index, and per field name the field's
// tokens, as Tokens gives them (NewDocument and ToolDocument call it).
type Document struct {
	ID     string
	Fields map[string][]string
}

// NewDocument is the document of id whose fields have the given texts, tokenised by Tokens.
func NewDocument(id string, text map[string]string) Document {
	d := Document{ID: id, Fields: make(map[string][]string, len(text))}
	for f, s := range text {
		d.Fields[f] = Tokens(s)
	}
	return d
}

// ToolDocument is the document of a tool under DefaultOptions, its ID the tool's name:
// FieldText holds the tokens of the name and of the description; FieldParams those of the
// parameter names given, each distinct name once (a name both input and output counts once).
func ToolDocument(name, description string, params []string) Document {
	seen := make(map[string]bool, len(params))
	var ps []string
	for _, p := range params {
		if !seen[p] {
			seen[p] = true
			ps = append(ps, Tokens(p)...)
		}
	}
	return Document{ID: name, Fields: map[string][]string{
		FieldText:   append(Tokens(name), Tokens(description)...),
		FieldParams: ps,
	}}
}

// MaxQueryTerms bounds the distinct terms of a query that are scored; later ones are ignored.
// It keeps a query under Lucene's limit of 1,024 clauses with two fields.
const MaxQueryTerms = 500

// Term is a distinct query term and how many times the query holds it.
type Term struct {
	Text  string
	Count int
}

// QueryTerms returns the distinct tokens of query (by Tokens) in order of first appearance,
// each with its number of occurrences, at most MaxQueryTerms of them. A term repeated in a
// query counts that many times, as in Lucene, where each occurrence is a clause of its own.
func QueryTerms(query string) []Term {
	var terms []Term
	at := map[string]int{}
	for _, t := range Tokens(query) {
		if i, ok := at[t]; ok {
			terms[i].Count++
			continue
		}
		if len(terms) == MaxQueryTerms {
			continue
		}
		at[t] = len(terms)
		terms = append(terms, Term{Text: t, Count: 1})
	}
	return terms
}

// Hit is a document found by a query, with its score.
type Hit struct {
	ID    string
	Score float64
}

// Index is an inverted index of documents for BM25 retrieval. It is immutable once built and
// safe for concurrent use.
type Index struct {
	ids    []string
	fields []field
	pool   sync.Pool // of *scratch
}

// field is the inverted index of one field.
type field struct {
	name     string
	weight   float32
	docCount int64              // documents with at least one token in the field
	norms    []byte             // per document: its length, encoded as Lucene does
	cache    [256]float32       // per norm byte: 1 / (k1 · (1 − b + b · dl / avgdl))
	postings map[string][]entry // per term: the documents holding it, in document order
}

type entry struct {
	doc  int32
	freq int32
}

// New indexes docs for opts.Fields. The collection statistics (document counts, document
// frequencies, average lengths) are those of docs.
func New(docs []Document, opts Options) *Index {
	k1, b := float32(opts.K1), float32(opts.B)
	if opts.K1 == 0 {
		k1 = 1.2
	}
	if opts.B == 0 {
		b = 0.75
	}
	ix := &Index{ids: make([]string, len(docs))}
	for i, d := range docs {
		ix.ids[i] = d.ID
	}
	for _, f := range opts.Fields {
		if f.Weight <= 0 {
			continue
		}
		fi := field{name: f.Name, weight: float32(f.Weight), norms: make([]byte, len(docs)), postings: map[string][]entry{}}
		var sumTotalTermFreq int64
		freqs := map[string]int32{}
		for i, d := range docs {
			toks := d.Fields[f.Name]
			if len(toks) == 0 {
				continue
			}
			fi.docCount++
			sumTotalTermFreq += int64(len(toks))
			fi.norms[i] = intToByte4(len(toks))
			clear(freqs)
			for _, t := range toks {
				freqs[t]++
			}
			for t, n := range freqs {
				fi.postings[t] = append(fi.postings[t], entry{doc: int32(i), freq: n})
			}
		}
		if fi.docCount > 0 {
			fi.cache = normCache(k1, b, avgFieldLength(sumTotalTermFreq, fi.docCount))
		}
		ix.fields = append(ix.fields, fi)
	}
	n := len(docs)
	ix.pool.New = func() any {
		return &scratch{field: make([]float64, n), total: make([]float64, n), inField: make([]bool, n), inAll: make([]bool, n)}
	}
	return ix
}

// Len is the number of documents indexed.
func (ix *Index) Len() int { return len(ix.ids) }

// scratch holds the per-document accumulators of one query; all zero (and false) between
// queries.
type scratch struct {
	field, total   []float64
	inField, inAll []bool // the document has a score in the field, in total
	fdocs, docs    []int32
}

// score calls fn with every document that matches a term of terms, and its score. The sums
// are Lucene's for the query `text:(t1 t2) params:(t1 t2)^0.3` (see neo4j.TextQuery): its
// scorers add term scores in float64 and round the sum to float32 once per boolean query.
// The group of a field of weight 1 carries no boost, so Lucene flattens it into the top-level
// query: its term scores join the total directly. The group of a weighted field stays a
// boosted query of its own: its sum is rounded to float32 before it joins the total.
func (ix *Index) score(terms []Term, fn func(doc int32, score float32)) {
	if len(terms) == 0 || len(ix.ids) == 0 {
		return
	}
	s := ix.pool.Get().(*scratch)
	defer ix.pool.Put(s)
	s.docs = s.docs[:0]
	for fi := range ix.fields {
		f := &ix.fields[fi]
		flat := f.weight == 1
		acc, in, docs := s.field, s.inField, s.fdocs[:0]
		if flat {
			acc, in, docs = s.total, s.inAll, s.docs
		}
		for _, t := range terms {
			ps := f.postings[t.Text]
			if len(ps) == 0 {
				continue
			}
			boost := float32(float32(t.Count) * f.weight)
			w := float32(boost * idf(int64(len(ps)), f.docCount))
			for _, p := range ps {
				if !in[p.doc] {
					in[p.doc] = true
					docs = append(docs, p.doc)
				}
				acc[p.doc] += float64(termScore(w, p.freq, f.cache[f.norms[p.doc]]))
			}
		}
		if flat {
			s.docs = docs
			continue
		}
		s.fdocs = docs
		for _, d := range docs {
			if !s.inAll[d] {
				s.inAll[d] = true
				s.docs = append(s.docs, d)
			}
			s.total[d] += float64(float32(s.field[d]))
			s.field[d], s.inField[d] = 0, false
		}
	}
	for _, d := range s.docs {
		fn(d, float32(s.total[d]))
		s.total[d], s.inAll[d] = 0, false
	}
}

// Scores returns the score of every document that matches a term of query, by ID. Documents
// that match nothing are absent (their score is 0). An empty query, or one of stop words or of
// words no document holds, gives an empty map.
func (ix *Index) Scores(query string) map[string]float64 {
	out := map[string]float64{}
	ix.score(QueryTerms(query), func(doc int32, score float32) { out[ix.ids[doc]] = float64(score) })
	return out
}

// Search returns the k documents that score highest for query, best first; equal scores are
// ordered by ID. It returns fewer when fewer documents match, and none for k ≤ 0.
func (ix *Index) Search(query string, k int) []Hit {
	if k <= 0 {
		return nil
	}
	h := &hitHeap{}
	ix.score(QueryTerms(query), func(doc int32, score float32) {
		hit := scored{id: ix.ids[doc], score: score}
		if len(*h) < k {
			heap.Push(h, hit)
		} else if better(hit, (*h)[0]) {
			(*h)[0] = hit
			heap.Fix(h, 0)
		}
	})
	out := make([]Hit, len(*h))
	sort.Slice(*h, func(i, j int) bool { return better((*h)[i], (*h)[j]) })
	for i, x := range *h {
		out[i] = Hit{ID: x.id, Score: float64(x.score)}
	}
	return out
}

type scored struct {
	id    string
	score float32
}

// better is the result order: higher score, then smaller ID.
func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.id < b.id
}

// hitHeap is a min-heap under better: its root is the worst of the best k so far.
type hitHeap []scored

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

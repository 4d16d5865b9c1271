package neo4j

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/recall"
)

// GoalIndex is the name of the vector index on past sub-goals (:Goal nodes): what users
// called a tool that served them.
const GoalIndex = "goal_embedding"

// GoalWindowDays is how long a past sub-goal counts: the sliding window of the edge
// statistics (twnm.DefaultPropagation), so what users called a tool is forgotten as its
// statistics are.
var GoalWindowDays = twnm.DefaultPropagation.WindowDays

// maxGoalText bounds the text kept with a past sub-goal, for navi show.
const maxGoalText = 200

// GoalUse is one sub-goal of an answered run and the API that served it.
type GoalUse struct {
	API    string    `json:"api"`
	Text   string    `json:"text"`
	Vector []float64 `json:"-"`
}

// RecordGoals attaches sub-goals to the APIs that served them, in one transaction: each becomes
// a (:Goal)-[:SERVED]->(:API) with its vector, its text (cut to 200 characters; none when
// the caller keeps it out, see activities.Activities.NoGoalText) and its day.
// key names the run's chain, so a retried write adds nothing twice. Each API then keeps its
// recall.MaxGoalsPerAPI newest sub-goals, and sub-goals older than GoalWindowDays are
// forgotten. An API the graph does not hold is skipped (a catalog re-imported without it).
func (s *Store) RecordGoals(ctx context.Context, key string, uses []GoalUse, now time.Time) error {
	if key == "" {
		return fmt.Errorf("record goals: the key is empty")
	}
	var rows []map[string]any
	apis := map[string]bool{}
	for i, u := range uses {
		if len(u.Vector) == 0 || zero(u.Vector) {
			continue
		}
		// A sub-goal kept without its text is told apart by its place in the run's list: a
		// digest of a short text would let anyone with a dictionary read it back.
		h := sha256.Sum256([]byte(u.API + "\x00" + u.Text))
		if u.Text == "" {
			h = sha256.Sum256([]byte(u.API + "\x00#" + strconv.Itoa(i)))
		}
		text := []rune(u.Text)
		if len(text) > maxGoalText {
			text = text[:maxGoalText]
		}
		rows = append(rows, map[string]any{"id": key + "/" + hex.EncodeToString(h[:8]), "api": u.API, "text": string(text),
			"embedding": u.Vector, "at": now.Unix()})
		apis[u.API] = true
	}
	if len(rows) == 0 {
		return nil
	}
	names := make([]string, 0, len(apis))
	for a := range apis {
		names = append(names, a)
	}
	return s.writeTx(ctx, "record goals "+key, func(tx driver.ManagedTransaction) error {
		if _, err := runTx(ctx, tx, recordGoals, map[string]any{"rows": rows}); err != nil {
			return err
		}
		_, err := runTx(ctx, tx, trimGoals, map[string]any{"apis": names, "keep": int64(recall.MaxGoalsPerAPI),
			"oldest": now.Add(-time.Duration(GoalWindowDays) * 24 * time.Hour).Unix()})
		return err
	})
}

// ForgetGoals forgets the past sub-goals recorded under key (RecordGoals): a run the user
// rejected taught the graph nothing about what users call its tools. It returns how many it
// forgot; a key with none is no error.
func (s *Store) ForgetGoals(ctx context.Context, key string) (int, error) {
	if key == "" {
		return 0, fmt.Errorf("forget goals: the key is empty")
	}
	var n int64
	err := s.writeTx(ctx, "forget goals "+key, func(tx driver.ManagedTransaction) error {
		recs, err := runTx(ctx, tx, forgetGoals, map[string]any{"prefix": key + "/"})
		if err != nil {
			return err
		}
		n, _ = recs[0].AsMap()["n"].(int64)
		return nil
	})
	return int(n), err
}

const forgetGoals = `
OPTIONAL MATCH (g:Goal) WHERE g.id STARTS WITH $prefix
WITH collect(g) AS gs
FOREACH (g IN gs | DETACH DELETE g)
RETURN size(gs) AS n`

// forgetServedGoals forgets what users called the APIs of catalog $catalog: the SERVED edges
// from past sub-goals to them, and the sub-goals left serving nothing. A sub-goal that also
// served another catalog's API stays with that API.
const forgetServedGoals = `
MATCH (:API {catalog: $catalog})<-[s:SERVED]-(g:Goal)
DELETE s
WITH DISTINCT g
WHERE NOT (g)-[:SERVED]->()
DELETE g`

const recordGoals = `
UNWIND $rows AS r
MATCH (a:API {name: r.api})
MERGE (g:Goal {id: r.id})
ON CREATE SET g.text = r.text, g.embedding = r.embedding, g.at = r.at
MERGE (g)-[:SERVED]->(a)`

const trimGoals = `
UNWIND $apis AS name
MATCH (a:API {name: name})<-[:SERVED]-(g:Goal)
WITH a, g ORDER BY g.at DESC, g.id
WITH a, collect(g) AS goals
UNWIND range(0, size(goals) - 1) AS i
WITH goals[i] AS g, i
WHERE i >= $keep OR g.at < $oldest
DETACH DELETE g`

// Served implements recall.Learned over the store: the APIs whose past sub-goals are most
// similar to vec, through the goal index, with the cosine of the most similar one. Sub-goals
// older than GoalWindowDays no longer count.
func (s *Store) Served(ctx context.Context, vec []float64, k int, callable bool) ([]recall.Hit, error) {
	return storeSource{s: s, rd: s.auto(), callable: callable}.Served(ctx, vec, k)
}

// goalsSince is the oldest time a past sub-goal still counts from (GoalWindowDays).
func goalsSince() time.Time { return time.Now().Add(-time.Duration(GoalWindowDays) * 24 * time.Hour) }

// servedAll is Served's query for each vector of $vecs, its rows numbered i.
const servedAll = `
UNWIND range(0, size($vecs) - 1) AS i
CALL (i) {
  CALL db.index.vector.queryNodes($index, $n, $vecs[i]) YIELD node, score
  WHERE node.at >= $oldest
  MATCH (node)-[:SERVED]->(a:API)
  WHERE coalesce(a.status, 'active') = 'active' AND (NOT $callable OR coalesce(a.callable, false))
  WITH a.name AS name, coalesce(a.provider, '') AS provider, max(score) AS score
  RETURN name, provider, score
  ORDER BY score DESC, name
  LIMIT $k
}
RETURN i, name, provider, score`

// Goals lists the past sub-goals attached to api, newest first: what users called it.
func (s *Store) Goals(ctx context.Context, api string) ([]string, error) {
	res, err := s.run(ctx, "read past sub-goals", false, `
MATCH (:API {name: $api})<-[:SERVED]-(g:Goal)
RETURN g.text AS text ORDER BY g.at DESC, g.id`, map[string]any{"api": api})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(res.Records))
	for _, r := range res.Records {
		text, _ := r.AsMap()["text"].(string) // "" for one kept without its text
		out = append(out, text)
	}
	return out, nil
}

// cosineOf turns the score of Neo4j's cosine vector index, (1 + cos)/2 in [0, 1], back into
// the cosine similarity that recall's thresholds are set in (and the in-process path gives).
func cosineOf(score float64) float64 { return 2*score - 1 }

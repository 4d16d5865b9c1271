package neo4j

import (
	"context"
	"fmt"
	"sort"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/naviagent/navi/twnm"
)

// dayKeys are the properties of a day bucket of the sliding window: successes and calls.
func dayKeys(day int64) (success, total string) {
	return fmt.Sprintf("d%d_s", day), fmt.Sprintf("d%d_n", day)
}

func dayOf(ts int64) int64 { return ts / 86400 }

type counts struct{ success, failure int64 }

// RecordFeedback adds the outcomes of one run (or a batch of runs) to the graph as one
// transaction: node counts s_v and f_v (a revised failure, a user's verdict, moves one from
// s_v to f_v: twnm.Invocation.Revised) of the APIs and of the parameters given as inputs, edge
// counts N and N_succ of THEN and FEEDS edges (created on first sight), per-day counts for the
// sliding window, and the statistical weight of Eq. 4 of every behavioural edge into a node
// whose counts changed. Counts are increments applied under Neo4j's write locks, so concurrent
// writers from many workers lose none. An unknown API or parameter fails the whole batch and
// writes nothing.
func (s *Store) RecordFeedback(ctx context.Context, invs []twnm.Invocation, trs []twnm.Transition) error {
	_, err := s.recordFeedback(ctx, "", invs, trs)
	return err
}

// RecordFeedbackOnce is RecordFeedback for a batch named by key: a batch whose key was
// recorded before changes nothing and reports false. The key is written in the same
// transaction as the counts, so a caller that retries after losing the reply (a Temporal
// activity whose worker died) never counts a chain twice.
func (s *Store) RecordFeedbackOnce(ctx context.Context, key string, invs []twnm.Invocation, trs []twnm.Transition) (bool, error) {
	if key == "" {
		return false, fmt.Errorf("record feedback: the batch key is empty")
	}
	return s.recordFeedback(ctx, key, invs, trs)
}

func (s *Store) recordFeedback(ctx context.Context, key string, invs []twnm.Invocation, trs []twnm.Transition) (bool, error) {
	type dayKey struct {
		name string
		day  int64
	}
	apiRows := map[dayKey]*counts{}
	paramRows := map[[2]string]map[int64]*counts{}
	// A revised failure takes back a success counted before: the call stays counted once (a
	// revised success, which confirms it, is left out above; twnm.Invocation.Revised).
	add := func(c *counts, ok, revised bool) {
		switch {
		case revised:
			c.success--
			c.failure++
		case ok:
			c.success++
		default:
			c.failure++
		}
	}
	for _, inv := range invs {
		if inv.Revised && inv.Success {
			continue // confirmed: counted already
		}
		k := dayKey{inv.API, dayOf(inv.Time.Unix())}
		if apiRows[k] == nil {
			apiRows[k] = &counts{}
		}
		add(apiRows[k], inv.Success, inv.Revised)
		for _, p := range inv.Inputs {
			pk := [2]string{inv.API, p}
			if paramRows[pk] == nil {
				paramRows[pk] = map[int64]*counts{}
			}
			if paramRows[pk][k.day] == nil {
				paramRows[pk][k.day] = &counts{}
			}
			add(paramRows[pk][k.day], inv.Success, inv.Revised)
		}
	}
	// Failures a signal judged are counted by signal too (twnm.Node.FailedBy).
	bySignal := map[[2]string]int64{}
	for _, inv := range invs {
		if !inv.Success && inv.Signal != "" {
			bySignal[[2]string{inv.API, failedByKey(inv.Signal)}]++
		}
	}
	var apis, params, thens, feeds, signals []map[string]any
	for k, n := range bySignal {
		signals = append(signals, map[string]any{"name": k[0], "key": k[1], "n": n})
	}
	for k, c := range apiRows {
		ks, kn := dayKeys(k.day)
		apis = append(apis, map[string]any{"name": k.name, "s": c.success, "f": c.failure, "ks": ks, "kn": kn})
	}
	for pk, days := range paramRows {
		for day, c := range days {
			ks, kn := dayKeys(day)
			params = append(params, map[string]any{"api": pk[0], "param": pk[1], "s": c.success, "f": c.failure, "ks": ks, "kn": kn})
		}
	}
	for _, tr := range trs {
		if tr.Revised && tr.Success {
			continue // confirmed: counted already
		}
		ks, kn := dayKeys(dayOf(tr.Time.Unix()))
		s, n := int64(0), int64(1) // successes and calls added
		switch {
		case tr.Revised && !tr.Success:
			s, n = -1, 0
		case tr.Success:
			s = 1
		}
		row := map[string]any{"from": tr.From, "to": tr.To, "s": s, "n": n, "ks": ks, "kn": kn}
		switch tr.Kind {
		case twnm.Then:
			thens = append(thens, row)
		case twnm.Feeds:
			row["from_param"], row["to_param"] = tr.FromParam, tr.ToParam
			feeds = append(feeds, row)
		default:
			return false, fmt.Errorf("record feedback: transition %s -> %s: kind %s is not THEN or FEEDS", tr.From, tr.To, tr.Kind)
		}
	}
	// A stable order makes concurrent writers take locks in the same order: fewer deadlocks.
	for _, rows := range [][]map[string]any{apis, params, thens, feeds, signals} {
		sortRows(rows)
	}

	steps := []struct {
		what, cypher string
		rows         []map[string]any
	}{
		{"API counts", feedbackAPIs, apis},
		{"failures by signal", feedbackSignals, signals},
		{"parameter counts", feedbackParams, params},
		{"THEN edges", feedbackThen, thens},
		{"FEEDS edges", feedbackFeeds, feeds},
	}
	fresh := true
	err := s.writeTx(ctx, "record feedback", func(tx driver.ManagedTransaction) error {
		if key != "" {
			recs, err := runTx(ctx, tx, feedbackBatch, map[string]any{"key": key})
			if err != nil {
				return err
			}
			if fresh, _ = recs[0].AsMap()["fresh"].(bool); !fresh {
				return nil
			}
		}
		for _, st := range steps {
			if len(st.rows) == 0 {
				continue
			}
			recs, err := runTx(ctx, tx, st.cypher, map[string]any{"rows": st.rows})
			if err != nil {
				return err
			}
			if n, _ := recs[0].AsMap()["n"].(int64); int(n) != len(st.rows) {
				return fmt.Errorf("%s: %w: %d of %d rows name an API or parameter the graph does not have; nothing was recorded",
					st.what, ErrNotInGraph, len(st.rows)-int(n), len(st.rows))
			}
		}
		_, err := runTx(ctx, tx, feedbackWeights, map[string]any{
			"apis": touched(apis, thens), "inputs": params, "feeds": feeds,
		})
		return err
	})
	if err != nil {
		return false, err
	}
	return fresh, nil
}

// feedbackBatch marks a keyed batch as recorded; fresh is false when it was already.
const feedbackBatch = `
MERGE (f:FeedbackBatch {key: $key})
ON CREATE SET f.recorded = datetime(), f.fresh = true
ON MATCH SET f.fresh = false
RETURN f.fresh AS fresh`

// sortRows orders rows by their printed form, computed once per row.
func sortRows(rows []map[string]any) {
	type keyed struct {
		key string
		row map[string]any
	}
	ks := make([]keyed, len(rows))
	for i, r := range rows {
		ks[i] = keyed{fmt.Sprint(r), r}
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i].key < ks[j].key })
	for i, k := range ks {
		rows[i] = k.row
	}
}

// touched lists the API names whose counts changed: those invoked and the targets of new
// THEN transitions. Their incoming THEN edges need new weights.
func touched(apis, thens []map[string]any) []string {
	set := map[string]bool{}
	for _, r := range apis {
		set[r["name"].(string)] = true
	}
	for _, r := range thens {
		set[r["to"].(string)] = true
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

const feedbackAPIs = `
UNWIND $rows AS r
MATCH (a:API {name: r.name})
SET a.success = CASE WHEN coalesce(a.success, 0) + r.s < 0 THEN 0 ELSE coalesce(a.success, 0) + r.s END, a.failure = coalesce(a.failure, 0) + r.f,
    a[r.ks] = coalesce(a[r.ks], 0) + r.s, a[r.kn] = coalesce(a[r.kn], 0) + r.s + r.f
RETURN count(a) AS n`

// failedByPrefix starts the property of an API node that counts its failures one signal
// judged (twnm.Node.FailedBy): failed_by_catalog, failed_by_user.
const failedByPrefix = "failed_by_"

func failedByKey(s twnm.Signal) string { return failedByPrefix + string(s) }

const feedbackSignals = `
UNWIND $rows AS r
MATCH (a:API {name: r.name})
SET a[r.key] = coalesce(a[r.key], 0) + r.n
RETURN count(a) AS n`

const feedbackParams = `
UNWIND $rows AS r
MATCH (:API {name: r.api})<-[:INPUT_OF {param: r.param}]-(p:Param)
SET p.success = CASE WHEN coalesce(p.success, 0) + r.s < 0 THEN 0 ELSE coalesce(p.success, 0) + r.s END, p.failure = coalesce(p.failure, 0) + r.f,
    p[r.ks] = coalesce(p[r.ks], 0) + r.s, p[r.kn] = coalesce(p[r.kn], 0) + r.s + r.f
RETURN count(p) AS n`

// The SET on both end nodes takes their write locks before MERGE looks for the edge, so two
// writers cannot both find it missing and create it twice.
const feedbackThen = `
UNWIND $rows AS r
MATCH (a:API {name: r.from}), (b:API {name: r.to})
SET a._lock = true, b._lock = true
REMOVE a._lock, b._lock
MERGE (a)-[e:THEN]->(b)
SET e.count = coalesce(e.count, 0) + r.n,
    e.success = CASE WHEN coalesce(e.success, 0) + r.s < 0 THEN 0 ELSE coalesce(e.success, 0) + r.s END,
    e[r.ks] = coalesce(e[r.ks], 0) + r.s, e[r.kn] = coalesce(e[r.kn], 0) + r.n
RETURN count(e) AS n`

const feedbackFeeds = `
UNWIND $rows AS r
MATCH (:API {name: r.from})-[:OUTPUTS {param: r.from_param}]->(p:Param)
MATCH (:API {name: r.to})<-[:INPUT_OF {param: r.to_param}]-(q:Param)
SET p._lock = true, q._lock = true
REMOVE p._lock, q._lock
WITH r, p, q, p = q AS same
CALL (r, p, q, same) {
  WITH r, p, q, same WHERE NOT same
  MERGE (p)-[e:FEEDS]->(q)
  SET e.count = coalesce(e.count, 0) + r.n,
      e.success = CASE WHEN coalesce(e.success, 0) + r.s < 0 THEN 0 ELSE coalesce(e.success, 0) + r.s END,
      e[r.ks] = coalesce(e[r.ks], 0) + r.s, e[r.kn] = coalesce(e[r.kn], 0) + r.n
}
RETURN count(r) AS n`

// feedbackWeights recomputes Eq. 4, w = N_succ(u→v) / N(v), on the edges into changed nodes.
const feedbackWeights = `
CALL () {
  UNWIND $apis AS name
  MATCH (b:API {name: name})<-[e:THEN]-(:API)
  WITH b, e, b.success + b.failure AS total
  SET e.weight = CASE WHEN total = 0 THEN 0.0 ELSE toFloat(e.success) / total END
}
CALL () {
  UNWIND $inputs AS r
  MATCH (:API {name: r.api})<-[:INPUT_OF {param: r.param}]-(q:Param)<-[e:FEEDS]-(:Param)
  WITH q, e, q.success + q.failure AS total
  SET e.weight = CASE WHEN total = 0 THEN 0.0 ELSE toFloat(e.success) / total END
}
CALL () {
  UNWIND $feeds AS r
  MATCH (:API {name: r.to})<-[:INPUT_OF {param: r.to_param}]-(q:Param)<-[e:FEEDS]-(:Param)
  WITH q, e, q.success + q.failure AS total
  SET e.weight = CASE WHEN total = 0 THEN 0.0 ELSE toFloat(e.success) / total END
}`

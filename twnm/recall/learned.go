package recall

import (
	"cmp"
	"context"
	"sort"
	"sync"

	"github.com/naviagent/navi/twnm/embed"
)

// Learned finds APIs by the requests they served before: the graph learning what users call a
// tool. A Source that also implements Learned adds that evidence to the fused score.
type Learned interface {
	// Served returns, for the k APIs whose past sub-goals are most similar to vec, the cosine
	// similarity of the most similar one, best first.
	Served(ctx context.Context, vec []float64, k int) ([]Hit, error)
}

// MaxGoalsPerAPI bounds the past sub-goals kept per API; the oldest go first.
const MaxGoalsPerAPI = 20

// WithLearned returns a Source that ranks like src and also finds APIs by past sub-goals.
func WithLearned(src Source, l Learned) Source {
	return learnedSource{src, l}
}

type learnedSource struct {
	Source
	Learned
}

// boost adds the learned evidence to a sub-goal's candidates: each API served by a past
// sub-goal at least o.LearnedFloor (f) similar gains o.LearnedWeight·(s − f)/(1 − f), an API
// found this way only joins the candidates, and the scores are rescaled so that the best is 1
// again.
func boost(cands []Match, learned []Hit, o Options) []Match {
	gain := map[string]float64{}
	provider := map[string]string{}
	for _, h := range learned {
		if f := o.LearnedFloor; h.Score >= f {
			gain[h.Name] = max(gain[h.Name], o.LearnedWeight*(h.Score-f)/(1-f))
			provider[h.Name] = cmp.Or(provider[h.Name], h.Provider)
		}
	}
	if len(gain) == 0 {
		return cands
	}
	for i := range cands {
		if g, ok := gain[cands[i].Name]; ok {
			cands[i].Score += g
			cands[i].Learned = g
			delete(gain, cands[i].Name)
		}
	}
	for name, g := range gain {
		cands = append(cands, Match{Name: name, Provider: provider[name], Score: g, Learned: g})
	}
	best := 0.0
	for _, c := range cands {
		best = max(best, c.Score)
	}
	for i := range cands {
		cands[i].Score /= best
	}
	sortCandidates(cands)
	return cands
}

// GoalIndex is Learned in memory: past sub-goals' vectors, each with the API it served, at
// most MaxGoalsPerAPI per API (the oldest dropped). It is safe for concurrent use.
type GoalIndex struct {
	mu    sync.RWMutex
	byAPI map[string][][]float64
}

var _ Learned = (*GoalIndex)(nil)

// NewGoalIndex returns an empty index.
func NewGoalIndex() *GoalIndex { return &GoalIndex{byAPI: map[string][][]float64{}} }

// Add records that a sub-goal with vector vec was served by api.
func (x *GoalIndex) Add(api string, vec []float64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	vs := append(x.byAPI[api], vec)
	if len(vs) > MaxGoalsPerAPI {
		vs = vs[len(vs)-MaxGoalsPerAPI:]
	}
	x.byAPI[api] = vs
}

// Served implements Learned.
func (x *GoalIndex) Served(_ context.Context, vec []float64, k int) ([]Hit, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []Hit
	for api, vs := range x.byAPI {
		best := -1.0
		for _, v := range vs {
			best = max(best, embed.Cosine(vec, v))
		}
		out = append(out, Hit{Name: api, Score: best})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Name < out[j].Name
	})
	return out[:min(k, len(out))], nil
}

package activities_test

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm/hgt/hgtspec"
)

// modelRegistry is the model part of a ModelStore, in memory: EvaluateModel's decision is
// pure given the saved metrics and the active version, and the shared test Neo4j's active
// model changes under concurrent tests. TestRetrainOnRealStack evaluates on the real store.
type modelRegistry struct {
	activities.ModelStore
	models map[string]float64
	hits   map[string]float64 // FEEDS hit@1 in the saved metrics, where a model has one
	masked map[string]float64 // the masked-chain figure in them, likewise
	active string
}

func (r modelRegistry) LoadModel(_ context.Context, version string, _ bool) (neo4j.ModelRecord, error) {
	auc, ok := r.models[version]
	if !ok {
		return neo4j.ModelRecord{}, neo4j.ErrNoModel
	}
	rec := neo4j.ModelRecord{Version: version, ValAUC: auc, Metrics: `{"AUC":0.9}`}
	hit, hasHit := r.hits[version]
	chains, hasChains := r.masked[version]
	if hasHit || hasChains {
		m := hgtspec.Metrics{ValAUC: auc, FeedsHit1: hit, MaskedChains: chains}
		if hasHit {
			m.FeedsRanked = 10
		}
		if hasChains {
			m.MaskedSearches = 12
		}
		b, err := json.Marshal(m)
		if err != nil {
			return rec, err
		}
		rec.Metrics = string(b)
	}
	return rec, nil
}

func (r modelRegistry) ActiveModel(context.Context) (string, error) { return r.active, nil }

func TestEvaluateModel(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name     string
		models   map[string]float64
		active   string
		notWorse bool
		reason   string
		hits     map[string]float64
		masked   map[string]float64
	}{
		{"no active model", map[string]float64{"new": 0.6}, "", true, "no model is active", nil, nil},
		{"better", map[string]float64{"new": 0.8, "old": 0.7}, "old", true, "validation AUC 0.8000 is not worse than the active old's 0.7000", nil, nil},
		{"equal", map[string]float64{"new": 0.7, "old": 0.7}, "old", true, "not worse than", nil, nil},
		{"worse", map[string]float64{"new": 0.6, "old": 0.7}, "old", false, "validation AUC 0.6000 is worse than the active old's 0.7000", nil, nil},
		{"new has no validation AUC", map[string]float64{"new": nan, "old": 0.7}, "old", false, "new has no validation AUC", nil, nil},
		{"active has no validation AUC", map[string]float64{"new": 0.6, "old": nan}, "old", true, "the active old has no validation AUC", nil, nil},
		{"active never saved", map[string]float64{"new": 0.6}, "old", true, "the active model old has no saved metrics", nil, nil},
		{"better AUC, producers ranked worse", map[string]float64{"new": 0.8, "old": 0.7}, "old", false,
			"validation AUC 0.8000 is not worse than the active old's 0.7000; FEEDS hit@1 0.400 is worse than the active's 0.600",
			map[string]float64{"new": 0.4, "old": 0.6}, nil},
		{"better on both", map[string]float64{"new": 0.8, "old": 0.7}, "old", true, "; FEEDS hit@1 0.700 is not worse than the active's 0.600",
			map[string]float64{"new": 0.7, "old": 0.6}, nil},
		{"the active model has no hit@1: AUC decides", map[string]float64{"new": 0.8, "old": 0.7}, "old", true, "validation AUC 0.8000 is not worse than the active old's 0.7000",
			map[string]float64{"new": 0.1}, nil},
		{"better AUC, fewer flows recovered in plans", map[string]float64{"new": 0.8, "old": 0.7}, "old", false,
			"validation AUC 0.8000 is not worse than the active old's 0.7000; masked chains 0.250 is worse than the active's 0.500",
			map[string]float64{"new": 0.9, "old": 0.1}, map[string]float64{"new": 0.25, "old": 0.5}},
		{"the masked chains decide before hit@1", map[string]float64{"new": 0.8, "old": 0.7}, "old", true,
			"; masked chains 0.500 is not worse than the active's 0.500",
			map[string]float64{"new": 0.1, "old": 0.9}, map[string]float64{"new": 0.5, "old": 0.5}},
		{"the active model has no masked chains: hit@1 decides", map[string]float64{"new": 0.8, "old": 0.7}, "old", false,
			"; FEEDS hit@1 0.100 is worse than the active's 0.900",
			map[string]float64{"new": 0.1, "old": 0.9}, map[string]float64{"new": 0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &activities.Activities{Models: modelRegistry{models: tt.models, hits: tt.hits, masked: tt.masked, active: tt.active}}
			res, err := execute[activities.EvaluateResult](t, a, "EvaluateModel", "new")
			require.NoError(t, err)
			assert.Equal(t, tt.notWorse, res.NotWorse)
			assert.Contains(t, res.Reason, tt.reason)
			assert.False(t, math.IsNaN(res.ValAUC) || math.IsNaN(res.ActiveValAUC), "NaN cannot travel as JSON")
			assert.False(t, math.IsNaN(res.FeedsHit1) || math.IsNaN(res.ActiveFeedsHit1), "NaN cannot travel as JSON")
			assert.False(t, math.IsNaN(res.MaskedChains) || math.IsNaN(res.ActiveMaskedChains), "NaN cannot travel as JSON")
			if len(tt.hits) < 2 && len(tt.masked) < 2 {
				assert.NotContains(t, res.Reason, "hit@1", "AUC alone decides where a model has no hit@1")
			}
		})
	}
	a := &activities.Activities{Models: modelRegistry{models: map[string]float64{}}}
	_, err := execute[activities.EvaluateResult](t, a, "EvaluateModel", "missing")
	requireAppError(t, err, activities.ErrTypeInvalidInput, true)
}

package hgtspec

import (
	"encoding/json"
	"math"
	"time"
)

// Metrics is how a trained model did, on the test split unless named otherwise.
type Metrics struct {
	// ACC and F1 classify test positives and an equal number of test negatives at Threshold;
	// AUC ranks them. ValAUC is the best validation AUC (the early-stopping criterion).
	ACC, F1, AUC, ValAUC float64
	// BaselineAUC is each non-learned baseline's AUC on the same test pairs over the same
	// message-passing graph (see Baselines for the names).
	BaselineAUC map[string]float64
	// Epochs is the number of epochs run; BestEpoch the one whose parameters were kept.
	Epochs, BestEpoch int
	// EpochTime is the mean time of an epoch (training step and validation); TrainTime the
	// whole of Train, preparation and test evaluation included.
	EpochTime, TrainTime time.Duration
	// TrainEdges, ValEdges and TestEdges count the positives of each split.
	TrainEdges, ValEdges, TestEdges int
	// Threshold is the probability from which a pair is called an edge: the one maximising
	// validation accuracy (soft labels make 1/2 arbitrary).
	Threshold float64
	// Targets says what was predicted ("behavioural" or "behavioural+derived"), and
	// DerivedEdges how many of the positives were derived THEN candidates.
	Targets      string
	DerivedEdges int
	// FeedsHit1 is the share of the test split's FEEDS edges whose producer the model ranks
	// first, among every parameter some API outputs, for that input (other known producers
	// of it left out): the output a plan would bind. FeedsRanked counts those edges; NaN and
	// 0 when the test split has none.
	FeedsHit1   float64
	FeedsRanked int
	// MaskedChains is the share of plans that recover a held-out flow through the model's
	// prediction: the test split's FEEDS edges removed from the graph, each input linked to the
	// model's best producer for it in turn, and graph search run from every API that requires
	// the input; a plan recovers the flow when it reaches an API that outputs the true
	// producer. MaskedSearches counts those searches; NaN and 0 when there are none.
	MaskedChains   float64
	MaskedSearches int
}

// Metrics travel as JSON (activity results, the model file), and a split too small to measure
// leaves NaN in them, which encoding/json refuses. They encode NaN and infinities as null and
// decode null as NaN; every other value is encoded as the default encoding would, under the
// same field names.

// MarshalJSON encodes m with NaN as null.
func (m Metrics) MarshalJSON() ([]byte, error) { return json.Marshal(toFile(m)) }

// UnmarshalJSON decodes what MarshalJSON wrote, null as NaN.
func (m *Metrics) UnmarshalJSON(b []byte) error {
	var f fileMetrics
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*m = fromFile(f)
	return nil
}

// fileMetrics is Metrics with NaN (a split too small to measure) written as null, which
// JSON has and NaN has not.
type fileMetrics struct {
	ACC, F1, AUC, ValAUC *float64
	BaselineAUC          map[string]*float64
	Epochs, BestEpoch    int
	EpochTime, TrainTime time.Duration
	TrainEdges, ValEdges int
	TestEdges            int
	Threshold            float64
	Targets              string
	DerivedEdges         int
	FeedsHit1            *float64 `json:",omitempty"`
	FeedsRanked          int      `json:",omitempty"`
	MaskedChains         *float64 `json:",omitempty"`
	MaskedSearches       int      `json:",omitempty"`
}

// NullIfNaN is x, or nil for NaN and infinities: JSON has null, and not NaN.
func NullIfNaN(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// NaNIfNull is what NullIfNaN wrote back: NaN for nil.
func NaNIfNull(x *float64) float64 {
	if x == nil {
		return math.NaN()
	}
	return *x
}

func toFile(m Metrics) fileMetrics {
	f := fileMetrics{ACC: NullIfNaN(m.ACC), F1: NullIfNaN(m.F1), AUC: NullIfNaN(m.AUC), ValAUC: NullIfNaN(m.ValAUC),
		Epochs: m.Epochs, BestEpoch: m.BestEpoch, EpochTime: m.EpochTime, TrainTime: m.TrainTime,
		TrainEdges: m.TrainEdges, ValEdges: m.ValEdges, TestEdges: m.TestEdges, Threshold: m.Threshold,
		Targets: m.Targets, DerivedEdges: m.DerivedEdges, FeedsHit1: NullIfNaN(m.FeedsHit1), FeedsRanked: m.FeedsRanked,
		MaskedChains: NullIfNaN(m.MaskedChains), MaskedSearches: m.MaskedSearches}
	if m.BaselineAUC != nil {
		f.BaselineAUC = map[string]*float64{}
		for k, v := range m.BaselineAUC {
			f.BaselineAUC[k] = NullIfNaN(v)
		}
	}
	return f
}

func fromFile(f fileMetrics) Metrics {
	m := Metrics{ACC: NaNIfNull(f.ACC), F1: NaNIfNull(f.F1), AUC: NaNIfNull(f.AUC), ValAUC: NaNIfNull(f.ValAUC),
		Epochs: f.Epochs, BestEpoch: f.BestEpoch, EpochTime: f.EpochTime, TrainTime: f.TrainTime,
		TrainEdges: f.TrainEdges, ValEdges: f.ValEdges, TestEdges: f.TestEdges, Threshold: f.Threshold,
		Targets: f.Targets, DerivedEdges: f.DerivedEdges, FeedsHit1: NaNIfNull(f.FeedsHit1), FeedsRanked: f.FeedsRanked,
		MaskedChains: NaNIfNull(f.MaskedChains), MaskedSearches: f.MaskedSearches}
	if f.BaselineAUC != nil {
		m.BaselineAUC = map[string]float64{}
		for k, v := range f.BaselineAUC {
			m.BaselineAUC[k] = NaNIfNull(v)
		}
	}
	return m
}

package hgt

import (
	"encoding/json"
	"time"
)

// Metrics and Progress travel as JSON (activity results, heartbeats, the model file), and a
// split too small to measure leaves NaN in them, which encoding/json refuses. They encode NaN
// and infinities as null and decode null as NaN; every other value is encoded as the
// default encoding would, under the same field names.

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

type progressJSON struct {
	Epoch, Epochs int
	Loss, ValAUC  *float64
	Elapsed       time.Duration
}

// MarshalJSON encodes p with NaN as null.
func (p Progress) MarshalJSON() ([]byte, error) {
	return json.Marshal(progressJSON{p.Epoch, p.Epochs, nullable(p.Loss), nullable(p.ValAUC), p.Elapsed})
}

// UnmarshalJSON decodes what MarshalJSON wrote, null as NaN.
func (p *Progress) UnmarshalJSON(b []byte) error {
	var j progressJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*p = Progress{Epoch: j.Epoch, Epochs: j.Epochs, Loss: unnull(j.Loss), ValAUC: unnull(j.ValAUC), Elapsed: j.Elapsed}
	return nil
}

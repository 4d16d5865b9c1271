package hgt

import (
	"encoding/json"
	"github.com/naviagent/navi/twnm/hgt/hgtspec"
	"time"
)

// Progress travels as JSON (heartbeats), and a split too small to measure leaves NaN in it,
// which encoding/json refuses: it encodes NaN and infinities as null and decodes null as NaN,
// as hgtdata.Metrics does; every other value is encoded as the default encoding would, under
// the same field names.

type progressJSON struct {
	Epoch, Epochs int
	Loss, ValAUC  *float64
	Elapsed       time.Duration
}

// MarshalJSON encodes p with NaN as null.
func (p Progress) MarshalJSON() ([]byte, error) {
	return json.Marshal(progressJSON{p.Epoch, p.Epochs, hgtspec.NullIfNaN(p.Loss), hgtspec.NullIfNaN(p.ValAUC), p.Elapsed})
}

// UnmarshalJSON decodes what MarshalJSON wrote, null as NaN.
func (p *Progress) UnmarshalJSON(b []byte) error {
	var j progressJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*p = Progress{Epoch: j.Epoch, Epochs: j.Epochs, Loss: hgtspec.NaNIfNull(j.Loss), ValAUC: hgtspec.NaNIfNull(j.ValAUC), Elapsed: j.Elapsed}
	return nil
}

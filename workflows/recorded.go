package workflows

import (
	"fmt"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"

	"github.com/naviagent/navi/contract"
)

// RecordedFeedback returns the chains a query run's history recorded as feedback, in order:
// the inputs of its RecordFeedback activities, and, since localGraphVersion, the results of
// its RecordFeedback local activities (whose markers hold their result, which is the chain
// recorded: contract.FeedbackResult). dc decodes the payloads (a codec's converter where
// they are encrypted).
func RecordedFeedback(h *historypb.History, dc converter.DataConverter) ([]contract.FeedbackInput, error) {
	var chains []contract.FeedbackInput
	for _, e := range h.GetEvents() {
		if a := e.GetActivityTaskScheduledEventAttributes(); a != nil {
			if !contract.Is(a.GetActivityType().GetName(), contract.ActivityRecordFeedback) {
				continue
			}
			var in contract.FeedbackInput
			if err := dc.FromPayloads(a.GetInput(), &in); err != nil {
				return nil, fmt.Errorf("read the feedback of event %d: %w", e.GetEventId(), err)
			}
			chains = append(chains, in)
			continue
		}
		m := e.GetMarkerRecordedEventAttributes()
		if m.GetMarkerName() != localActivityMarker || m.GetFailure() != nil {
			continue
		}
		var data struct{ ActivityType string }
		if err := dc.FromPayloads(m.GetDetails()[localActivityData], &data); err != nil {
			return nil, fmt.Errorf("read the local activity of event %d: %w", e.GetEventId(), err)
		}
		result := m.GetDetails()[localActivityResult]
		if !contract.Is(data.ActivityType, contract.ActivityRecordFeedback) || result == nil {
			continue // a write from before its result held the chain records nothing to read
		}
		var res contract.FeedbackResult
		if err := dc.FromPayloads(result, &res); err != nil {
			return nil, fmt.Errorf("read the feedback of event %d: %w", e.GetEventId(), err)
		}
		chains = append(chains, res.Recorded)
	}
	return chains, nil
}

// The SDK's names for a local activity's marker and its details.
const (
	localActivityMarker = "LocalActivity"
	localActivityData   = "data"
	localActivityResult = "result"
)

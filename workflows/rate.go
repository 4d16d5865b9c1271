package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/twnm"
)

// RateRequest is a user's verdict on a run, given while it runs or days after it ended: the
// chains it recorded (the RecordFeedback inputs its history holds) are recorded once more,
// every call a success for a good run and a failure for a bad one, so that the graph's
// weights (Eq. 4) learn what the user thought of the tools that answered. A bad verdict
// revises the run's own outcomes (twnm.Invocation.Revised): a call the run counted as a
// success, because the tool answered, becomes a failure, so that the wrong answer no longer
// counts for the tool that gave it.
type RateRequest struct {
	// Workflow is the rated run's workflow ID; Good the verdict; Note what the user said.
	Workflow string `json:"workflow"`
	Good     bool   `json:"good"`
	Note     string `json:"note,omitempty"`
	// Chains are the rated run's feedback, as its RecordFeedback activities took it.
	Chains []contract.FeedbackInput `json:"chains"`
}

// RateResult counts what a rating recorded.
type RateResult struct {
	Chains      int `json:"chains"`
	Invocations int `json:"invocations"`
	Transitions int `json:"transitions"`
}

// RatingKeyPrefix starts the feedback key of a rating's chains: the graph counts each once,
// whatever the retries, and tells a user's verdict from a run's own outcomes.
const RatingKeyPrefix = "rating/"

// RateWorkflow records a user's verdict on a run (RateRequest) through the RecordFeedback
// activity, with the retries of any graph write: a rating given while Neo4j is down is
// recorded when it is back, not lost. Its own workflow ID is in each chain's key, so that a
// second rating of the same run counts too.
func RateWorkflow(ctx workflow.Context, req RateRequest) (RateResult, error) {
	if req.Workflow == "" {
		return RateResult{}, fmt.Errorf("rate: the request names no workflow")
	}
	activity := activityNamer(ctx)
	ctx = feedbackContext(ctx, fmt.Sprintf("rating of %s: %s", req.Workflow, verdict(req.Good)))
	self := workflow.GetInfo(ctx).WorkflowExecution.ID
	var res RateResult
	for i, ch := range req.Chains {
		in := contract.FeedbackInput{Key: fmt.Sprintf("%s%s/%d", RatingKeyPrefix, self, i),
			Invocations: make([]twnm.Invocation, len(ch.Invocations)), Transitions: make([]twnm.Transition, len(ch.Transitions))}
		// A good verdict confirms what succeeded. A bad one fails it all: what the run counted
		// as a success (the tool answered) is taken back, since the answer was wrong.
		for j, inv := range ch.Invocations {
			inv.Revised = !req.Good && inv.Success
			inv.Success = req.Good && inv.Success
			in.Invocations[j] = inv
		}
		for j, tr := range ch.Transitions {
			tr.Revised = !req.Good && tr.Success
			tr.Success = req.Good && tr.Success
			in.Transitions[j] = tr
		}
		if err := workflow.ExecuteActivity(ctx, activity(contract.ActivityRecordFeedback), in).Get(ctx, nil); err != nil {
			return res, fmt.Errorf("rate %s: chain %d: %w", req.Workflow, i+1, err)
		}
		res.Chains++
		res.Invocations += len(in.Invocations)
		res.Transitions += len(in.Transitions)
	}
	return res, nil
}

func verdict(good bool) string {
	if good {
		return "good"
	}
	return "bad"
}

package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/twnm"
)

// RateRequest is a user's verdict on a run, given while it runs or days after it ended: the
// chains it recorded (the RecordFeedback inputs its history holds) are recorded once more
// as the user's verdict, so that the graph's weights (Eq. 4) learn what the user thought of
// the tools that answered. The verdict replaces the run's own outcomes (verdictOn): the
// answering call and the data flows into it, counted as successes because the tools
// answered, become failures when the user says the answer was wrong, so that the wrong
// answer no longer counts for the flow that gave it, and stay the one success they were when
// the user says it was right. The sub-goals a run served are learned by retrieval on a good
// verdict (contract.FeedbackInput.GoalsOnRating); a run recorded before that change taught
// them at once, and a bad verdict forgets them.
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
	ctx = graphContext(ctx, fmt.Sprintf("rating of %s: %s", req.Workflow, verdict(req.Good)))
	self := workflow.GetInfo(ctx).WorkflowExecution.ID
	var res RateResult
	for i, ch := range req.Chains {
		in := verdictOn(ch, req.Good)
		in.Key = fmt.Sprintf("%s%s/%d", RatingKeyPrefix, self, i)
		switch {
		case req.Good && ch.GoalsOnRating:
			// Confirmed: retrieval learns what the run served, under the run's own key.
			in.Goals, in.GoalsKey = ch.Goals, ch.Key
		case !req.Good && len(ch.Goals) > 0:
			in.Forget = []string{ch.Key} // what the run taught retrieval goes with it
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

// verdictOn is the user's verdict on one recorded chain. The user judged the answer: the
// verdict replaces the outcome of the calls that answered (those no successful data flow of
// the chain leaves) and of every data flow the run counted as a success
// (twnm.Invocation.Revised). A bad verdict takes those successes back; a good one confirms
// them and changes no count. The producers' own calls answered whatever became of their data,
// so they keep their outcome, and what failed in the run failed already: both are left out.
func verdictOn(ch contract.FeedbackInput, good bool) contract.FeedbackInput {
	fed := map[string]bool{}
	for _, tr := range ch.Transitions {
		if tr.Success {
			fed[tr.From] = true
		}
	}
	var in contract.FeedbackInput
	for _, inv := range ch.Invocations {
		if inv.Success && !fed[inv.API] {
			inv.Success, inv.Revised, inv.Signal = good, true, twnm.SignalUser
			in.Invocations = append(in.Invocations, inv)
		}
	}
	for _, tr := range ch.Transitions {
		if tr.Success {
			tr.Success, tr.Revised = good, true
			in.Transitions = append(in.Transitions, tr)
		}
	}
	return in
}

func verdict(good bool) string {
	if good {
		return "good"
	}
	return "bad"
}

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/codec"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/workflows"
)

// replay replays a run's history on the current workflow code: ops' determinism check.
func replay(args []string, s streams) error {
	c := newCommand("replay")
	file := c.fs.String("file", "", "replay this JSON history (as the Temporal CLI or UI exports it) instead of fetching one")
	runID := c.fs.String("run", "", "run ID (default: the latest run of the workflow)")
	timeout := c.fs.Duration("timeout", 2*time.Minute, "how long fetching the history may take")
	verbose := c.fs.Bool("v", false, "also print the SDK's log of the replay (with the stack of a divergence)")
	pos, err := c.parse(args, 0, 1, "a workflow ID or -file: navi replay <workflow-id> | navi replay -file history.json")
	if err != nil {
		return err
	}
	if len(pos) == 1 && *file != "" {
		return fmt.Errorf("%w: navi replay takes a workflow ID or -file history.json, not both", errUsage)
	}
	if len(pos) == 0 && *file == "" {
		return fmt.Errorf("%w: navi replay needs a workflow ID or -file history.json", errUsage)
	}

	var hist *historypb.History
	var exec workflow.Execution
	if *file != "" {
		if hist, err = readHistory(*file); err != nil {
			return err
		}
	} else {
		exec = workflow.Execution{ID: pos[0], RunID: *runID}
		err = c.withTemporal(*timeout, func(ctx context.Context, tc client.Client) error {
			hist, err = fetchHistory(ctx, tc, exec.ID, exec.RunID)
			if err != nil {
				return c.notFound(err, exec.ID, "history of")
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	logger := sdklog.Logger(sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	if *verbose {
		logger = sdkLogger()
	}
	dc, err := c.dataConverter()
	if err != nil {
		return err
	}
	if err := replayHistory(hist, exec, logger, dc); err != nil {
		if strings.Contains(err.Error(), "TMPRL1100") { // the SDK's code for nondeterminism
			return fmt.Errorf("replay of %d events: not deterministic, the current code diverges from the history: %w", len(hist.GetEvents()), err)
		}
		return fmt.Errorf("replay of %d events failed: %w", len(hist.GetEvents()), err)
	}
	fmt.Fprintf(s.out, "replay ok: %d events, deterministic\n", len(hist.GetEvents()))
	return nil
}

func readHistory(file string) (*historypb.History, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
	if err != nil {
		return nil, fmt.Errorf("read history %s: %w", file, err)
	}
	return h, nil
}

// fetchHistory reads a run's whole history (runID "" is the latest run).
func fetchHistory(ctx context.Context, tc client.Client, id, runID string) (*historypb.History, error) {
	it := tc.GetWorkflowHistory(ctx, id, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, err
		}
		h.Events = append(h.Events, ev)
	}
	return h, nil
}

// replayHistory replays h on Navi's registered workflows, its payloads read by dc; exec names
// the run, when known.
func replayHistory(h *historypb.History, exec workflow.Execution, logger sdklog.Logger, dc converter.DataConverter) error {
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{DataConverter: dc})
	if err != nil {
		return err
	}
	workflows.RegisterReplay(r)
	return r.ReplayWorkflowHistoryWithOptions(logger, h, worker.ReplayWorkflowHistoryOptions{OriginalExecution: exec})
}

// startedRequest reads the input of a run (runID "" is the latest) from its first event, by dc.
func startedRequest(ctx context.Context, tc client.Client, dc converter.DataConverter, id, runID string) (workflows.QueryRequest, error) {
	it := tc.GetWorkflowHistory(ctx, id, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	if !it.HasNext() {
		return workflows.QueryRequest{}, fmt.Errorf("workflow %s has no history", id)
	}
	ev, err := it.Next()
	if err != nil {
		return workflows.QueryRequest{}, err
	}
	return decodeRequest(ev, dc)
}

// explainEncrypted says what to do about a payload that is encrypted while this command has
// no key (the SDK only says the encoding is not supported).
func explainEncrypted(err error) error {
	if err != nil && strings.Contains(err.Error(), codec.Encoding) {
		return fmt.Errorf("%w (the run's payloads are encrypted: give this command the worker's keys in NAVI_CODEC_KEYS or NAVI_CODEC_KEYS_FILE)", err)
	}
	return err
}

// decodeRequest decodes, by dc, the QueryRequest a WorkflowExecutionStarted event carries.
func decodeRequest(ev *historypb.HistoryEvent, dc converter.DataConverter) (workflows.QueryRequest, error) {
	var req workflows.QueryRequest
	attrs := ev.GetWorkflowExecutionStartedEventAttributes()
	if attrs == nil {
		return req, fmt.Errorf("event %d is %s, not the start of a workflow", ev.GetEventId(), ev.GetEventType())
	}
	if name := attrs.GetWorkflowType().GetName(); !contract.IsQuery(name) {
		return req, fmt.Errorf("the run is a %s, not a QueryWorkflow", name)
	}
	input := attrs.GetInput().GetPayloads()
	if len(input) == 0 {
		return req, errors.New("the run started with no input")
	}
	if err := dc.FromPayload(input[0], &req); err != nil {
		return req, fmt.Errorf("decode the run's input: %w", explainEncrypted(err))
	}
	return req, nil
}

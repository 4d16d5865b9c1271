// Command navi-worker is Navi's Temporal worker: it registers the plugin's workflows and
// activities on a task queue and runs them against Temporal and the tool graph in Neo4j.
//
// Configuration comes from NAVI_* environment variables and flags (see -h); the Neo4j password
// only from NAVI_NEO4J_PASSWORD.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	_ "net/http/pprof"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/naviagent/navi"
	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/mcptool"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/planner/llm"
	"github.com/naviagent/navi/retrieval"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/workflows"
)

func main() {
	cfg := config.FromEnv()
	fs := flag.NewFlagSet("navi-worker", flag.ExitOnError)
	cfg.RegisterFlags(fs)
	logLevel := fs.String("log-level", config.Getenv("NAVI_LOG_LEVEL", "info"), "log level: debug, info, warn, error (NAVI_LOG_LEVEL)")
	outputDir := fs.String("output-dir", config.Getenv("NAVI_OUTPUT_DIR", ".state/outputs"), "where tool outputs too large for the workflow history are kept (NAVI_OUTPUT_DIR)")
	train := fs.String("train-queue", config.Getenv("NAVI_TRAIN_TASK_QUEUE", workflows.DefaultTrainQueue),
		"task queue of the training activities this worker also runs; \"off\" runs none (NAVI_TRAIN_TASK_QUEUE)")
	modelDir := fs.String("model-dir", config.Getenv("NAVI_MODEL_DIR", ".state/models"), "where trained model files are also written (NAVI_MODEL_DIR)")
	warmDefault, err := strconv.Atoi(config.Getenv("NAVI_WARMUP", strconv.Itoa(retrieval.DefaultWarmRequests)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "navi-worker: NAVI_WARMUP %q: want a number of retrievals\n", os.Getenv("NAVI_WARMUP"))
		os.Exit(2)
	}
	warm := fs.Int("warmup", warmDefault,
		"retrievals run against the graph store before the worker polls, so that a restarted Neo4j has compiled its query paths before users pay for it; 0: none (NAVI_WARMUP)")
	pprofAddr := fs.String("pprof", config.Getenv("NAVI_PPROF_ADDR", ""), "address to serve Go's profiles on (/debug/pprof/), such as 127.0.0.1:6060; empty: none (NAVI_PPROF_ADDR)")
	_ = fs.Parse(os.Args[1:])

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(os.Stderr, "navi-worker: -log-level %q: want debug, info, warn or error\n", *logLevel)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{Level: level}))
	if *pprofAddr != "" {
		// net/http/pprof registers on the default mux, which nothing else here serves.
		go func() { logger.Error("pprof server stopped", "error", http.ListenAndServe(*pprofAddr, nil)) }()
	}
	if err := run(cfg, options{outputDir: *outputDir, trainQueue: *train, modelDir: *modelDir, warm: *warm}, logger); err != nil {
		fmt.Fprintf(os.Stderr, "navi-worker: %v\n", err)
		os.Exit(1)
	}
}

// options are the worker's settings besides the connections.
type options struct {
	outputDir  string
	trainQueue string // "off": no training worker
	modelDir   string
	warm       int // retrievals of the warm-up (0: none)
}

func run(cfg config.Config, o options, logger *slog.Logger) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pool := &mcptool.Pool{} // the MCP servers' tools: a session per server, for the worker's life
	defer pool.Close()
	acts, plannerName, err := newActivities(o.outputDir, cfg.MaxToolOutputBytes, pool)
	if err != nil {
		return err
	}
	store, err := cfg.OpenGraph(ctx)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	acts.Store, acts.Models, acts.ModelDir = store, store, o.modelDir
	warmStore(store, acts.Embedder, o.warm, logger)
	// With payloads encrypted, the requests the graph learns from keep no text in Neo4j.
	if cdc, err := cfg.Codec(); err == nil && cdc != nil {
		acts.NoGoalText = true
	}
	trainQueue := o.trainQueue
	if trainQueue == cfg.TaskQueue {
		trainQueue = navi.TrainQueueOff // one worker runs everything
	}
	// The worker is Navi's own plugin on a client (the payload codec comes with the client's
	// options): every worker made from it runs what its queue is for.
	// Navi's own worker also runs the activities of runs started before their navi. names.
	p, err := navi.NewPlugin(navi.Options{Activities: acts, TrainQueue: trainQueue, BareNames: true})
	if err != nil {
		return err
	}
	c, err := cfg.DialTemporal(ctx, sdklog.NewStructuredLogger(logger), p)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := ensureSearchAttributes(ctx, c, cfg.Namespace); err != nil {
		return err
	}

	w := worker.New(c, cfg.TaskQueue, worker.Options{
		StickyScheduleToStartTimeout: contract.StickyScheduleToStartTimeout,
		// The runs of a worker that died come back all at once, each replaying its history:
		// more pollers take the burst sooner (the SDK polls with 2).
		MaxConcurrentWorkflowTaskPollers: 4,
	})
	encryption := "off"
	if cdc, err := cfg.Codec(); err == nil && cdc != nil { // (DialTemporal has checked the keys)
		encryption = fmt.Sprintf("AES-256-GCM, key %s of %d", cdc.Keys().Active(), len(cdc.Keys().IDs()))
	}
	logger.Info("navi worker starting", "temporal", cfg.TemporalAddress, "namespace", cfg.Namespace,
		"taskQueue", cfg.TaskQueue, "trainQueue", o.trainQueue, "neo4j", cfg.Neo4jURI, "planner", plannerName, "outputs", o.outputDir,
		"payloads", encryption)
	if trainQueue != navi.TrainQueueOff {
		// Training takes the machine: one training activity at a time on this worker.
		tw := worker.New(c, trainQueue, worker.Options{MaxConcurrentActivityExecutionSize: 1})
		if err := tw.Start(); err != nil {
			return fmt.Errorf("start the training worker on %s: %w", o.trainQueue, err)
		}
		defer tw.Stop()
	}
	return w.Run(worker.InterruptCh())
}

// warmStore runs n retrievals against the graph store before the worker takes work (see
// retrieval.Warm), with requests the graph's own API descriptions make. A graph with no APIs
// yet has nothing to warm; a store that fails is logged, and the worker starts all the same:
// its activities retry while Neo4j is down.
func warmStore(store *neo4j.Store, emb embed.Embedder, n int, logger *slog.Logger) {
	if n <= 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), retrieval.DefaultWarmBudget)
	defer cancel()
	texts, err := store.APIDescriptions(ctx, warmTexts)
	if err != nil {
		logger.Warn("graph store not warmed", "error", err)
		return
	}
	if len(texts) == 0 {
		logger.Info("graph store not warmed: the graph has no API yet")
		return
	}
	st, err := retrieval.Warm(ctx, store, emb, texts, retrieval.WarmOptions{Requests: n})
	if err != nil {
		logger.Warn("graph store warmed in part", "retrievals", st.Retrievals, "elapsed", st.Elapsed.Round(time.Millisecond), "error", err)
		return
	}
	logger.Info("graph store warmed", "retrievals", st.Retrievals, "apis", len(texts), "elapsed", st.Elapsed.Round(time.Millisecond),
		"first", st.First.Round(time.Millisecond), "last", st.Last.Round(time.Millisecond))
}

// warmTexts is how many API descriptions a warm-up asks with, in turn.
const warmTexts = 100

// newActivities builds the activities' dependencies other than the graph store: the
// embedder the graph was built with, the LLM planner when NAVI_LLM_* configure one, and the
// tool client (HTTP, and mcp for the tools of MCP servers), which keeps outputs over
// maxToolOutput bytes out of the history (0: its default). It names the planner runs will
// use by default.
func newActivities(outputDir string, maxToolOutput int, mcp toolcall.MCPCaller) (*activities.Activities, string, error) {
	emb, err := embed.Standard()
	if err != nil {
		return nil, "", err
	}
	acts := &activities.Activities{
		Embedder: emb,
		Tools: &toolcall.Client{HTTP: &http.Client{}, UserAgent: "navi-worker", Outputs: toolcall.DirStore{Dir: outputDir},
			MaxOutputBytes: maxToolOutput,
			// Secrets of the catalogs' Auth: NAVI_SECRET_<NAME>, or files in NAVI_SECRETS_DIR.
			Secrets: toolcall.EnvSecrets{Dir: config.Getenv("NAVI_SECRETS_DIR", "")},
			MCP:     mcp},
	}
	lc, err := llm.ConfigFromEnv()
	if err != nil {
		return nil, "", err
	}
	if !lc.Enabled() {
		return acts, planner.GraphFirstName + " (no LLM configured: set NAVI_LLM_BASE_URL and NAVI_LLM_MODEL)", nil
	}
	p, err := llm.New(lc)
	if err != nil {
		return nil, "", err
	}
	acts.LLM = p
	return acts, p.Name(), nil
}

// ensureSearchAttributes registers the custom search attributes the workflows upsert, where the
// namespace lacks them. Without them every run would fail its first workflow task.
func ensureSearchAttributes(ctx context.Context, c client.Client, namespace string) error {
	have, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return fmt.Errorf("list search attributes of namespace %s: %w", namespace, err)
	}
	missing := map[string]enumspb.IndexedValueType{}
	for name, typ := range workflows.SearchAttributes {
		if got, ok := have.GetCustomAttributes()[name]; !ok {
			missing[name] = typ
		} else if got != typ {
			return fmt.Errorf("search attribute %s of namespace %s has type %s, Navi needs %s: remove it or use another namespace", name, namespace, got, typ)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	_, err = c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{
		Namespace: namespace, SearchAttributes: missing,
	})
	var exists *serviceerror.AlreadyExists
	if err != nil && !errors.As(err, &exists) {
		names := make([]string, 0, len(missing))
		for n, t := range missing {
			names = append(names, fmt.Sprintf("--name %s --type %s", n, t))
		}
		sort.Strings(names)
		return fmt.Errorf("register search attributes in namespace %s: %w (register them by hand: temporal operator search-attribute create %s)",
			namespace, err, strings.Join(names, " "))
	}
	return nil
}

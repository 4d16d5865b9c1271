package devstack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/neo4j"
)

// markers identify each service's process in /proc/<pid>/cmdline.
var markers = map[string]string{
	"temporal":  "navi-devserver",
	"neo4j":     "dev.navi.neo4j.Launcher",
	"worker":    "navi-worker",
	"toolworld": "navi-toolworld",
	"codec":     "codec-server",
	"postgres":  ".postgres/bin/postgres",
	"llm":       "planner/llm/server/server.mjs",
}

type portUse struct {
	port int
	what string
	env  string // the variable that moves it
}

// service is one process of the stack.
type service struct {
	name    string
	address string // what to show once healthy
	marker  string
	ports   []portUse
	timeout time.Duration
	// binary, if set, is the program the service runs, built by this project: a running
	// process older than it is restarted by Up (see stale).
	binary  string
	command func() (*exec.Cmd, error)
	healthy func(ctx context.Context, pid int) error
	// lostPortRace, if set, reports whether the service's last start failed because a port
	// was taken: then starting again may succeed.
	lostPortRace func(o Options) bool
}

func (s *service) logFile(o Options) string { return filepath.Join(o.logDir(), s.name+".log") }
func (s *service) pidFile(o Options) string { return filepath.Join(o.runDir(), s.name+".pid") }

// ports is the file that keeps the ports chosen for a stack, so a second Up finds it again.
type ports struct {
	Temporal int `json:"temporal"`
	UI       int `json:"ui"`
	Bolt     int `json:"bolt"`
	Tool     int `json:"toolworld"`
	Codec    int `json:"codec,omitempty"`
	Postgres int `json:"postgres,omitempty"`
	LLM      int `json:"llm,omitempty"`
	// Nodes are the frontend ports of Temporal's nodes after the first.
	Nodes []int `json:"nodes,omitempty"`
}

// resolvePorts fills zero ports: with the ports of this state folder's running stack if there
// is one, otherwise with free ports.
func (o *Options) resolvePorts() error {
	path := filepath.Join(o.StateDir, "ports.json")
	var prev ports
	if b, err := os.ReadFile(path); err != nil || json.Unmarshal(b, &prev) != nil || !o.anyRunning() {
		prev = ports{} // no stack runs here: every port is free to choose
	}
	o.TemporalPort = firstNonZero(o.TemporalPort, prev.Temporal)
	o.UIPort = firstNonZero(o.UIPort, prev.UI)
	o.BoltPort = firstNonZero(o.BoltPort, prev.Bolt)
	o.ToolPort = firstNonZero(o.ToolPort, prev.Tool)
	o.CodecPort = firstNonZero(o.CodecPort, prev.Codec)
	o.PostgresPort = firstNonZero(o.PostgresPort, prev.Postgres)
	o.LLMPort = firstNonZero(o.LLMPort, prev.LLM)
	todo := []*int{&o.TemporalPort, &o.UIPort, &o.BoltPort, &o.ToolPort}
	if o.Codec {
		todo = append(todo, &o.CodecPort)
	}
	if o.Persistence == "postgres" {
		todo = append(todo, &o.PostgresPort)
	}
	if o.LLM != "" {
		todo = append(todo, &o.LLMPort)
	}
	// The other nodes keep the ports they run on; a node added since gets a free one.
	o.nodePorts = make([]int, o.TemporalNodes-1)
	copy(o.nodePorts, prev.Nodes)
	for i := range o.nodePorts {
		todo = append(todo, &o.nodePorts[i])
	}
	for _, p := range todo {
		if *p == 0 {
			free, err := freePort(o.IP)
			if err != nil {
				return err
			}
			*p = free
		}
	}
	b, _ := json.Marshal(ports{Temporal: o.TemporalPort, UI: o.UIPort, Bolt: o.BoltPort, Tool: o.ToolPort, Codec: o.CodecPort,
		Postgres: o.PostgresPort, LLM: o.LLMPort, Nodes: o.nodePorts})
	return os.WriteFile(path, b, 0o644)
}

func (o Options) anyRunning() bool {
	for _, name := range serviceNames(o.StateDir) {
		if pid, err := readPid(filepath.Join(o.runDir(), name+".pid")); err == nil && alive(pid, markerOf(name)) {
			return true
		}
	}
	return false
}

func firstNonZero(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

func (o Options) endpoints() Endpoints {
	frontends := []string{net.JoinHostPort(o.IP, strconv.Itoa(o.TemporalPort))}
	for _, p := range o.nodePorts {
		frontends = append(frontends, net.JoinHostPort(o.IP, strconv.Itoa(p)))
	}
	return Endpoints{
		TemporalAddress: strings.Join(frontends, ","),
		Namespace:       o.Namespace,
		UIURL:           "http://" + net.JoinHostPort(displayHost(o.IP), strconv.Itoa(o.UIPort)),
		Neo4jURI:        "bolt://" + net.JoinHostPort(o.IP, strconv.Itoa(o.BoltPort)),
		Neo4jUser:       o.Neo4jUser,
		TaskQueue:       o.TaskQueue,
		ToolWorldURL:    "http://" + net.JoinHostPort(o.IP, strconv.Itoa(o.ToolPort)),
		CodecURL:        o.codecURL(),
		LLMURL:          o.llmURL(),
		LLMModel:        o.llmModel(),
	}
}

// codecURL is where the browser reaches the codec server ("" without one).
func (o Options) codecURL() string {
	if !o.Codec {
		return ""
	}
	return "http://" + net.JoinHostPort(displayHost(o.IP), strconv.Itoa(o.CodecPort))
}

func displayHost(ip string) string {
	if ip == "127.0.0.1" {
		return "localhost"
	}
	return ip
}

// stages returns the services in the order they start (see Up).
func (o Options) stages(ep Endpoints) [][]*service {
	var stages [][]*service
	if o.Persistence == "postgres" {
		stages = append(stages, []*service{o.postgres()})
	}
	base := []*service{o.temporalNode(ep, 1), o.neo4j(ep), o.toolWorld(ep)}
	if o.Codec {
		base = append(base, o.codecServer(ep))
	}
	if o.LLM != "" {
		base = append(base, o.llmServer(ep))
	}
	stages = append(stages, base)
	var nodes []*service
	for n := 2; n <= o.TemporalNodes; n++ {
		nodes = append(nodes, o.temporalNode(ep, n))
	}
	if len(nodes) > 0 {
		stages = append(stages, nodes)
	}
	if o.Worker {
		var workers []*service
		for n := 1; n <= o.Workers; n++ {
			workers = append(workers, o.worker(ep, n))
		}
		stages = append(stages, workers)
	}
	return stages
}

// numbered names the nth service of a kind: "temporal", "temporal-2", ...
func numbered(kind string, n int) string {
	if n == 1 {
		return kind
	}
	return kind + "-" + strconv.Itoa(n)
}

// temporalNode is the nth Temporal server process. The first serves the UI; on PostgreSQL
// every node joins the others as one cluster.
func (o Options) temporalNode(ep Endpoints, n int) *service {
	name := numbered("temporal", n)
	port, uiPort := o.TemporalPort, o.UIPort
	address := fmt.Sprintf("%s (UI %s)", net.JoinHostPort(o.IP, strconv.Itoa(port)), ep.UIURL)
	ports := []portUse{{port, "Temporal gRPC", "NAVI_TEMPORAL_PORT"}, {uiPort, "Temporal UI", "NAVI_UI_PORT"}}
	if n > 1 {
		port, uiPort = o.nodePorts[n-2], 0
		address = net.JoinHostPort(o.IP, strconv.Itoa(port))
		ports = []portUse{{port, "Temporal gRPC of node " + strconv.Itoa(n), "-free-ports"}}
	}
	serverLog := filepath.Join(o.logDir(), strings.Replace(name, "temporal", "temporal-server", 1)+".log")
	node := Endpoints{TemporalAddress: net.JoinHostPort(o.IP, strconv.Itoa(port)), Namespace: ep.Namespace}
	return &service{
		name:    name,
		address: address,
		marker:  markers["temporal"],
		ports:   ports,
		timeout: 90 * time.Second,
		command: func() (*exec.Cmd, error) {
			bin, err := o.binary("navi-devserver", "make build")
			if err != nil {
				return nil, err
			}
			// A marker in the server's own log separates this start's lines from earlier ones.
			if err := appendLine(serverLog, startMarker); err != nil {
				return nil, err
			}
			args := []string{
				"-ip", o.IP,
				"-port", strconv.Itoa(port),
				"-ui-port", strconv.Itoa(uiPort),
				"-ui-codec-endpoint", o.codecURL(),
				"-namespace", o.Namespace,
				"-log-file", serverLog,
			}
			if o.Persistence == "postgres" {
				args = append(args, "-persistence", "postgres", "-cluster",
					"-pg-address", net.JoinHostPort(o.IP, strconv.Itoa(o.PostgresPort)), "-pg-user", postgresUser)
			} else {
				args = append(args, "-db-file", filepath.Join(o.StateDir, "temporal", "temporal.db"))
			}
			return exec.Command(bin, args...), nil
		},
		healthy: func(ctx context.Context, _ int) error {
			if err := temporalHealthy(ctx, node); err != nil {
				return err
			}
			if uiPort == 0 {
				return nil
			}
			return httpOK(ctx, ep.UIURL)
		},
		lostPortRace: func(o Options) bool {
			return strings.Contains(sinceLast(serverLog, startMarker), "address already in use")
		},
	}
}

// neo4j is the Neo4j launcher.
func (o Options) neo4j(ep Endpoints) *service {
	return &service{
		name:    "neo4j",
		address: ep.Neo4jURI,
		marker:  markers["neo4j"],
		ports:   []portUse{{o.BoltPort, "Neo4j Bolt", "NAVI_NEO4J_BOLT_PORT"}},
		timeout: 120 * time.Second,
		command: func() (*exec.Cmd, error) {
			java, err := exec.LookPath("java")
			if err != nil {
				return nil, errors.New("java not found on PATH: install a Java 17+ runtime (Debian: apt-get install openjdk-17-jre-headless)")
			}
			target := filepath.Join(o.Root, "neo4j", "launcher", "target")
			jar := filepath.Join(target, "navi-neo4j-launcher.jar")
			if _, err := os.Stat(jar); err != nil {
				return nil, fmt.Errorf("%s is missing: run `make build` (it needs Maven)", jar)
			}
			cmd := exec.Command(java, "-Xms256m", "-Xmx"+o.Neo4jHeap, "-XX:+UseG1GC",
				"-cp", jar+string(os.PathListSeparator)+filepath.Join(target, "lib", "*"),
				"dev.navi.neo4j.Launcher")
			cmd.Env = append(os.Environ(),
				"NAVI_NEO4J_DATA="+filepath.Join(o.StateDir, "neo4j"),
				"NAVI_NEO4J_BIND="+o.IP,
				"NAVI_NEO4J_BOLT_PORT="+strconv.Itoa(o.BoltPort),
				"NAVI_NEO4J_USER="+o.Neo4jUser,
				"NAVI_NEO4J_PASSWORD="+o.Neo4jPass,
				"NAVI_NEO4J_AUTH="+strconv.FormatBool(o.Neo4jPass != ""),
			)
			return cmd, nil
		},
		healthy: func(ctx context.Context, _ int) error {
			// Bolt answers before the launcher has set the password and checked the database;
			// only its "ready" line says both are done.
			if !launcherReady(filepath.Join(o.logDir(), "neo4j.log")) {
				return errors.New("the Neo4j launcher has not reported ready yet")
			}
			s, err := neo4j.Open(ctx, neo4j.Options{URI: ep.Neo4jURI, User: o.Neo4jUser, Password: o.Neo4jPass, Timeout: 2 * time.Second})
			if err != nil {
				return err
			}
			return s.Close(ctx)
		},
	}
}

// worker is the nth worker process.
func (o Options) worker(ep Endpoints, n int) *service {
	return &service{
		name:    numbered("worker", n),
		address: fmt.Sprintf("task queue %q", o.TaskQueue),
		marker:  markers["worker"],
		timeout: 60 * time.Second,
		binary:  filepath.Join(o.Root, "bin", "navi-worker"),
		command: func() (*exec.Cmd, error) {
			bin, err := o.binary("navi-worker", "make build")
			if err != nil {
				return nil, err
			}
			cmd := exec.Command(bin)
			cmd.Env = append(os.Environ(),
				"NAVI_TEMPORAL_ADDRESS="+ep.TemporalAddress,
				"NAVI_TEMPORAL_NAMESPACE="+ep.Namespace,
				"NAVI_TASK_QUEUE="+o.TaskQueue,
				"NAVI_NEO4J_URI="+ep.Neo4jURI,
				"NAVI_NEO4J_USER="+o.Neo4jUser,
				"NAVI_NEO4J_PASSWORD="+o.Neo4jPass,
			)
			if ep.LLMURL != "" {
				cmd.Env = append(cmd.Env, "NAVI_LLM_BASE_URL="+ep.LLMURL, "NAVI_LLM_MODEL="+ep.LLMModel,
					"NAVI_LLM_CONTEXT_TOKENS="+strconv.Itoa(localModelContext))
				if os.Getenv("NAVI_LLM_TIMEOUT") == "" { // a long prompt on a CPU takes tens of seconds
					cmd.Env = append(cmd.Env, "NAVI_LLM_TIMEOUT=5m")
				}
			}
			// Large tool outputs and model files stay under the stack's state folder.
			for v, dir := range map[string]string{"NAVI_OUTPUT_DIR": "outputs", "NAVI_MODEL_DIR": "models"} {
				if os.Getenv(v) == "" {
					cmd.Env = append(cmd.Env, v+"="+filepath.Join(o.StateDir, dir))
				}
			}
			return cmd, nil
		},
		healthy: func(ctx context.Context, pid int) error { return workerPolling(ctx, ep, pid) },
	}
}

// toolWorld is the tool world's server.
func (o Options) toolWorld(ep Endpoints) *service {
	return &service{
		name:    "toolworld",
		address: ep.ToolWorldURL,
		marker:  markers["toolworld"],
		ports:   []portUse{{o.ToolPort, "tool world", "NAVI_TOOLWORLD_PORT"}},
		timeout: 30 * time.Second,
		binary:  filepath.Join(o.Root, "bin", "navi-toolworld"),
		command: func() (*exec.Cmd, error) {
			bin, err := o.binary("navi-toolworld", "make build")
			if err != nil {
				return nil, err
			}
			return exec.Command(bin, "-addr", net.JoinHostPort(o.IP, strconv.Itoa(o.ToolPort))), nil
		},
		healthy: func(ctx context.Context, _ int) error { return httpOK(ctx, ep.ToolWorldURL+"/healthz") },
	}
}

// localModel is the model `make llm` installs, and the name the local endpoint serves it by.
const (
	localModelFile = ".llm/model.gguf"
	localModelName = "qwen2.5-coder-1.5b-instruct"
	// localModelContext is the context the endpoint gives the model, in tokens (the model
	// knows 32,768; a longer context costs memory and every token costs CPU time).
	localModelContext = 8192
)

func (o Options) llmURL() string {
	if o.LLM == "" {
		return ""
	}
	return "http://" + net.JoinHostPort(o.IP, strconv.Itoa(o.LLMPort)) + "/v1"
}

func (o Options) llmModel() string {
	if o.LLM == "" {
		return ""
	}
	return localModelName
}

// llmServer is the local model behind an OpenAI-compatible endpoint (planner/llm/server).
func (o Options) llmServer(ep Endpoints) *service {
	dir := filepath.Join(o.Root, "planner", "llm", "server")
	return &service{
		name:    "llm",
		address: ep.LLMURL + " (" + ep.LLMModel + ")",
		marker:  markers["llm"],
		ports:   []portUse{{o.LLMPort, "local LLM", "NAVI_LLM_PORT"}},
		timeout: 2 * time.Minute,
		command: func() (*exec.Cmd, error) {
			node, err := exec.LookPath("node")
			if err != nil {
				return nil, errors.New("node not found: install Node.js 18+ (Debian: apt-get install nodejs npm); the local LLM runs on it")
			}
			model := filepath.Join(o.Root, localModelFile)
			for _, need := range []string{model, filepath.Join(dir, "node_modules", "node-llama-cpp")} {
				if _, err := os.Stat(need); err != nil {
					return nil, fmt.Errorf("%s is missing: run `make llm` (it installs the model and its runtime)", need)
				}
			}
			return exec.Command(node, filepath.Join(dir, "server.mjs"), "--model", model, "--name", localModelName, "--context", strconv.Itoa(localModelContext),
				"--addr", net.JoinHostPort(o.IP, strconv.Itoa(o.LLMPort))), nil
		},
		healthy: func(ctx context.Context, _ int) error {
			return httpOK(ctx, strings.TrimSuffix(ep.LLMURL, "/v1")+"/health")
		},
	}
}

// codecServer is `navi codec-server`, which the UI decodes payloads through.
func (o Options) codecServer(ep Endpoints) *service {
	return &service{
		name:    "codec",
		address: ep.CodecURL + " (for the Temporal UI)",
		marker:  markers["codec"],
		ports:   []portUse{{o.CodecPort, "codec server", "NAVI_CODEC_PORT"}},
		timeout: 30 * time.Second,
		command: func() (*exec.Cmd, error) {
			bin, err := o.binary("navi", "make build")
			if err != nil {
				return nil, err
			}
			// The keys come through the environment (NAVI_CODEC_KEYS or NAVI_CODEC_KEYS_FILE).
			origins := ep.UIURL + ",http://" + net.JoinHostPort(o.IP, strconv.Itoa(o.UIPort)) // localhost or the IP
			return exec.Command(bin, "codec-server", "-addr", net.JoinHostPort(o.IP, strconv.Itoa(o.CodecPort)),
				"-origin", origins), nil
		},
		healthy: func(ctx context.Context, _ int) error { return httpOK(ctx, ep.CodecURL+"/healthz") },
	}
}

// launcherReady reports whether the Neo4j log shows a "ready" line after the last start
// marker that Up wrote.
func launcherReady(logFile string) bool {
	return strings.Contains(sinceLast(logFile, "---- neo4j started"), "navi-neo4j: ready")
}

// startMarker is the line written to the Temporal server's log before each start.
const startMarker = `{"msg":"---- started by navi dev up"}`

// sinceLast returns the part of a log file from the last occurrence of marker on (all of it
// when the marker is absent, "" when the file is).
func sinceLast(logFile, marker string) string {
	b, err := os.ReadFile(logFile)
	if err != nil {
		return ""
	}
	log := string(b)
	if i := strings.LastIndex(log, marker); i >= 0 {
		log = log[i:]
	}
	return log
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (o Options) binary(name, how string) (string, error) {
	p := filepath.Join(o.Root, "bin", name)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%s is missing: run `%s`", p, how)
	}
	return p, nil
}

// quietLogger keeps the SDK's connection warnings out of `navi dev up` output.
var quietLogger = sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))

func dial(ctx context.Context, ep Endpoints) (client.Client, error) {
	opts, err := config.WithFrontends(client.Options{Namespace: ep.Namespace, Logger: quietLogger}, ep.TemporalAddress)
	if err != nil {
		return nil, err
	}
	return client.DialContext(ctx, opts)
}

// temporalHealthy passes once the frontend answers and the namespace exists.
func temporalHealthy(ctx context.Context, ep Endpoints) error {
	c, err := dial(ctx, ep)
	if err != nil {
		return fmt.Errorf("temporal %s: %w", ep.TemporalAddress, err)
	}
	defer c.Close()
	if _, err := c.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		return fmt.Errorf("temporal %s health: %w", ep.TemporalAddress, err)
	}
	_, err = c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: ep.Namespace})
	if err != nil {
		return fmt.Errorf("temporal namespace %s: %w", ep.Namespace, err)
	}
	// The frontend's namespace cache lags the database by seconds on a namespace registered
	// at start (PostgreSQL): until it lists the search attributes, runs would be refused.
	attrs, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: ep.Namespace})
	if err != nil {
		return fmt.Errorf("temporal namespace %s: search attributes: %w", ep.Namespace, err)
	}
	if _, ok := attrs.GetCustomAttributes()["NaviStatus"]; !ok {
		return fmt.Errorf("temporal namespace %s: Navi's search attributes are not registered yet", ep.Namespace)
	}
	return nil
}

// workerPolling passes once the worker process pid polls the task queue. The SDK's default
// worker identity starts with "<pid>@".
func workerPolling(ctx context.Context, ep Endpoints, pid int) error {
	c, err := dial(ctx, ep)
	if err != nil {
		return err
	}
	defer c.Close()
	resp, err := c.WorkflowService().DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{
		Namespace:     ep.Namespace,
		TaskQueue:     &taskqueuepb.TaskQueue{Name: ep.TaskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
		TaskQueueType: enumspb.TASK_QUEUE_TYPE_WORKFLOW,
	})
	if err != nil {
		return fmt.Errorf("describe task queue %s: %w", ep.TaskQueue, err)
	}
	prefix := strconv.Itoa(pid) + "@"
	for _, p := range resp.GetPollers() {
		if strings.HasPrefix(p.GetIdentity(), prefix) {
			return nil
		}
	}
	return fmt.Errorf("worker pid %d is not polling task queue %s yet", pid, ep.TaskQueue)
}

func httpOK(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", url, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: HTTP %d", url, resp.StatusCode)
	}
	return nil
}

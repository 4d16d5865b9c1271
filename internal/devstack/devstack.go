// Package devstack starts, checks and stops Navi's local stack as plain processes: the embedded
// Temporal dev server with its UI, a local Neo4j, the tool world, and the Navi worker. It waits on real health
// checks (a Temporal namespace that answers, a Bolt login that succeeds, a worker polling its
// task queue), reuses what already runs, and keeps pid files, logs and chosen ports under one
// state folder so that Down always stops what Up started.
package devstack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Options configures one stack. Zero ports mean "pick free ports" (and reuse the ones picked
// before while that stack runs).
type Options struct {
	Root         string // repository root: bin/ and neo4j/launcher/target live here
	StateDir     string // pid files, logs, data and stack.env
	IP           string // address every service binds to; default 127.0.0.1
	TemporalPort int
	UIPort       int
	BoltPort     int
	ToolPort     int // the tool world
	// Codec starts `navi codec-server` on CodecPort (0: a free one) and points the embedded
	// Temporal UI at it: set when payload encryption keys are configured (NAVI_CODEC_KEYS),
	// which the codec server and the worker read from the environment.
	Codec     bool
	CodecPort int
	Namespace string
	TaskQueue string
	Neo4jUser string
	Neo4jPass string // passed to Neo4j and the worker through their environment only
	Neo4jHeap string // JVM -Xmx for Neo4j, e.g. 1g
	Worker    bool   // also start the worker
	// Persistence is where Temporal keeps its data: "sqlite" (the default: one file) or
	// "postgres", a PostgreSQL server of the stack's own on PostgresPort, run from the
	// binaries `make postgres` installs in <Root>/.postgres.
	Persistence  string
	PostgresPort int
	// TemporalNodes is how many Temporal server processes run, on one PostgreSQL database
	// as one cluster (default 1; more need Persistence "postgres"). Node 1 serves the UI.
	TemporalNodes int
	// Workers is how many worker processes poll the task queue (default 1).
	Workers int
	// LLM "local" starts the OpenAI-compatible endpoint of planner/llm/server on LLMPort with
	// the model `make llm` installs in <Root>/.llm, and points the workers' LLM planner at it
	// (they then plan with it by default); "" starts none.
	LLM       string
	LLMPort   int
	nodePorts []int  // frontend ports of the Temporal nodes after the first
	EnvPrefix string // prefix of the variables in stack.env; default NAVI_
	Out       io.Writer
}

// Endpoints says where the running stack answers.
type Endpoints struct {
	TemporalAddress string
	Namespace       string
	UIURL           string
	Neo4jURI        string
	Neo4jUser       string
	TaskQueue       string
	ToolWorldURL    string
	CodecURL        string // the codec server's, when Options.Codec
	LLMURL          string // the local LLM's API root, when Options.LLM is "local"
	LLMModel        string
}

// Env renders the endpoints as shell variable assignments, one per line.
func (e Endpoints) Env(prefix string) string {
	var b strings.Builder
	for _, kv := range [][2]string{
		{"TEMPORAL_ADDRESS", e.TemporalAddress},
		{"TEMPORAL_NAMESPACE", e.Namespace},
		{"TEMPORAL_UI", e.UIURL},
		{"TASK_QUEUE", e.TaskQueue},
		{"NEO4J_URI", e.Neo4jURI},
		{"NEO4J_USER", e.Neo4jUser},
		{"TOOLWORLD_URL", e.ToolWorldURL},
		{"CODEC_SERVER", e.CodecURL},
		{"LLM_BASE_URL", e.LLMURL},
		{"LLM_MODEL", e.LLMModel},
	} {
		if kv[1] == "" {
			continue
		}
		fmt.Fprintf(&b, "%s%s=%s\n", prefix, kv[0], kv[1])
	}
	return b.String()
}

func (o *Options) defaults() error {
	if o.Root == "" {
		o.Root = "."
	}
	if o.StateDir == "" {
		o.StateDir = filepath.Join(o.Root, ".state")
	}
	var err error
	if o.Root, err = filepath.Abs(o.Root); err != nil {
		return err
	}
	if o.StateDir, err = filepath.Abs(o.StateDir); err != nil {
		return err
	}
	if o.IP == "" {
		o.IP = "127.0.0.1"
	}
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	if o.TaskQueue == "" {
		o.TaskQueue = "navi"
	}
	if o.Neo4jHeap == "" {
		o.Neo4jHeap = "1g"
	}
	if o.EnvPrefix == "" {
		o.EnvPrefix = "NAVI_"
	}
	if o.Persistence == "" {
		o.Persistence = "sqlite"
	}
	if o.Persistence != "sqlite" && o.Persistence != "postgres" {
		return fmt.Errorf("persistence %q: want sqlite or postgres", o.Persistence)
	}
	if o.LLM != "" && o.LLM != "local" {
		return fmt.Errorf("llm %q: want local, or nothing", o.LLM)
	}
	o.TemporalNodes = max(o.TemporalNodes, 1)
	o.Workers = max(o.Workers, 1)
	if o.TemporalNodes > 1 && o.Persistence != "postgres" {
		return fmt.Errorf("%d Temporal nodes need persistence postgres: the nodes of a cluster share its database", o.TemporalNodes)
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	return nil
}

func (o Options) logDir() string { return filepath.Join(o.StateDir, "logs") }
func (o Options) runDir() string { return filepath.Join(o.StateDir, "run") }

// EnvFile is where Up writes the endpoints of a running stack.
func EnvFile(stateDir string) string { return filepath.Join(stateDir, "stack.env") }

// Up starts whatever part of the stack is not running yet and waits until every part is healthy.
func Up(ctx context.Context, o Options) (Endpoints, error) {
	if err := o.defaults(); err != nil {
		return Endpoints{}, err
	}
	for _, d := range []string{o.logDir(), o.runDir(), filepath.Join(o.StateDir, "temporal"), filepath.Join(o.StateDir, "neo4j")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return Endpoints{}, fmt.Errorf("create state folder: %w", err)
		}
	}
	if err := o.resolvePorts(); err != nil {
		return Endpoints{}, err
	}
	ep := o.endpoints()

	// Each stage starts side by side once the one before is healthy: PostgreSQL; Temporal's
	// first node, Neo4j, the tool world and the codec server; the other Temporal nodes (which
	// join the first); the workers, which need Temporal and Neo4j.
	for _, stage := range o.stages(ep) {
		if err := startAll(ctx, o, stage); err != nil {
			return ep, err
		}
	}
	if err := os.WriteFile(EnvFile(o.StateDir), []byte(ep.Env(o.EnvPrefix)), 0o644); err != nil {
		return ep, fmt.Errorf("write %s: %w", EnvFile(o.StateDir), err)
	}
	return ep, nil
}

// startAll starts the services that are not running, then waits for all of them.
func startAll(ctx context.Context, o Options, svcs []*service) error {
	type waiting struct {
		svc    *service
		pid    int
		exited <-chan error
	}
	var ws []waiting
	var toStart []*service
	for _, s := range svcs {
		if pid, ok := running(o, s); ok {
			if !stale(o, s) {
				fmt.Fprintf(o.Out, "%-10s already running (pid %d), reusing it\n", s.name, pid)
				ws = append(ws, waiting{svc: s, pid: pid})
				continue
			}
			// A rebuilt binary: the running process would serve the old code.
			fmt.Fprintf(o.Out, "%-10s restarting (pid %d): %s was rebuilt after it started\n", s.name, pid, s.binary)
			if err := stop(pid, 30*time.Second); err != nil {
				return fmt.Errorf("restart %s (pid %d): %w", s.name, pid, err)
			}
			_ = os.Remove(s.pidFile(o))
		}
		toStart = append(toStart, s)
	}
	// Check every port before starting anything, so a taken port leaves nothing half-started.
	for _, s := range toStart {
		for _, p := range s.ports {
			if err := portFree(o.IP, p.port); err != nil {
				return fmt.Errorf("%s: port %d (%s) is already in use by a process this stack did not start: stop it, or run on other ports (%s)",
					s.name, p.port, p.what, p.env)
			}
		}
	}
	for _, s := range toStart {
		pid, exited, err := start(o, s)
		if err != nil {
			return err
		}
		fmt.Fprintf(o.Out, "%-10s starting (pid %d), log %s\n", s.name, pid, s.logFile(o))
		ws = append(ws, waiting{svc: s, pid: pid, exited: exited})
	}
	errs := make(chan error, len(ws))
	for _, w := range ws {
		go func() { errs <- waitRetrying(ctx, o, w.svc, w.pid, w.exited) }()
	}
	var first error
	for range ws {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// maxStarts bounds how often a service that lost a port race is started.
const maxStarts = 3

// waitRetrying waits for the service to become healthy, starting it again when it exited
// because a port it chose was taken meanwhile (free ports are found by binding and releasing
// them, so another process's outgoing connection can take one before the service binds it).
func waitRetrying(ctx context.Context, o Options, s *service, pid int, exited <-chan error) error {
	for attempt := 1; ; attempt++ {
		err := waitHealthy(ctx, o, s, pid, exited)
		if err == nil || exited == nil || attempt >= maxStarts || s.lostPortRace == nil || !s.lostPortRace(o) {
			return err
		}
		fmt.Fprintf(o.Out, "%-10s lost a race for a port, starting it again\n", s.name)
		if pid, exited, err = start(o, s); err != nil {
			return err
		}
	}
}

// waitHealthy polls the service's health check until it passes, the process exits, or the
// service's start timeout ends.
func waitHealthy(ctx context.Context, o Options, s *service, pid int, exited <-chan error) error {
	deadline := time.Now().Add(s.timeout)
	var last error
	for {
		cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		last = s.healthy(cctx, pid)
		cancel()
		if last == nil {
			fmt.Fprintf(o.Out, "%-10s healthy: %s\n", s.name, s.address)
			return nil
		}
		select {
		case err := <-exited:
			return fmt.Errorf("%s exited during start (%v): %s%s", s.name, err, lastLine(s.logFile(o)), logHint(s.logFile(o)))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not healthy after %s: %v%s", s.name, s.timeout, last, logHint(s.logFile(o)))
		}
	}
}

// start launches a service in its own process group, so that it outlives this command and
// Down can stop it with everything it spawned.
func start(o Options, s *service) (int, <-chan error, error) {
	cmd, err := s.command()
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %w", s.name, err)
	}
	logf, err := os.OpenFile(s.logFile(o), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return 0, nil, fmt.Errorf("%s: open log: %w", s.name, err)
	}
	fmt.Fprintf(logf, "---- %s started by navi dev up at %s\n", s.name, time.Now().Format(time.RFC3339))
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Dir = o.Root
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if err := cmd.Start(); err != nil {
		logf.Close()
		return 0, nil, fmt.Errorf("%s: start %s: %w", s.name, cmd.Path, err)
	}
	pid := cmd.Process.Pid
	if err := os.WriteFile(s.pidFile(o), []byte(strconv.Itoa(pid)), 0o644); err != nil {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		logf.Close()
		return 0, nil, fmt.Errorf("%s: write pid file: %w", s.name, err)
	}
	exited := make(chan error, 1)
	go func() {
		exited <- cmd.Wait()
		logf.Close()
	}()
	return pid, exited, nil
}

// running reports the pid of the service if its pid file names a live process of this service.
func running(o Options, s *service) (int, bool) {
	pid, err := readPid(s.pidFile(o))
	if err != nil {
		return 0, false
	}
	if !alive(pid, s.marker) {
		// Only a pid file whose process is gone is stale. A process caught in the middle of
		// exec can show an empty command line for an instant: keep its pid file.
		if syscall.Kill(pid, 0) != nil {
			_ = os.Remove(s.pidFile(o))
		}
		return 0, false
	}
	return pid, true
}

// stale reports whether the service's process started before its binary was last built: its
// pid file, written at the start, is older than the binary.
func stale(o Options, s *service) bool {
	if s.binary == "" {
		return false
	}
	bin, err := os.Stat(s.binary)
	if err != nil {
		return false
	}
	started, err := os.Stat(s.pidFile(o))
	return err == nil && bin.ModTime().After(started.ModTime())
}

// Down stops every service of the stack in stateDir (workers first, PostgreSQL last) and
// removes its pid files. It succeeds when nothing runs.
func Down(stateDir string, out io.Writer) error {
	var errs []error
	for _, name := range slices.Backward(serviceNames(stateDir)) {
		pidFile := filepath.Join(stateDir, "run", name+".pid")
		pid, err := readPid(pidFile)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		if !alive(pid, markerOf(name)) {
			_ = os.Remove(pidFile)
			continue
		}
		if err := stop(pid, 30*time.Second); err != nil {
			errs = append(errs, fmt.Errorf("stop %s (pid %d): %w", name, pid, err))
			continue
		}
		_ = os.Remove(pidFile)
		fmt.Fprintf(out, "%-10s stopped (pid %d)\n", name, pid)
	}
	return errors.Join(errs...)
}

// kinds are the kinds of service a stack may run, in the order they start: Down stops them in
// the reverse order, the workers first.
var kinds = []string{"postgres", "temporal", "neo4j", "toolworld", "codec", "llm", "worker"}

// kindOf is the kind of a service: its name without the node number ("temporal-2").
func kindOf(name string) string {
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i]
		}
	}
	return name
}

func markerOf(name string) string { return markers[kindOf(name)] }

// serviceNames are the services of the stack in stateDir in start order: the usual ones and
// any other that has a pid file there (PostgreSQL, further nodes and workers).
func serviceNames(stateDir string) []string {
	names := []string{"temporal", "neo4j", "toolworld", "codec", "worker"}
	files, _ := filepath.Glob(filepath.Join(stateDir, "run", "*.pid"))
	for _, f := range files {
		if n := strings.TrimSuffix(filepath.Base(f), ".pid"); !slices.Contains(names, n) && markers[kindOf(n)] != "" {
			names = append(names, n)
		}
	}
	slices.SortStableFunc(names, func(a, b string) int {
		if d := slices.Index(kinds, kindOf(a)) - slices.Index(kinds, kindOf(b)); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return names
}

// Status is one line per service: running or not, with its pid.
func Status(stateDir string) []string {
	var lines []string
	for _, name := range serviceNames(stateDir) {
		pid, err := readPid(filepath.Join(stateDir, "run", name+".pid"))
		switch {
		case err != nil:
			lines = append(lines, fmt.Sprintf("%-10s stopped", name))
		case alive(pid, markerOf(name)):
			lines = append(lines, fmt.Sprintf("%-10s running (pid %d)", name, pid))
		default:
			lines = append(lines, fmt.Sprintf("%-10s stopped (stale pid file, pid %d)", name, pid))
		}
	}
	return lines
}

func readPid(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		return 0, fmt.Errorf("pid file %s is corrupt: %q", path, b)
	}
	return pid, nil
}

// alive reports whether pid runs and its command line contains marker, so that a pid reused by
// an unrelated process is never mistaken for (or killed as) a service.
func alive(pid int, marker string) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err == nil && isZombie(string(stat)) {
		return false
	}
	return strings.Contains(string(cmdline), marker)
}

// groupAlive reports whether any process of the process group pgid remains (zombies aside).
func groupAlive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	// Signal 0 succeeds on zombies; look for a member that is not one.
	found := false
	eachProcess(func(_ int, fields []string) bool {
		found = len(fields) > 3 && fields[2] == strconv.Itoa(pgid) && fields[0] != "Z"
		return !found
	})
	return found
}

// eachProcess calls fn with each process's pid and the fields of its /proc/pid/stat after
// the command name (statFields), until fn returns false.
func eachProcess(fn func(pid int, fields []string) bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		if !fn(pid, statFields(string(stat))) {
			return
		}
	}
}

// Crash kills the service name of the stack in stateDir as a crash of its machine would:
// SIGKILL to its process group and to the children that left the group (PostgreSQL's
// backends start sessions of their own). It returns the service's pid; its pid file stays,
// so that Up starts it again. Make cluster's fault test uses it.
func Crash(stateDir, name string) (int, error) {
	pid, err := readPid(filepath.Join(stateDir, "run", name+".pid"))
	if err != nil {
		return 0, err
	}
	if !alive(pid, markerOf(name)) {
		return 0, fmt.Errorf("%s (pid %d) is not running", name, pid)
	}
	var children []int
	eachProcess(func(child int, fields []string) bool {
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			children = append(children, child)
		}
		return true
	})
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		return 0, fmt.Errorf("kill %s (pid %d): %w", name, pid, err)
	}
	for _, child := range children {
		_ = syscall.Kill(child, syscall.SIGKILL)
	}
	return pid, nil
}

// statFields returns the fields of /proc/pid/stat after the command name: state, ppid, pgrp...
func statFields(stat string) []string {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(stat[i+1:])
}

func isZombie(stat string) bool {
	f := statFields(stat)
	return len(f) > 0 && f[0] == "Z"
}

func portFree(ip string, port int) error {
	l, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port)))
	if err != nil {
		return err
	}
	return l.Close()
}

func freePort(ip string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// lastLine returns the last non-empty line of a log file, for one-line failure messages.
func lastLine(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func logHint(path string) string {
	return fmt.Sprintf(" (log: %s)", path)
}

// stop sends SIGTERM to the process group, then SIGKILL if it has not ended in time.
func stop(pid int, grace time.Duration) error {
	if err := syscall.Kill(-pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if !groupAlive(pid) {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	for i := 0; i < 50 && groupAlive(pid); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if groupAlive(pid) {
		return errors.New("still running after SIGKILL")
	}
	return nil
}

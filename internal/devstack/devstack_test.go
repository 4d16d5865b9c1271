package devstack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEndpointsEnv(t *testing.T) {
	ep := Endpoints{TemporalAddress: "127.0.0.1:7233", Namespace: "default", UIURL: "http://localhost:8233",
		Neo4jURI: "bolt://127.0.0.1:7687", Neo4jUser: "neo4j", TaskQueue: "navi", ToolWorldURL: "http://127.0.0.1:8300"}
	assert.Equal(t, `NAVI_TEST_TEMPORAL_ADDRESS=127.0.0.1:7233
NAVI_TEST_TEMPORAL_NAMESPACE=default
NAVI_TEST_TEMPORAL_UI=http://localhost:8233
NAVI_TEST_TASK_QUEUE=navi
NAVI_TEST_NEO4J_URI=bolt://127.0.0.1:7687
NAVI_TEST_NEO4J_USER=neo4j
NAVI_TEST_TOOLWORLD_URL=http://127.0.0.1:8300
`, ep.Env("NAVI_TEST_"))
}

func TestStatFields(t *testing.T) {
	// The command name may hold spaces and parentheses; fields start after the last ')'.
	f := statFields("4242 (java (x) y) S 1 4242 4242 0 -1")
	require.GreaterOrEqual(t, len(f), 3)
	assert.Equal(t, []string{"S", "1", "4242"}, f[:3])
	assert.True(t, isZombie("7 (a) Z 1 7 7"))
	assert.False(t, isZombie("7 (a) R 1 7 7"))
}

func listen(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	return l.Addr().(*net.TCPAddr).Port
}

func TestUpRefusesATakenPortAndStartsNothing(t *testing.T) {
	state := t.TempDir()
	busy := listen(t)
	free, err := freePort("127.0.0.1")
	require.NoError(t, err)

	_, err = Up(context.Background(), Options{Root: t.TempDir(), StateDir: state,
		TemporalPort: free, UIPort: free + 1, BoltPort: busy, Neo4jUser: "neo4j", Neo4jPass: "password"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "port "+strconv.Itoa(busy)+" (Neo4j Bolt) is already in use")
	assert.Contains(t, err.Error(), "NAVI_NEO4J_BOLT_PORT")

	pids, _ := filepath.Glob(filepath.Join(state, "run", "*.pid"))
	assert.Empty(t, pids, "nothing may start when a port is taken")
}

func TestUpNamesAMissingBinary(t *testing.T) {
	_, err := Up(context.Background(), Options{Root: t.TempDir(), StateDir: t.TempDir(), Neo4jUser: "neo4j", Neo4jPass: "password"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "navi-devserver is missing: run `make build`")
}

func TestDownCleansStalePidFilesAndLeavesStrangersAlone(t *testing.T) {
	state := t.TempDir()
	run := filepath.Join(state, "run")
	require.NoError(t, os.MkdirAll(run, 0o755))
	// This test process is alive but is not a Navi service: Down must not signal it.
	require.NoError(t, os.WriteFile(filepath.Join(run, "worker.pid"), []byte(strconv.Itoa(os.Getpid())), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(run, "neo4j.pid"), []byte("999999999"), 0o644))

	var out bytes.Buffer
	require.NoError(t, Down(state, &out))
	assert.Empty(t, out.String(), "nothing was running")
	pids, _ := filepath.Glob(filepath.Join(run, "*.pid"))
	assert.Empty(t, pids)
	assert.Equal(t, []string{"temporal   stopped", "neo4j      stopped", "toolworld  stopped", "codec      stopped", "worker     stopped"}, Status(state))
}

// standIn prepares a stack in state whose binary bin is a shell script running body, and
// returns its options and its service named name: a stand-in whose command line carries the
// service's marker. A script ends in the builtin wait: a shell may exec a last simple command
// in its own place, which would drop the marker from the command line.
func standIn(t *testing.T, state, bin, body, name string, codec bool) (Options, *service) {
	t.Helper()
	root := t.TempDir()
	script := filepath.Join(root, "bin", bin)
	require.NoError(t, os.MkdirAll(filepath.Dir(script), 0o755))
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\n"+body+"wait\n"), 0o755))
	o := Options{Root: root, StateDir: state, Codec: codec, Worker: true}
	require.NoError(t, o.defaults())
	require.NoError(t, os.MkdirAll(o.runDir(), 0o755))
	require.NoError(t, os.MkdirAll(o.logDir(), 0o755))
	for _, stage := range o.stages(o.endpoints()) {
		for _, s := range stage {
			if s.name == name {
				return o, s
			}
		}
	}
	require.Failf(t, "no such service", "%s", name)
	return o, nil
}

func TestDownStopsTheWholeProcessGroup(t *testing.T) {
	state := t.TempDir()
	// A stand-in worker, with children.
	o, w := standIn(t, state, "navi-worker", "sleep 300 &\nsleep 300 &\n", "worker", false)
	pid, exited, err := start(o, w)
	require.NoError(t, err)
	if !assert.Eventually(t, func() bool { _, ok := running(o, w); return ok }, 20*time.Second, 50*time.Millisecond, "the stand-in worker is running") {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		pidFile, _ := os.ReadFile(w.pidFile(o))
		logText, _ := os.ReadFile(w.logFile(o))
		t.Fatalf("pid %d, pid file %q, cmdline %q, stat %q, log %q", pid, pidFile, cmdline, stat, logText)
	}

	var out bytes.Buffer
	require.NoError(t, Down(state, &out))
	assert.Equal(t, "worker     stopped (pid "+strconv.Itoa(pid)+")\n", out.String())
	<-exited
	assert.False(t, groupAlive(pid), "no process of the group may remain")
	assert.NoFileExists(t, w.pidFile(o))
}

func TestLauncherReady(t *testing.T) {
	log := filepath.Join(t.TempDir(), "neo4j.log")
	assert.False(t, launcherReady(log), "no log yet")
	require.NoError(t, os.WriteFile(log, []byte("---- neo4j started by navi dev up at 1\nnavi-neo4j: ready on bolt://x\nnavi-neo4j: stopping\n"+
		"---- neo4j started by navi dev up at 2\n"), 0o644))
	assert.False(t, launcherReady(log), "a ready line of an earlier start does not count")
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("navi-neo4j: ready on bolt://y\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	assert.True(t, launcherReady(log))
}

// A service that loses a port race on its first start is started again, and becomes healthy.
func TestWaitRetryingRestartsAfterAPortRace(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	o := Options{Root: root, StateDir: state, Out: &bytes.Buffer{}}
	require.NoError(t, o.defaults())
	require.NoError(t, os.MkdirAll(o.runDir(), 0o755))
	require.NoError(t, os.MkdirAll(o.logDir(), 0o755))
	tries := filepath.Join(root, "tries")
	ready := filepath.Join(root, "ready")
	// First start: report a taken port and exit; later starts: become ready and stay up.
	script := filepath.Join(root, "navi-devserver")
	require.NoError(t, os.WriteFile(script, []byte(`#!/bin/sh
echo x >> `+tries+`
if [ "$(wc -l < `+tries+`)" -eq 1 ]; then echo "bind: address already in use"; exit 1; fi
touch `+ready+`
sleep 300 &
wait
`), 0o755))
	svc := &service{
		name: "temporal", marker: "navi-devserver", timeout: 20 * time.Second,
		command: func() (*exec.Cmd, error) { return exec.Command(script), nil },
		healthy: func(context.Context, int) error {
			if _, err := os.Stat(ready); err != nil {
				return errors.New("not ready")
			}
			return nil
		},
		lostPortRace: func(o Options) bool {
			return strings.Contains(sinceLast(filepath.Join(o.logDir(), "temporal.log"), "---- temporal started"), "address already in use")
		},
	}
	pid, exited, err := start(o, svc)
	require.NoError(t, err)
	require.NoError(t, waitRetrying(context.Background(), o, svc, pid, exited))
	b, err := os.ReadFile(tries)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(b), "x"), "started twice")
	assert.Contains(t, o.Out.(*bytes.Buffer).String(), "lost a race for a port")
	require.NoError(t, Down(state, io.Discard))
}

func TestCodecServerJoinsTheStack(t *testing.T) {
	root := t.TempDir()
	for _, bin := range []string{"navi", "navi-devserver"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, "bin"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, "bin", bin), []byte("#!/bin/sh\n"), 0o755))
	}
	names := func(o Options) (out []string, byName map[string]*service) {
		byName = map[string]*service{}
		for _, stage := range o.stages(o.endpoints()) {
			for _, s := range stage {
				out = append(out, s.name)
				byName[s.name] = s
			}
		}
		return out, byName
	}
	o := Options{Root: root, StateDir: t.TempDir(), TemporalPort: 1, UIPort: 2, BoltPort: 3, ToolPort: 4, Worker: true}
	require.NoError(t, o.defaults())
	require.NoError(t, os.MkdirAll(o.logDir(), 0o755))
	got, svcs := names(o)
	assert.Equal(t, []string{"temporal", "neo4j", "toolworld", "worker"}, got)
	cmd, err := svcs["temporal"].command()
	require.NoError(t, err)
	assert.Contains(t, strings.Join(cmd.Args, " "), "-ui-codec-endpoint  -namespace", "no codec: the UI decodes nothing")
	assert.NotContains(t, o.endpoints().Env("NAVI_"), "CODEC")

	o.Codec, o.CodecPort = true, 5
	got, svcs = names(o)
	assert.Equal(t, []string{"temporal", "neo4j", "toolworld", "codec", "worker"}, got, "the worker starts last")
	cmd, err = svcs["temporal"].command()
	require.NoError(t, err)
	assert.Contains(t, strings.Join(cmd.Args, " "), "-ui-codec-endpoint http://localhost:5")
	cmd, err = svcs["codec"].command()
	require.NoError(t, err)
	assert.Equal(t, []string{"codec-server", "-addr", "127.0.0.1:5", "-origin", "http://localhost:2,http://127.0.0.1:2"}, cmd.Args[1:])
	assert.Contains(t, o.endpoints().Env("NAVI_"), "NAVI_CODEC_SERVER=http://localhost:5\n")
}

// The cluster's topology: PostgreSQL first, then Temporal's first node beside Neo4j and the
// tool world, then the other node, then the workers; every node on PostgreSQL as one cluster,
// only the first with the UI, and clients given every frontend.
func TestClusterTopology(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "bin", "navi-devserver"), []byte("#!/bin/sh\n"), 0o755))
	o := Options{Root: root, StateDir: t.TempDir(), TemporalPort: 1, UIPort: 2, BoltPort: 3, ToolPort: 4, PostgresPort: 5,
		Persistence: "postgres", TemporalNodes: 2, Workers: 2, Worker: true, nodePorts: []int{6}}
	require.NoError(t, o.defaults())
	require.NoError(t, os.MkdirAll(o.logDir(), 0o755))
	var stages [][]string
	byName := map[string]*service{}
	for _, stage := range o.stages(o.endpoints()) {
		var names []string
		for _, s := range stage {
			names = append(names, s.name)
			byName[s.name] = s
		}
		stages = append(stages, names)
	}
	assert.Equal(t, [][]string{{"postgres"}, {"temporal", "neo4j", "toolworld"}, {"temporal-2"}, {"worker", "worker-2"}}, stages)
	for name, ui := range map[string]string{"temporal": "-ui-port 2", "temporal-2": "-ui-port 0"} {
		cmd, err := byName[name].command()
		require.NoError(t, err)
		args := strings.Join(cmd.Args, " ")
		assert.Contains(t, args, ui, name)
		assert.Contains(t, args, "-persistence postgres -cluster -pg-address 127.0.0.1:5", name)
	}
	assert.Equal(t, "127.0.0.1:1,127.0.0.1:6", o.endpoints().TemporalAddress)

	o = Options{TemporalNodes: 2}
	assert.ErrorContains(t, o.defaults(), "2 Temporal nodes need persistence postgres")
	o = Options{Persistence: "mysql"}
	assert.ErrorContains(t, o.defaults(), `persistence "mysql"`)
}

func TestServiceNames(t *testing.T) {
	state := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(state, "run"), 0o755))
	for _, n := range []string{"worker-2", "postgres", "temporal-2", "stray"} {
		require.NoError(t, os.WriteFile(filepath.Join(state, "run", n+".pid"), []byte("1"), 0o644))
	}
	assert.Equal(t, []string{"postgres", "temporal", "temporal-2", "neo4j", "toolworld", "codec", "worker", "worker-2"}, serviceNames(state),
		"start order; Down stops them in reverse, PostgreSQL last")
}

// A process that started before its binary was rebuilt is stale: Up restarts it rather than
// let it serve the old code.
func TestStale(t *testing.T) {
	dir := t.TempDir()
	o := Options{StateDir: dir}
	require.NoError(t, os.MkdirAll(o.runDir(), 0o755))
	s := &service{name: "worker", binary: filepath.Join(dir, "navi-worker")}
	start := time.Now().Add(-time.Hour)
	write := func(path string, at time.Time) {
		require.NoError(t, os.WriteFile(path, []byte("1"), 0o644))
		require.NoError(t, os.Chtimes(path, at, at))
	}
	assert.False(t, stale(o, s), "no pid file, no binary")
	write(s.pidFile(o), start)
	assert.False(t, stale(o, s), "no binary")
	write(s.binary, start.Add(-time.Minute))
	assert.False(t, stale(o, s), "built before the process started")
	write(s.binary, start.Add(time.Minute))
	assert.True(t, stale(o, s), "rebuilt after the process started")
	assert.False(t, stale(o, &service{name: "neo4j"}), "a service of no binary of ours")
}

// The codec server a stack with payload keys starts is listed by Status and stopped by Down
// (make down), as every other service.
func TestDownStopsTheCodecServer(t *testing.T) {
	state := t.TempDir()
	// A stand-in navi: run as `navi codec-server ...`, its command line carries the marker.
	o, codec := standIn(t, state, "navi", "sleep 300 &\n", "codec", true)
	pid, exited, err := start(o, codec)
	require.NoError(t, err)
	require.Eventually(t, func() bool { _, ok := running(o, codec); return ok }, 20*time.Second, 50*time.Millisecond)
	assert.Contains(t, Status(state), "codec      running (pid "+strconv.Itoa(pid)+")")

	var out bytes.Buffer
	require.NoError(t, Down(state, &out))
	assert.Equal(t, "codec      stopped (pid "+strconv.Itoa(pid)+")\n", out.String())
	<-exited
	assert.False(t, groupAlive(pid))
	assert.Contains(t, Status(state), "codec      stopped")
}

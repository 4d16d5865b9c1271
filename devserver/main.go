// Command navi-devserver runs a Temporal server for Navi's local stack and tests: all four
// Temporal services in one process, the default namespace with Navi's custom search attributes,
// and the Temporal UI. Persistence is SQLite in one file (the default) or PostgreSQL, on which
// several of these processes started with -cluster form one Temporal cluster (ringpop
// membership through the database), the topology `make cluster` runs.
//
// It lives in its own Go module so that users of the Navi plugin do not inherit the Temporal
// server's dependency graph. Production deployments point the worker at their own cluster or at
// Temporal Cloud instead.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	uiserver "github.com/temporalio/ui-server/v2/server"
	uiconfig "github.com/temporalio/ui-server/v2/server/config"
	uiserveroptions "github.com/temporalio/ui-server/v2/server/server_options"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/membership/static"
	"go.temporal.io/server/common/primitives"
	"go.temporal.io/server/temporal"
)

const (
	clusterName = "active"
	// clusterID is fixed so that a restart finds the same cluster in the database.
	clusterID = "6e6f7661-6e61-7669-2d64-657673657276"
)

// searchAttributes are the custom search attributes Navi's workflows upsert, so that runs can be
// listed and filtered in the Temporal UI. They must stay in step with workflows/searchattr.go.
var searchAttributes = map[string]enumspb.IndexedValueType{
	"NaviStatus":    enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	"NaviPlanner":   enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	"NaviSteps":     enumspb.INDEXED_VALUE_TYPE_INT,
	"NaviLLMCalls":  enumspb.INDEXED_VALUE_TYPE_INT,
	"NaviToolsUsed": enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST,
	"NaviLLMSaved":  enumspb.INDEXED_VALUE_TYPE_INT,
}

// options configures one dev server.
type options struct {
	IP       string
	Port     int // frontend gRPC
	HTTPPort int // frontend HTTP API; 0 picks a free port
	UIPort   int // 0 disables the UI
	// UICodec is the codec server the UI decodes payloads through ("": none).
	UICodec string
	DBFile  string
	// Persistence is "sqlite" (DBFile) or "postgres" (Postgres).
	Persistence string
	Postgres    postgresOptions
	// Cluster joins the other processes on the same database through ringpop instead of
	// assuming this process is the whole cluster.
	Cluster bool
	// HistoryShards is fixed when the database is created; every node must agree on it.
	HistoryShards int
	Namespace     string
	LogFile       string
	LogLevel      string
	PProf         string // address of Go's profiles ("": none)
}

func main() {
	var o options
	flag.StringVar(&o.IP, "ip", "127.0.0.1", "address to bind the frontend and UI to")
	flag.IntVar(&o.Port, "port", 7233, "frontend gRPC port")
	flag.IntVar(&o.HTTPPort, "http-port", 0, "frontend HTTP port (0: any free port)")
	flag.IntVar(&o.UIPort, "ui-port", 8233, "Temporal UI port (0: no UI)")
	flag.StringVar(&o.UICodec, "ui-codec-endpoint", "", "codec server the UI decodes payloads through, such as http://localhost:8234 (navi codec-server)")
	flag.StringVar(&o.DBFile, "db-file", ".state/temporal/temporal.db", "SQLite database file")
	flag.StringVar(&o.Persistence, "persistence", "sqlite", "where Temporal keeps its data: sqlite (-db-file) or postgres (-pg-address)")
	flag.StringVar(&o.Postgres.Address, "pg-address", "127.0.0.1:5432", "PostgreSQL address (with -persistence postgres)")
	flag.StringVar(&o.Postgres.User, "pg-user", "temporal", "PostgreSQL user; its password, if any, comes from NAVI_TEMPORAL_DB_PASSWORD")
	flag.StringVar(&o.Postgres.Database, "pg-database", "temporal", "PostgreSQL database of the histories; visibility goes to <name>_visibility")
	flag.BoolVar(&o.Cluster, "cluster", false, "join the other servers on the same PostgreSQL database as one cluster (ringpop membership)")
	flag.IntVar(&o.HistoryShards, "history-shards", 0, "history shards, fixed when the database is created (0: 1 on SQLite, 4 on PostgreSQL)")
	flag.StringVar(&o.Namespace, "namespace", "default", "namespace to create")
	flag.StringVar(&o.LogFile, "log-file", "", "server log file (default: standard error)")
	flag.StringVar(&o.LogLevel, "log-level", "warn", "server log level: debug, info, warn, error")
	flag.StringVar(&o.PProf, "pprof", os.Getenv("NAVI_TEMPORAL_PPROF_ADDR"), "address to serve Go's profiles on (/debug/pprof/), such as 127.0.0.1:6061; empty: none (NAVI_TEMPORAL_PPROF_ADDR)")
	flag.Parse()
	o.Postgres.Password = os.Getenv("NAVI_TEMPORAL_DB_PASSWORD")

	if err := run(o); err != nil {
		fmt.Fprintf(os.Stderr, "navi-devserver: %v\n", err)
		os.Exit(1)
	}
}

func run(o options) error {
	switch o.Persistence {
	case "sqlite":
		if o.Cluster {
			return errors.New("-cluster needs -persistence postgres: nodes share their database")
		}
	case "postgres":
	default:
		return fmt.Errorf("-persistence %q: want sqlite or postgres", o.Persistence)
	}
	if o.PProf != "" {
		go func() { fmt.Fprintf(os.Stderr, "navi-devserver: pprof: %v\n", http.ListenAndServe(o.PProf, nil)) }()
	}
	if o.HistoryShards == 0 {
		o.HistoryShards = map[string]int{"sqlite": 1, "postgres": 4}[o.Persistence]
	}
	for name, port := range map[string]int{"frontend gRPC (-port)": o.Port, "UI (-ui-port)": o.UIPort, "frontend HTTP (-http-port)": o.HTTPPort} {
		if port == 0 {
			continue
		}
		if err := checkPortFree(o.IP, port); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if o.HTTPPort == 0 {
		p, err := freePort(o.IP)
		if err != nil {
			return err
		}
		o.HTTPPort = p
	}
	if err := os.MkdirAll(filepath.Dir(o.DBFile), 0o755); err != nil {
		return fmt.Errorf("create state folder: %w", err)
	}

	conf, err := serverConfig(o)
	if err != nil {
		return err
	}
	logger := log.NewZapLogger(log.BuildZapLogger(log.Config{Level: o.LogLevel, OutputFile: o.LogFile, Format: "json"}))
	authorizer, err := authorization.GetAuthorizerFromConfig(&conf.Global.Authorization)
	if err != nil {
		return fmt.Errorf("authorizer: %w", err)
	}
	claimMapper, err := authorization.GetClaimMapperFromConfig(&conf.Global.Authorization, logger)
	if err != nil {
		return fmt.Errorf("claim mapper: %w", err)
	}
	serverOpts := []temporal.ServerOption{}
	if !o.Cluster {
		// One process is the whole cluster: no membership protocol to wait on.
		hosts := map[primitives.ServiceName]static.Hosts{}
		for name, svc := range conf.Services {
			hosts[primitives.ServiceName(name)] = static.SingleLocalHost(net.JoinHostPort(o.IP, strconv.Itoa(svc.RPC.GRPCPort)))
		}
		serverOpts = append(serverOpts, temporal.WithStaticHosts(hosts))
	}
	dyn := dynamicconfig.StaticClient{
		dynamicconfig.HistoryCacheHostLevelMaxSize.Key():                 8096,
		dynamicconfig.FrontendMaxNamespaceVisibilityRPSPerInstance.Key(): 100,
		// One partition per task queue, as Temporal's own dev server has: with the default
		// four, a task can land in a partition no poller waits on and wait to be forwarded.
		dynamicconfig.MatchingNumTaskqueueReadPartitions.Key():  1,
		dynamicconfig.MatchingNumTaskqueueWritePartitions.Key(): 1,
	}
	srv, err := temporal.NewServer(append(serverOpts,
		temporal.WithConfig(conf),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithLogger(logger),
		temporal.WithAuthorizer(authorizer),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper { return claimMapper }),
		temporal.WithDynamicConfigClient(dyn),
	)...)
	if err != nil {
		return fmt.Errorf("build server: %w", err)
	}
	if err := srv.Start(); err != nil {
		return fmt.Errorf("start server: %w", err)
	}
	defer srv.Stop()
	if o.Persistence == "postgres" {
		// SQLite's namespace is written into the file before the start; on PostgreSQL it is
		// registered through the frontend, which every node may do (the second finds it).
		if err := registerNamespace(context.Background(), net.JoinHostPort(o.IP, strconv.Itoa(o.Port)), o.Namespace); err != nil {
			return err
		}
	}

	uiErr := make(chan error, 1)
	if o.UIPort != 0 {
		ui := uiserver.NewServer(uiserveroptions.WithConfigProvider(&uiconfig.Config{
			Host:                o.IP,
			Port:                o.UIPort,
			TemporalGRPCAddress: net.JoinHostPort(o.IP, strconv.Itoa(o.Port)),
			EnableUI:            true,
			DefaultNamespace:    o.Namespace,
			CORS:                uiconfig.CORS{CookieInsecure: true},
			Codec:               uiconfig.Codec{Endpoint: o.UICodec},
			HideLogs:            true,
			DisableNewsFetch:    true, // no internet on the build machines
		}))
		go func() { uiErr <- ui.Start() }()
		defer ui.Stop()
	}

	fmt.Printf("navi-devserver: Temporal frontend on %s, namespace %q, database %s\n",
		net.JoinHostPort(o.IP, strconv.Itoa(o.Port)), o.Namespace, o.database())
	if o.UIPort != 0 {
		fmt.Printf("navi-devserver: Temporal UI on http://%s\n", net.JoinHostPort(uiHost(o.IP), strconv.Itoa(o.UIPort)))
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case <-ctx.Done():
		fmt.Println("navi-devserver: stopping")
		return nil
	case err := <-uiErr:
		if err != nil && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("temporal UI: %w", err)
		}
		return nil
	}
}

// serverConfig builds the static configuration for an all-in-one server. The schema is created
// or brought up to date on each start (see persistence).
func serverConfig(o options) (*config.Config, error) {
	var conf config.Config
	conf.Global.Membership.MaxJoinDuration = 30 * time.Second
	conf.Global.Membership.BroadcastAddress = o.IP

	if err := o.persistence(&conf); err != nil {
		return nil, err
	}

	frontend := net.JoinHostPort(o.IP, strconv.Itoa(o.Port))
	conf.ClusterMetadata = &cluster.Config{
		FailoverVersionIncrement: 10,
		MasterClusterName:        clusterName,
		CurrentClusterName:       clusterName,
		ClusterInformation: map[string]cluster.ClusterInformation{
			clusterName: {
				Enabled:                true,
				InitialFailoverVersion: 1,
				RPCAddress:             frontend,
				HTTPAddress:            net.JoinHostPort(o.IP, strconv.Itoa(o.HTTPPort)),
				ClusterID:              clusterID,
			},
		},
	}
	conf.DCRedirectionPolicy.Policy = "noop"
	conf.Services = map[string]config.Service{}
	for i, name := range []string{"frontend", "history", "matching", "worker"} {
		var svc config.Service
		svc.RPC.BindOnIP = o.IP
		if name == "frontend" {
			svc.RPC.GRPCPort = o.Port
			svc.RPC.HTTPPort = o.HTTPPort
		} else {
			p, err := internalPort(o.IP, o.Port, i)
			if err != nil {
				return nil, err
			}
			svc.RPC.GRPCPort = p
		}
		if o.Cluster {
			// Ringpop gossips on its own port per service; the nodes find each other
			// through the cluster_membership table, whose port column is a smallint.
			p, err := membershipPort(o.IP, o.Port+4+i)
			if err != nil {
				return nil, err
			}
			svc.RPC.MembershipPort = p
		}
		conf.Services[name] = svc
	}
	conf.Archival.History.State = "disabled"
	conf.Archival.Visibility.State = "disabled"
	conf.NamespaceDefaults.Archival.History.State = "disabled"
	conf.NamespaceDefaults.Archival.Visibility.State = "disabled"
	conf.PublicClient.HostPort = frontend
	return &conf, nil
}

// checkPortFree fails with an actionable message when something already listens on the port.
func checkPortFree(ip string, port int) error {
	l, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("port %d on %s is already in use: stop what holds it (`make down`, or `ss -ltnp 'sport = :%d'` to find it) or choose another port", port, ip, port)
	}
	return l.Close()
}

// internalPort picks the port of an internal service: the frontend port plus i when that is
// below the kernel's ephemeral range (7234, 7235, 7236 for the default 7233, as Temporal's own
// defaults), so no outgoing connection can take it meanwhile; otherwise any free port.
func internalPort(ip string, frontend, i int) (int, error) {
	if p := frontend + i; p < 32768 && checkPortFree(ip, p) == nil {
		return p, nil
	}
	return freePort(ip)
}

// membershipPort is want when that is free and fits Temporal's cluster_membership table (a
// smallint column: below 32768, where the kernel's free ports never are), otherwise a free port
// from a random place in 20000-32767.
func membershipPort(ip string, want int) (int, error) {
	if want < 32768 && checkPortFree(ip, want) == nil {
		return want, nil
	}
	const lo, n = 20000, 32768 - 20000
	start := rand.IntN(n)
	for k := range n {
		if p := lo + (start+k)%n; checkPortFree(ip, p) == nil {
			return p, nil
		}
	}
	return 0, fmt.Errorf("no free port below 32768 on %s for cluster membership", ip)
}

// freePort asks the kernel for a free TCP port on ip.
func freePort(ip string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		return 0, fmt.Errorf("find a free port on %s: %w", ip, err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func uiHost(ip string) string {
	if ip == "127.0.0.1" || ip == "0.0.0.0" {
		return "localhost"
	}
	return ip
}

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/log"
	postgresplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/postgresql"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/tools/common/schema"
	sqltool "go.temporal.io/server/tools/sql"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// postgresOptions says where Temporal's PostgreSQL is. The password comes from the environment
// only, so that it shows in no process list.
type postgresOptions struct {
	Address  string // host:port
	User     string
	Password string
	Database string // histories; visibility is Database + "_visibility"
}

// database names the store in the start line.
func (o options) database() string {
	if o.Persistence == "postgres" {
		return fmt.Sprintf("postgres://%s@%s/%s", o.Postgres.User, o.Postgres.Address, o.Postgres.Database)
	}
	return o.DBFile
}

// persistence fills conf's stores, creating or updating the schema first.
func (o options) persistence(conf *config.Config) error {
	conf.Persistence.NumHistoryShards = int32(o.HistoryShards)
	if o.Persistence == "postgres" {
		return o.postgres(conf)
	}
	sqlConf := config.SQL{
		PluginName:   sqliteplugin.PluginName,
		DatabaseName: o.DBFile,
		// Temporal's SQLite plugin passes every attribute but a few URI parameters on as a
		// pragma under its own name ("_journal_mode" would be an unknown pragma, silently
		// ignored). WAL with synchronous=NORMAL syncs at checkpoints instead of on every
		// commit: a crash of the process loses nothing, a crash of the machine at most the
		// last transactions, which is right for a development server. A page cache of 64 MiB
		// a connection (SQLite's default is 2 MiB) keeps the tables' hot pages in the process
		// as the store fills: after some 4,000 runs Temporal spent 8.1–8.8 s of CPU per 300
		// queries with the default, 6.3–7.7 s with it (at 340–590 MB).
		ConnectAttributes: map[string]string{"mode": "rwc", "journal_mode": "wal", "synchronous": "normal", "busy_timeout": "5000", "cache_size": "-65536"},
	}
	if _, err := os.Stat(o.DBFile); errors.Is(err, os.ErrNotExist) {
		if err := sqliteschema.SetupSchema(&sqlConf); err != nil {
			return fmt.Errorf("create Temporal schema in %s: %w", o.DBFile, err)
		}
	}
	ns, err := sqliteschema.NewNamespaceConfig(clusterName, o.Namespace, false, searchAttributes)
	if err != nil {
		return fmt.Errorf("namespace %s: %w", o.Namespace, err)
	}
	// A no-op when the namespace exists already.
	if err := sqliteschema.CreateNamespaces(&sqlConf, ns); err != nil {
		return fmt.Errorf("create namespace %s in %s: %w", o.Namespace, o.DBFile, err)
	}
	conf.Persistence.DefaultStore = "sqlite"
	conf.Persistence.VisibilityStore = "sqlite"
	conf.Persistence.DataStores = map[string]config.DataStore{"sqlite": {SQL: &sqlConf}}
	return nil
}

// postgres creates Temporal's two databases if missing and brings both schemas to the version
// this server needs, with the schema tool's own code and the schemas embedded in the server.
func (o options) postgres(conf *config.Config) error {
	stores := map[string]struct{ db, schema string }{
		"postgres":            {o.Postgres.Database, "postgresql/v12/temporal"},
		"postgres-visibility": {o.Postgres.Database + "_visibility", "postgresql/v12/visibility"},
	}
	conf.Persistence.DefaultStore = "postgres"
	conf.Persistence.VisibilityStore = "postgres-visibility"
	conf.Persistence.DataStores = map[string]config.DataStore{}
	logger := log.NewNoopLogger()
	for name, s := range stores {
		sqlConf := config.SQL{
			PluginName:      postgresplugin.PluginName,
			DatabaseName:    s.db,
			ConnectAddr:     o.Postgres.Address,
			ConnectProtocol: "tcp",
			User:            o.Postgres.User,
			Password:        o.Postgres.Password,
			MaxConns:        20,
			MaxIdleConns:    20,
			MaxConnLifetime: time.Hour,
		}
		create := sqlConf
		if err := sqltool.DoCreateDatabase(&create, "postgres", logger); err != nil {
			return fmt.Errorf("create database %s on %s: %w", s.db, o.Postgres.Address, err)
		}
		if err := migrate(&sqlConf, s.schema, logger); err != nil {
			return fmt.Errorf("schema of %s on %s: %w", s.db, o.Postgres.Address, err)
		}
		conf.Persistence.DataStores[name] = config.DataStore{SQL: &sqlConf}
	}
	return nil
}

// migrate sets up the schema's version table on a new database and applies every versioned
// change the database lacks: what temporal-sql-tool setup-schema -v 0.0 and update-schema do.
func migrate(c *config.SQL, schemaName string, logger log.Logger) error {
	conn, err := sqltool.NewConnection(c, logger)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ReadSchemaVersion(); err != nil {
		setup := schema.NewSetupSchemaTask(conn, &schema.SetupConfig{InitialVersion: "0.0"}, logger)
		if err := setup.Run(); err != nil {
			return fmt.Errorf("set up: %w", err)
		}
	}
	update := schema.NewUpdateSchemaTask(conn, &schema.UpdateConfig{DBName: c.DatabaseName, SchemaName: schemaName}, logger)
	if err := update.Run(); err != nil {
		return fmt.Errorf("update: %w", err)
	}
	return nil
}

// registerNamespace registers the namespace and Navi's search attributes through the frontend
// at addr, leaving what exists as it is. A second node finds both and changes nothing.
func registerNamespace(ctx context.Context, addr, namespace string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return fmt.Errorf("dial frontend %s: %w", addr, err)
	}
	defer conn.Close()
	wf := workflowservice.NewWorkflowServiceClient(conn)
	op := operatorservice.NewOperatorServiceClient(conn)
	return retry(ctx, func() error {
		_, err := wf.RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
			Namespace:                        namespace,
			WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour),
		})
		if err != nil && status.Code(err) != codes.AlreadyExists {
			return fmt.Errorf("register namespace %s: %w", namespace, err)
		}
		have, err := op.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
		if err != nil {
			return fmt.Errorf("list search attributes of %s: %w", namespace, err)
		}
		missing := map[string]enumspb.IndexedValueType{}
		for name, t := range searchAttributes {
			if _, ok := have.GetCustomAttributes()[name]; !ok {
				missing[name] = t
			}
		}
		if len(missing) == 0 {
			return nil
		}
		_, err = op.AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: namespace, SearchAttributes: missing})
		if err != nil {
			return fmt.Errorf("add search attributes to %s: %w", namespace, err)
		}
		return nil
	})
}

// retry calls f every half second until it succeeds or ctx ends: the frontend answers before
// its namespace cache has caught up with a namespace just registered.
func retry(ctx context.Context, f func() error) error {
	for {
		err := f()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(500 * time.Millisecond):
		}
	}
}

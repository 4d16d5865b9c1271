// Package neo4j stores the TWNM tool graph in Neo4j through neo4j-go-driver v5, exactly as
// against a production Neo4j 5 or Aura. Every query is parameterized; no user data is ever
// concatenated into Cypher.
//
// The folder also holds launcher/, the small Java program that runs a local Neo4j Community
// for the development stack and the tests.
package neo4j

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// Options says where the graph lives and how to log in.
type Options struct {
	URI      string // bolt://host:port or neo4j://host:port
	User     string // empty with an empty Password: no authentication
	Password string
	Database string        // empty: the server's default database
	Timeout  time.Duration // connection and verification timeout; 0 means 10s
}

// Store is the tool graph in Neo4j. It is safe for concurrent use.
type Store struct {
	driver driver.DriverWithContext
	db     string
	uri    string
}

// Open connects to Neo4j and verifies that the server answers and accepts the credentials.
// Its errors say what is wrong and what to do about it.
func Open(ctx context.Context, o Options) (*Store, error) {
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	auth := driver.NoAuth()
	if o.User != "" || o.Password != "" {
		auth = driver.BasicAuth(o.User, o.Password, "")
	}
	d, err := driver.NewDriverWithContext(o.URI, auth, func(c *driver.Config) {
		c.SocketConnectTimeout = o.Timeout
		c.ConnectionAcquisitionTimeout = o.Timeout
		c.MaxTransactionRetryTime = o.Timeout
	})
	if err != nil {
		return nil, fmt.Errorf("neo4j %s: %w", o.URI, err)
	}
	vctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	if err := d.VerifyConnectivity(vctx); err != nil {
		_ = d.Close(ctx)
		return nil, Explain(o.URI, o.User, err)
	}
	return &Store{driver: d, db: o.Database, uri: o.URI}, nil
}

// Close releases the driver's connections.
func (s *Store) Close(ctx context.Context) error {
	return s.driver.Close(ctx)
}

// ErrUnauthorized is wrapped by errors caused by rejected credentials.
var ErrUnauthorized = errors.New("authentication failed")

// ErrUnavailable is wrapped by errors caused by a Neo4j that cannot be reached.
var ErrUnavailable = errors.New("neo4j unreachable")

// ErrNotInGraph is wrapped by writes that name an API or parameter the graph does not have.
var ErrNotInGraph = errors.New("not in the graph")

// Explain turns a driver error into one that says what happened and what to do.
func Explain(uri, user string, err error) error {
	var ne *driver.Neo4jError
	switch {
	case errors.As(err, &ne) && strings.HasPrefix(ne.Code, "Neo.ClientError.Security."):
		return fmt.Errorf("neo4j %s: %w for user %q (%s): check NAVI_NEO4J_USER and NAVI_NEO4J_PASSWORD",
			uri, ErrUnauthorized, user, ne.Code)
	case errors.As(err, &ne) && ne.Code == "Neo.ClientError.Schema.ConstraintValidationFailed":
		return fmt.Errorf("neo4j %s: a write broke a uniqueness constraint (%s): two APIs or parameters share a name; nothing was written", uri, ne.Msg)
	case driver.IsConnectivityError(err) || errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("neo4j %s: %w: %v: is Neo4j running (`make up`) and NAVI_NEO4J_URI right?",
			uri, ErrUnavailable, err)
	}
	return fmt.Errorf("neo4j %s: %w", uri, err)
}

// run executes one query in a managed transaction of the given access mode, with the driver's
// retries on transient failures, and wraps errors with what was being done.
func (s *Store) run(ctx context.Context, what string, write bool, cypher string, params map[string]any) (*driver.EagerResult, error) {
	routing := driver.ExecuteQueryWithReadersRouting()
	if write {
		routing = driver.ExecuteQueryWithWritersRouting()
	}
	res, err := driver.ExecuteQuery(ctx, s.driver, cypher, params, driver.EagerResultTransformer,
		driver.ExecuteQueryWithDatabase(s.db), routing)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, Explain(s.uri, "", err))
	}
	return res, nil
}

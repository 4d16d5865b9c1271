package devstack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// postgresUser is the role Temporal connects as. The server listens on the stack's address
// only and trusts that address's connections, as a development server does; a deployment
// gives its own PostgreSQL and password (NAVI_TEMPORAL_DB_PASSWORD, see navi-devserver).
const postgresUser = "temporal"

// postgresReady is the line PostgreSQL logs once it accepts connections.
const postgresReady = "database system is ready to accept connections"

// postgresStart separates one start's log lines from the ones before.
const postgresStart = "---- postgres started by navi dev up"

func (o Options) postgresDir() string { return filepath.Join(o.StateDir, "postgres") }

// postgresBin is where `make postgres` installs the server's binaries.
func (o Options) postgresBin(name string) string {
	return filepath.Join(o.Root, ".postgres", "bin", name)
}

// postgres is a PostgreSQL server with its data in <state>/postgres, created on first start.
func (o Options) postgres() *service {
	address := net.JoinHostPort(o.IP, strconv.Itoa(o.PostgresPort))
	s := &service{
		name:    "postgres",
		address: fmt.Sprintf("postgres://%s@%s", postgresUser, address),
		marker:  markers["postgres"],
		ports:   []portUse{{o.PostgresPort, "PostgreSQL", "NAVI_POSTGRES_PORT"}},
		timeout: 60 * time.Second,
	}
	s.command = func() (*exec.Cmd, error) {
		bin := o.postgresBin("postgres")
		if _, err := os.Stat(bin); err != nil {
			return nil, fmt.Errorf("%s is missing: run `make postgres` (Maven fetches PostgreSQL's binaries)", bin)
		}
		cred, err := unprivileged()
		if err != nil {
			return nil, err
		}
		if err := o.initPostgres(cred); err != nil {
			return nil, err
		}
		cmd := exec.Command(bin, "-D", o.postgresDir(), "-p", strconv.Itoa(o.PostgresPort),
			"-c", "listen_addresses="+o.IP,
			"-c", "unix_socket_directories=",
			// Two Temporal nodes with four services each keep pools to two databases.
			"-c", "max_connections=300",
			"-c", "shared_buffers=128MB")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		return cmd, nil
	}
	s.healthy = func(ctx context.Context, _ int) error {
		if !strings.Contains(sinceLast(s.logFile(o), postgresStart), postgresReady) {
			return errors.New("PostgreSQL has not logged that it accepts connections yet")
		}
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", address)
		if err != nil {
			return fmt.Errorf("postgres %s: %w", address, err)
		}
		return conn.Close()
	}
	return s
}

// initPostgres creates the database cluster on first start: the temporal role, UTF-8, trust
// for the stack's own address (see postgresUser).
func (o Options) initPostgres(cred *syscall.Credential) error {
	dir := o.postgresDir()
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); err == nil {
		return nil
	}
	// PostgreSQL wants its folder private.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fmt.Errorf("hand %s to the server's user: %w", dir, err)
		}
	}
	cmd := exec.Command(o.postgresBin("initdb"), "-D", dir, "-U", postgresUser, "--auth=trust", "-E", "UTF8", "--locale=C")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := cmd.CombinedOutput(); err != nil {
		hint := ""
		if cred != nil {
			hint = " (PostgreSQL runs as nobody here: every folder above the state folder must be searchable by others)"
		}
		return fmt.Errorf("initdb %s: %w: %s%s", dir, err, lastLines(string(out), 3), hint)
	}
	return nil
}

// unprivileged is the user PostgreSQL runs as: nil (this process's) unless that is root,
// which PostgreSQL refuses; then "nobody".
func unprivileged() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL does not run as root and there is no user nobody to run it as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "; ")
}

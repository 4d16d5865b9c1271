package mcptool

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// InitializeTimeout bounds the handshake with a server: one that hangs before it speaks the
// protocol fails the import or the call saying so, not after minutes of silence. A variable
// so that tests can shorten it.
var InitializeTimeout = 30 * time.Second

// stderrTail is how much of a stdio server's standard error an error quotes: its last bytes,
// where npm's 404 or node's "Cannot find module" are.
const stderrTail = 1024

// stopGrace is how long a stdio server has to end once its input is closed before it is
// killed.
const stopGrace = 2 * time.Second

// SplitCommand splits a stdio server's command line into words as a POSIX shell does, quotes
// and backslashes included ("node '/my tools/server.mjs'"), without expanding anything.
func SplitCommand(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("command %q: a single quote is not closed", line)
			}
			w.WriteString(line[i+1 : i+1+j])
			i, inWord = i+1+j, true
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte(`"\$`+"`", line[i+1]) >= 0 {
					i++
				}
				w.WriteByte(line[i])
			}
			if i >= len(line) {
				return nil, fmt.Errorf("command %q: a double quote is not closed", line)
			}
			inWord = true
		case c == '\\' && i+1 < len(line):
			i++
			w.WriteByte(line[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// stdioTransport runs a server's command in its folder and speaks to it over its standard
// input and output. What the server writes on its output before or between protocol messages
// (a banner) is skipped, and its standard error kept, the last stderrTail bytes of it, for
// the errors that name it (see diagnose).
type stdioTransport struct {
	argv    []string
	dir     string
	env     []string // nil: this process's environment
	stderr  tailBuffer
	skipped tailBuffer // lines of its output that were no protocol message
}

// Connect implements mcp.Transport.
func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	cmd := exec.Command(t.argv[0], t.argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stderr = t.dir, t.env, &t.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	io := &mcp.IOTransport{Reader: &messageReader{r: bufio.NewReader(stdout), skipped: &t.skipped}, Writer: &process{stdin: stdin, cmd: cmd}}
	return io.Connect(ctx)
}

// diagnose adds to err what the server said that explains it: the last lines of its
// standard error, and the lines of its output that were no protocol message.
func (t *stdioTransport) diagnose(err error) error {
	if err == nil {
		return nil
	}
	// The server's error output is copied as it exits: give a dying one a moment to say why.
	for i := 0; i < 10 && t.stderr.empty(); i++ {
		time.Sleep(50 * time.Millisecond)
	}
	var notes []string
	if s := t.stderr.String(); s != "" {
		notes = append(notes, "its standard error ends: "+s)
	}
	if s := t.skipped.String(); s != "" {
		notes = append(notes, "it printed on its standard output, where the protocol goes: "+s)
	}
	if len(notes) == 0 {
		return err
	}
	return fmt.Errorf("%w (%s)", err, strings.Join(notes, "; "))
}

// messageReader reads a server's output, one protocol message a line, skipping lines that
// cannot be one (they do not start with '{' or '['): a banner must not end the session.
type messageReader struct {
	r       *bufio.Reader
	line    []byte
	skipped *tailBuffer
}

func (m *messageReader) Read(p []byte) (int, error) {
	for len(m.line) == 0 {
		line, err := m.r.ReadBytes('\n')
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '{' && t[0] != '[' {
			_, _ = m.skipped.Write(append(t, '\n'))
			line = nil
		}
		m.line = line
		if err != nil && len(m.line) == 0 {
			return 0, err
		}
		if err != nil {
			break
		}
	}
	n := copy(p, m.line)
	m.line = m.line[n:]
	return n, nil
}

// Close leaves the output to the process: closing its input ends it (see process.Close).
func (m *messageReader) Close() error { return nil }

// process is a running server's input; closing it ends the server: its input closes, then it
// gets stopGrace to exit, then it is killed.
type process struct {
	stdin io.WriteCloser
	cmd   *exec.Cmd
	once  sync.Once
	err   error
}

func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

func (p *process) Close() error {
	p.once.Do(func() {
		_ = p.stdin.Close()
		done := make(chan error, 1)
		go func() { done <- p.cmd.Wait() }()
		select {
		case err := <-done:
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				p.err = err
			}
		case <-time.After(stopGrace):
			_ = p.cmd.Process.Kill()
			<-done
		}
	})
	return p.err
}

// tailBuffer keeps the last stderrTail bytes written to it.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 2*stderrTail {
		t.b = append([]byte(nil), t.b[len(t.b)-stderrTail:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) empty() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.b) == 0
}

// String is the kept text on one line: its lines joined by " | ".
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.b
	if len(b) > stderrTail {
		b = b[len(b)-stderrTail:]
	}
	var lines []string
	for l := range strings.Lines(string(b)) {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, " | ")
}

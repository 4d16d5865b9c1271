package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ttyBuffer is a buffer that says it is a terminal.
type ttyBuffer struct{ bytes.Buffer }

func (*ttyBuffer) IsTerminal() bool { return true }

// fakeClock advances by step on every reading.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(step)
		return t
	}
}

func TestProgressPlainLines(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, 20)
	require.False(t, p.tty)
	p.now = fakeClock(time.Second)
	p.start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p.last = p.start
	for i := range 20 {
		p.add("gold", i%2 == 0)
	}
	p.finish()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	// One line per tenth: every second task of twenty.
	require.Len(t, lines, 10)
	assert.Equal(t, "bench 2/20  10% solved 1  elapsed 2s  ETA 18s  (gold)", lines[0])
	assert.Equal(t, "bench 20/20 100% solved 10  elapsed 20s  ETA 0s  (gold)", lines[9])
	assert.NotContains(t, b.String(), "\r")
}

func TestProgressPlainLinesAtLeastEveryInterval(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, 1000)
	p.now = fakeClock(plainInterval)
	p.start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p.last = p.start
	p.add("gold", true)
	p.add("gold", true)
	assert.Equal(t, 2, strings.Count(b.String(), "\n"), "a slow run still prints")
}

func TestProgressTerminalRedrawsOneLine(t *testing.T) {
	var b ttyBuffer
	p := newProgress(&b, 4)
	require.True(t, p.tty)
	p.now = fakeClock(time.Second)
	p.start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p.add("gold/faults", true)
	p.add("g", false) // a shorter label: the rest of the previous line is blanked
	p.add("g", true)
	p.add("g", true)
	p.finish()
	out := b.String()
	assert.Equal(t, 4, strings.Count(out, "\r"))
	assert.Equal(t, 1, strings.Count(out, "\n"), "only the final newline")
	assert.True(t, strings.HasSuffix(out, "\n"))
	frames := strings.Split(strings.TrimSuffix(out, "\n"), "\r")[1:]
	assert.Equal(t, "bench 1/4  25% [=======                       ] solved 1  elapsed 1s  ETA 3s  (gold/faults)", frames[0])
	assert.Equal(t, len(frames[0]), len(frames[1]), "padded to blank out the longer line")
	assert.Contains(t, frames[3], "bench 4/4 100% [==============================] solved 3  elapsed 4s  ETA 0s")
}

func TestProgressNilWriter(t *testing.T) {
	var p *progress = newProgress(nil, 3)
	assert.Nil(t, p)
	p.add("x", true) // no panic
	p.finish()
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, isTerminal(f), "a regular file")
	assert.False(t, isTerminal(&bytes.Buffer{}))
	assert.True(t, isTerminal(&ttyBuffer{}))
}

func TestRunWritesProgress(t *testing.T) {
	var b bytes.Buffer
	_, err := Run(context.Background(), Options{Variants: []Variant{gold, weak}, Tasks: fakeTasks(), Progress: &b, Concurrency: 3}, &fakeRunner{})
	require.NoError(t, err)
	assert.Contains(t, b.String(), "bench 12/12 100% solved 8")
	assert.Contains(t, b.String(), "(weak)")
}

package bench

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Progress output settings.
const (
	barWidth = 30
	// plainEvery is the share of the tasks between two plain progress lines, and
	// plainInterval the longest time between two, so that slow runs still show life.
	plainEvery    = 0.10
	plainInterval = 30 * time.Second
)

// progress draws a progress bar with an ETA: one line redrawn with \r on a terminal, plain
// lines every tenth of the tasks (or every plainInterval) otherwise, so that logs and CI
// output stay readable. It is safe for concurrent use; a nil *progress does nothing.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	total    int
	done     int
	solved   int
	start    time.Time
	last     time.Time // when the last plain line was written
	lastMark int       // the last tenth a plain line was written for
	width    int       // the length of the last redrawn line, to blank it out
	now      func() time.Time
}

// newProgress returns a progress for total tasks on w; nil when w is nil.
func newProgress(w io.Writer, total int) *progress {
	if w == nil {
		return nil
	}
	now := time.Now
	t := now()
	return &progress{w: w, tty: isTerminal(w), total: total, start: t, last: t, now: now}
}

// isTerminal reports whether w redraws a line on \r: a character device (a terminal), or a
// writer that says so through an IsTerminal method.
func isTerminal(w io.Writer) bool {
	if t, ok := w.(interface{ IsTerminal() bool }); ok {
		return t.IsTerminal()
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// add counts one finished task; label names what is running (variant/phase).
func (p *progress) add(label string, solved bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if solved {
		p.solved++
	}
	now := p.now()
	if p.tty {
		line := p.line(label, now, true)
		pad := max(0, p.width-len(line))
		p.width = len(line)
		fmt.Fprint(p.w, "\r"+line+strings.Repeat(" ", pad))
		return
	}
	mark := int(float64(p.done) / (plainEvery * float64(p.total)))
	if mark > p.lastMark || p.done == p.total || now.Sub(p.last) >= plainInterval {
		p.lastMark, p.last = mark, now
		fmt.Fprintln(p.w, p.line(label, now, false))
	}
}

// finish ends the redrawn line so that what follows starts on a line of its own.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.width > 0 {
		fmt.Fprintln(p.w)
		p.width = 0
	}
}

// line renders the state: count, percentage, bar (on a terminal), solved, elapsed and ETA.
func (p *progress) line(label string, now time.Time, bar bool) string {
	frac := 1.0
	if p.total > 0 {
		frac = float64(p.done) / float64(p.total)
	}
	elapsed := now.Sub(p.start)
	eta := "?"
	if p.done > 0 {
		eta = fmtDuration(time.Duration(float64(elapsed) / float64(p.done) * float64(p.total-p.done)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "bench %d/%d %3.0f%%", p.done, p.total, 100*frac)
	if bar {
		fill := int(frac * barWidth)
		fmt.Fprintf(&b, " [%s%s]", strings.Repeat("=", fill), strings.Repeat(" ", barWidth-fill))
	}
	fmt.Fprintf(&b, " solved %d  elapsed %s  ETA %s", p.solved, fmtDuration(elapsed), eta)
	if label != "" {
		fmt.Fprintf(&b, "  (%s)", label)
	}
	return b.String()
}

// fmtDuration rounds to the second above a minute and to a tenth of a second below, so that
// the line does not jitter with nanoseconds.
func fmtDuration(d time.Duration) string {
	if d >= time.Minute {
		return d.Round(time.Second).String()
	}
	return d.Round(100 * time.Millisecond).String()
}

package stacktest

import (
	"bytes"
	"sync"
)

// SyncBuffer is a bytes.Buffer that other goroutines may write to while a test reads it: a
// command's output, a worker's log.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

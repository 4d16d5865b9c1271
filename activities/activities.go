// Package activities holds Navi's Temporal activities: everything that does I/O on behalf of a
// workflow (planning, reading the tool graph, retrieval, tool calls, recombination, feedback).
package activities

// Activities carries the dependencies of Navi's activities. Register a pointer to it with a
// worker; its exported methods are the activities. A nil dependency fails the activities that
// need it with a clear error.
type Activities struct {
	Graph GraphReader
}

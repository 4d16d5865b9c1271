// Package activities holds Navi's Temporal activities: everything that does I/O on behalf of a
// workflow (planning, reading the tool graph, retrieval, tool calls, recombination, feedback).
package activities

import (
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/twnm/embed"
)

// Activities carries the dependencies of Navi's activities. Register a pointer to it with a
// worker; its exported methods are the activities. A nil dependency fails the activities that
// need it with a clear error.
type Activities struct {
	Graph GraphReader
	// Tools calls catalog APIs over HTTP for CallTool.
	Tools *toolcall.Client
	// Store is the tool graph in Neo4j: retrieval, recombination and feedback.
	Store GraphStore
	// Embedder embeds recall descriptions; it must be the one the graph was built with.
	Embedder embed.Embedder
	// LLM is the planner used when a run asks for one or names none; nil when no LLM is
	// configured, and then the graph-first planner decides.
	LLM planner.Planner
}

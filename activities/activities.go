// Package activities holds Navi's Temporal activities: everything that does I/O on behalf of a
// workflow (planning, reading the tool graph, retrieval, tool calls, recombination, feedback).
package activities

import (
	"context"

	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
)

// Activities carries the dependencies of Navi's activities. Register a pointer to it with a
// worker; its exported methods are the activities. A nil dependency fails the activities that
// need it with a clear error.
type Activities struct {
	// Tools calls catalog APIs over HTTP for CallTool.
	Tools *toolcall.Client
	// Store is the tool graph in Neo4j: retrieval, recombination and feedback.
	Store GraphStore
	// Embedder embeds recall descriptions; it must be the one the graph was built with.
	Embedder embed.Embedder
	// LLM is the planner used when a run asks for one or names none; nil when no LLM is
	// configured, and then the graph-first planner decides.
	LLM planner.Planner
	// Models is the graph store as the retraining activities use it.
	Models ModelStore
	// ModelDir, when set, is where TrainModel also writes each model file.
	ModelDir string
	// NoGoalText keeps the text of the requests the graph learns from out of Neo4j: a past
	// sub-goal keeps its vector only. The worker sets it when payloads are encrypted, so that
	// what Temporal holds encrypted is not kept in clear beside it.
	NoGoalText bool
}

// ModelStore is the part of the Neo4j store the retraining activities use.
type ModelStore interface {
	Snapshot(ctx context.Context) (*twnm.Graph, error)
	WriteWeights(ctx context.Context, ws []neo4j.WeightUpdate) (int, error)
	SaveModel(ctx context.Context, m neo4j.ModelRecord) error
	LoadModel(ctx context.Context, version string, withData bool) (neo4j.ModelRecord, error)
	ActiveModel(ctx context.Context) (string, error)
	ActivateModel(ctx context.Context, version string) error
	WritePredictions(ctx context.Context, version string, preds []neo4j.Prediction) (int, error)
	SetStatus(ctx context.Context, api string, st twnm.Status) error
}

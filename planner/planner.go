// Package planner holds Navi's step planner (NaviAgent Section 3.1, Appendix E.3.1): the four
// actions, the JSON decision protocol, the context a planner sees, the feasibility projection
// of Theorem 3.1 and the deterministic graph-first planner used when no LLM is configured.
// Everything here is pure: workflows call Project and Bind directly, and planners run inside
// an activity.
package planner

import (
	"context"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/toolspec"
)

// The planner's types are the contract's (package contract), under the names planners use.
type (
	Action     = contract.Action
	Decision   = contract.Decision
	ParamInfo  = contract.ParamInfo
	Candidate  = contract.Candidate
	Turn       = contract.Turn
	Context    = contract.Context
	QA         = contract.QA
	Usage      = contract.Usage
	Result     = contract.Result
	Projection = contract.Projection
)

// The four planner actions.
const (
	DirectAnswer  = contract.DirectAnswer
	ClarifyIntent = contract.ClarifyIntent
	RetrieveAPI   = contract.RetrieveAPI
	CallAPI       = contract.CallAPI
)

// Actions lists the actions in the order a planner considers them.
var Actions = contract.Actions

// HistoryTurns is how many past turns a planner sees (NaviAgent: the last 3).
const HistoryTurns = contract.HistoryTurns

// Plan is an executable toolchain for one target, in dependency order: toolspec.Plan, the one
// plan type of the search, the planner, the workflow's state and recombination.
type Plan = toolspec.Plan

// PlanStep is one API call of a plan.
type PlanStep = toolspec.Step

// Binding says where one input of a step comes from: a value (Source given), an earlier
// step's output (upstream, FromAPI.FromOutput), nothing although it is required (missing), or
// nothing and it is optional (unbound).
type Binding = toolspec.Binding

// Binding sources.
const (
	SourceGiven    = toolspec.SupplyGiven
	SourceUpstream = toolspec.SupplyUpstream
	SourceMissing  = toolspec.SupplyMissing
	SourceUnbound  = toolspec.SupplyUnbound
)

// Planner decides the next action from a context.
type Planner interface {
	Decide(ctx context.Context, c Context) (Result, error)
}

package twnm

import "github.com/naviagent/navi/toolspec"

// The catalog's types live in package toolspec, a leaf that links nothing of the graph, so
// that the tool client, the tool world and MCP import them alone; twnm names them too, as the
// same types, for the graph's callers.
type (
	API       = toolspec.API
	Param     = toolspec.Param
	Endpoint  = toolspec.Endpoint
	Duration  = toolspec.Duration
	RetryHint = toolspec.RetryHint
	MCPTool   = toolspec.MCPTool
	Auth      = toolspec.Auth
	Catalog   = toolspec.Catalog

	Plan         = toolspec.Plan
	Step         = toolspec.Step
	Binding      = toolspec.Binding
	SupplySource = toolspec.SupplySource

	Invocation = toolspec.Invocation
	Transition = toolspec.Transition
	Signal     = toolspec.Signal
	EdgeKind   = toolspec.EdgeKind

	PruneOptions = toolspec.PruneOptions
)

// DefaultPrune is toolspec.DefaultPrune.
var DefaultPrune = toolspec.DefaultPrune

// Signals (toolspec.Signal) and edge kinds (toolspec.EdgeKind).
const (
	SignalCatalog = toolspec.SignalCatalog
	SignalUser    = toolspec.SignalUser

	InputOf = toolspec.InputOf
	Outputs = toolspec.Outputs
	Then    = toolspec.Then
	Feeds   = toolspec.Feeds
)

// Supply sources (toolspec.SupplySource).
const (
	SupplyGiven    = toolspec.SupplyGiven
	SupplyUpstream = toolspec.SupplyUpstream
	SupplyMissing  = toolspec.SupplyMissing
	SupplyUnbound  = toolspec.SupplyUnbound
)

// ParseSupplySource is toolspec.ParseSupplySource.
var ParseSupplySource = toolspec.ParseSupplySource

// Values of Param.In, API.Effect and Auth.Scheme, and Observe's limits (see toolspec).
const (
	InQuery  = toolspec.InQuery
	InPath   = toolspec.InPath
	InHeader = toolspec.InHeader
	InBody   = toolspec.InBody
	InCookie = toolspec.InCookie

	EffectRead       = toolspec.EffectRead
	EffectIdempotent = toolspec.EffectIdempotent
	EffectUnsafe     = toolspec.EffectUnsafe

	ConfirmNever       = toolspec.ConfirmNever
	ConfirmDestructive = toolspec.ConfirmDestructive
	ConfirmWrites      = toolspec.ConfirmWrites

	AuthBearer = toolspec.AuthBearer
	AuthHeader = toolspec.AuthHeader
	AuthQuery  = toolspec.AuthQuery
	AuthBasic  = toolspec.AuthBasic

	MaxObserved      = toolspec.MaxObserved
	MaxObservedDepth = toolspec.MaxObservedDepth
)

// Functions over catalogs and answers (see toolspec).
var (
	Lookup        = toolspec.Lookup
	PathVars      = toolspec.PathVars
	DecodeCatalog = toolspec.DecodeCatalog
	Observe       = toolspec.Observe
	CheckConfirm  = toolspec.CheckConfirm
	AddOutputs    = toolspec.AddOutputs
)

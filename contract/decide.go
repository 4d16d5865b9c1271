package contract

// DecideInput asks a planner for the next action.
type DecideInput struct {
	// Planner is PlannerGraphFirst, PlannerLLM, or empty for the worker's default (the LLM
	// when one is configured).
	Planner string  `json:"planner,omitempty"`
	Context Context `json:"context"`
	// NoInertia makes the LLM decide every step; by default a step the learned graph is sure
	// of (planner.Inertial) is taken without it.
	NoInertia bool `json:"no_inertia,omitempty"`
}

// Planner names, the values of DecideInput.Planner.
const (
	PlannerLLM        = "llm"
	PlannerGraphFirst = "graph-first"
)

// Error types of planner failures no retry can fix.
const (
	ErrTypePlannerInvalidOutput = "navi.PlannerInvalidOutput"
	ErrTypeLLMUnauthorized      = "navi.LLMUnauthorized"
	ErrTypeLLMRejected          = "navi.LLMRequestRejected" // e.g. an unknown model
	ErrTypeNoLLM                = "navi.NoLLMConfigured"
)

package workflows

import (
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
)

// Custom search attributes that make Navi runs listable and filterable in the Temporal UI,
// e.g. `NaviStatus = "answered"`. The local dev server registers them at start
// (devserver/main.go keeps the same list); the worker registers any that a cluster lacks.
var (
	StatusAttr   = temporal.NewSearchAttributeKeyKeyword("NaviStatus")
	PlannerAttr  = temporal.NewSearchAttributeKeyKeyword("NaviPlanner")
	StepsAttr    = temporal.NewSearchAttributeKeyInt64("NaviSteps")
	LLMCallsAttr = temporal.NewSearchAttributeKeyInt64("NaviLLMCalls")
	// LLMSavedAttr counts the LLM decisions inertial steps took the place of
	// (planner.Usage.LLMSaved); set once a run has one.
	LLMSavedAttr  = temporal.NewSearchAttributeKeyInt64("NaviLLMSaved")
	ToolsUsedAttr = temporal.NewSearchAttributeKeyKeywordList("NaviToolsUsed")
)

// SearchAttributes maps each custom search attribute to its type, for registration.
var SearchAttributes = map[string]enumspb.IndexedValueType{
	StatusAttr.GetName():    enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	PlannerAttr.GetName():   enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	StepsAttr.GetName():     enumspb.INDEXED_VALUE_TYPE_INT,
	LLMCallsAttr.GetName():  enumspb.INDEXED_VALUE_TYPE_INT,
	LLMSavedAttr.GetName():  enumspb.INDEXED_VALUE_TYPE_INT,
	ToolsUsedAttr.GetName(): enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST,
}

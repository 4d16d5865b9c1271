package toolcall

import (
	"fmt"
	"strings"

	"github.com/naviagent/navi/toolspec"
)

// errorKeys are the top-level fields an error written into a 2xx answer uses.
var errorKeys = []string{"error", "errors", "fault", "error_message", "errorMessage"}

// Suspect says why an answer that came back 2xx looks like no answer, against what the catalog
// declares of api's outputs, and "" when it looks right: an empty answer; an error written
// into it ("error": …) with none of the declared outputs beside it; or none of the declared
// outputs at all. The call succeeded, and the run goes on with what it got, but the graph
// should not learn it as a success. An answer that is not a JSON object ({"result": …}) is
// judged by emptiness alone.
func Suspect(api toolspec.API, output map[string]any) string {
	if isEmpty(output) {
		return "the answer is empty"
	}
	declared := false
	for _, o := range api.Outputs {
		if _, ok := output[o.Name]; ok {
			declared = true
			break
		}
	}
	for _, k := range errorKeys {
		if v, ok := output[k]; ok && !isEmpty(v) && !declared {
			return fmt.Sprintf("the answer is an error (%s: %s)", k, excerpt([]byte(fmt.Sprint(v)), 120))
		}
	}
	if _, bare := output["result"]; len(api.Outputs) > 0 && !declared && !(bare && len(output) == 1) {
		names := make([]string, 0, len(api.Outputs))
		for _, o := range api.Outputs {
			names = append(names, o.Name)
		}
		return "none of its declared outputs (" + strings.Join(names, ", ") + ") is in the answer"
	}
	return ""
}

// isEmpty reports whether v holds nothing: nil, an empty or blank string, or an empty list or
// object, or an object or list of nothing but those.
func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	case []any:
		for _, e := range x {
			if !isEmpty(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !isEmpty(e) {
				return false
			}
		}
		return true
	}
	return false
}

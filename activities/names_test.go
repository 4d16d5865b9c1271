package activities_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/contract"
)

// The workflows run activities by the names in package contract; a worker registers the
// methods of Activities under their Go names. Each name must be a method, and each exported
// method a name, or a workflow would schedule an activity no worker runs.
func TestContractNamesTheActivities(t *testing.T) {
	names := []string{contract.ActivityDecide, contract.ActivityRetrieve, contract.ActivityCallTool,
		contract.ActivityRecombine, contract.ActivityRecordFeedback,
		contract.ActivityPropagateWeights, contract.ActivityTrainModel, contract.ActivityEvaluateModel,
		contract.ActivityWriteModelPredictions, contract.ActivityPruneAndProbe, contract.ActivityActivateModel,
		contract.ActivityPlannerName}
	typ := reflect.TypeOf(&activities.Activities{})
	var methods []string
	for i := range typ.NumMethod() {
		methods = append(methods, typ.Method(i).Name)
	}
	assert.ElementsMatch(t, methods, names)
}

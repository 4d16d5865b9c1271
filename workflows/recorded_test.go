package workflows

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
)

// The chains a run recorded are read from a recorded history whatever ran the write: the
// feedback activity's input (query_v13_*) or the local activity's result (query_v14_*).
func TestRecordedFeedback(t *testing.T) {
	for _, tt := range []struct {
		file string
		apis []string
	}{
		{"testdata/query_v13_recombine.json", nil},
		{"testdata/query_v14_chain.json", []string{"geo.Elevation"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open(tt.file)
			require.NoError(t, err)
			defer f.Close()
			h, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
			require.NoError(t, err)
			chains, err := RecordedFeedback(h, converter.GetDefaultDataConverter())
			require.NoError(t, err)
			require.NotEmpty(t, chains)
			for _, c := range chains {
				assert.NotEmpty(t, c.Key, "each chain has its key")
				assert.NotEmpty(t, c.Invocations, "each chain has its calls")
			}
			if tt.apis != nil {
				var apis []string
				for _, inv := range chains[0].Invocations {
					apis = append(apis, inv.API)
				}
				assert.Equal(t, tt.apis, apis)
			}
		})
	}
}

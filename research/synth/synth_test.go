package synth

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCatalog(t *testing.T) {
	for _, n := range []int{1000, 16000} {
		c := Catalog(n, 1)
		require.Len(t, c.APIs, n)
		require.NoError(t, c.Validate(), "a valid catalog")
		assert.Equal(t, c, Catalog(n, 1), "deterministic for a seed")

		// Parameters are shared: most inputs are some other API's output.
		outputs := map[string]bool{}
		for _, a := range c.APIs {
			for _, p := range a.Outputs {
				outputs[p.Name] = true
			}
		}
		inputs, fed := 0, 0
		for _, a := range c.APIs {
			for _, p := range a.Inputs {
				inputs++
				if outputs[p.Name] {
					fed++
				}
			}
		}
		assert.Greater(t, float64(fed)/float64(inputs), 0.5, "most inputs can be produced upstream")

		// Every fifth API is an equivalent provider: the same inputs and outputs as an earlier one.
		equivalent := 0
		for i := 4; i < n; i += 5 {
			for j := max(0, i-4); j < i; j++ {
				if assert.ObjectsAreEqual(c.APIs[i].Inputs, c.APIs[j].Inputs) && assert.ObjectsAreEqual(c.APIs[i].Outputs, c.APIs[j].Outputs) {
					equivalent++
					break
				}
			}
		}
		assert.Equal(t, n/5, equivalent)
	}
	assert.NotEqual(t, Catalog(100, 1), Catalog(100, 2), "another seed, another catalog")
}

package twnm_test

import (
	"fmt"
	"testing"

	"github.com/naviagent/navi/research/synth"
	"github.com/naviagent/navi/twnm"
)

// BenchmarkFindLinks finds the data-flow links of synthetic catalogs.
func BenchmarkFindLinks(b *testing.B) {
	for _, n := range []int{2500, 16000} {
		b.Run(fmt.Sprintf("apis=%d", n), func(b *testing.B) {
			c := synth.Catalog(n, 1)
			var links int
			for b.Loop() {
				links = len(twnm.FindLinks(c.APIs, twnm.LinkOptions{}))
			}
			b.ReportMetric(float64(links), "links")
		})
	}
}

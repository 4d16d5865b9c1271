package hgtdata

import "github.com/naviagent/navi/twnm/hgt/hgtspec"

// Metrics is how a trained model did (hgtspec.Metrics).
type Metrics = hgtspec.Metrics
